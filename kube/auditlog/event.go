package auditlog

import (
	"encoding/json"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/kedit/kedit/model/history"
)

// consider keeps a decoded event when it is about the object: a request
// on it, or a list or watch of its collection that may include it.
func (rd *reader) consider(a *auditEvent, source string) {
	ref := a.ObjectRef
	if ref == nil || !rd.m.resourceOK(ref.Resource, ref.APIGroup) {
		return
	}
	if query(a.RequestURI, "dryRun") != "" {
		return // nothing was stored
	}
	verb := a.Verb
	read := verb == history.VerbGet || verb == history.VerbList || verb == history.VerbWatch
	byName := ref.Name == rd.m.Name
	switch {
	case byName:
	case ref.Name == "" && (verb == history.VerbList || verb == history.VerbWatch):
		if name, ok := selectedName(query(a.RequestURI, "fieldSelector")); ok && name != rd.m.Name {
			return
		}
	default:
		return
	}
	if ref.Namespace != "" && ref.Namespace != rd.m.Namespace {
		return
	}
	if rd.m.Scoped && ref.Namespace == "" && rd.m.Namespaced && byName {
		return
	}
	switch a.Stage {
	case "ResponseComplete", "ResponseStarted":
		// Rotated logs come in any order: a request's answer may be read
		// before it was received.
		delete(rd.received, a.AuditID)
		rd.answered[a.AuditID] = true
		if a.Stage == "ResponseStarted" && verb != history.VerbWatch {
			return
		}
	case "RequestReceived":
		// Answered later, or never logged as answered: the log holds
		// whether it was done only in a later stage.
		if byName && a.AuditID != "" && !rd.answered[a.AuditID] {
			rd.received[a.AuditID] = kept{resource: ref.Resource, group: ref.APIGroup, namespace: ref.Namespace, byName: true}
		}
		return
	default:
		return
	}
	if rd.seenBefore(a) {
		return
	}
	ev := history.Event{Verb: verb, Client: client(a), Received: a.Received, Time: a.Time, Code: a.Code,
		UID: ref.UID, Subresource: ref.Subresource, Source: source, Manager: query(a.RequestURI, "fieldManager"), Level: a.Level}
	if verb == history.VerbWatch {
		if i, ok := rd.open[a.AuditID]; ok && a.AuditID != "" {
			// The end of a watch whose beginning was read: one span.
			delete(rd.open, a.AuditID)
			rd.events[i].ev.Time, rd.events[i].ev.Open, rd.events[i].ev.Code = a.Time, false, a.Code
			return
		}
		switch {
		case a.Stage == "ResponseStarted" && a.AuditID != "" && rd.ended[a.AuditID]:
			// The beginning of a watch whose end was read first (a
			// rotated file read before an older one): the span is kept
			// already, and this watch is not open.
			return
		case a.Stage == "ResponseStarted":
			ev.Open = true
			if a.AuditID != "" {
				rd.open[a.AuditID] = len(rd.events)
			}
		case a.AuditID != "":
			rd.ended[a.AuditID] = true
		}
	}
	if !read {
		ev.Object = object(a.ResponseObject)
		ev.RequestRV = requestRV(verb, a.RequestObject)
		if verb == history.VerbPatch {
			var rv string
			ev.Tests, rv = jsonPatchTests(a.RequestObject)
			if ev.RequestRV == "" {
				ev.RequestRV = rv
			}
		}
		if ev.UID == "" && ev.Object != nil && ev.Object.GetKind() != "Status" {
			ev.UID = string(ev.Object.GetUID())
		}
	}
	rd.events = append(rd.events, kept{ev: ev, resource: ref.Resource, group: ref.APIGroup, namespace: ref.Namespace, byName: byName})
}

// seenBefore reports whether the same event (its audit ID, stage and
// time) was kept before: two sources that overlap (a file given twice,
// a file and the log engine it was shipped to) hold it twice, and it is
// one request.
func (rd *reader) seenBefore(a *auditEvent) bool {
	if a.AuditID == "" {
		return false
	}
	k := seenKey{a.AuditID, a.Stage, a.Time.UnixNano()}
	if rd.seen[k] {
		return true
	}
	if rd.seen == nil {
		rd.seen = map[seenKey]bool{}
	}
	rd.seen[k] = true
	return false
}

// seenKey is what makes an event the same event.
type seenKey struct {
	auditID, stage string
	time           int64
}

// client is who made the request: the impersonated user when there is
// one, with the user agent.
func client(a *auditEvent) history.Client {
	u := a.User
	if a.ImpersonatedUser != "" {
		u = a.ImpersonatedUser
	}
	return history.Client{User: u, UserAgent: a.UserAgent}
}

// selectedName returns the name a field selector picks
// (metadata.name=NAME or ==NAME), if it picks one.
func selectedName(sel string) (string, bool) {
	for _, term := range strings.Split(sel, ",") {
		k, v, ok := strings.Cut(term, "=")
		if ok && strings.TrimSpace(k) == "metadata.name" {
			return strings.TrimPrefix(v, "="), true
		}
	}
	return "", false
}

// object decodes a logged object, with integers as int64 as client-go
// keeps them; nil when there is none or it is not an object.
func object(raw json.RawMessage) *unstructured.Unstructured {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var m map[string]any
	if err := utiljson.Unmarshal(raw, &m); err != nil {
		return nil
	}
	return &unstructured.Unstructured{Object: m}
}

// requestRV is the resourceVersion a write's request carried as a
// precondition: in the object of an update or merge patch, in a delete's
// preconditions.
func requestRV(verb string, raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '{' {
		return ""
	}
	var body struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
		Preconditions struct {
			ResourceVersion *string `json:"resourceVersion"`
		} `json:"preconditions"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return ""
	}
	if verb == history.VerbDelete {
		if body.Preconditions.ResourceVersion != nil {
			return *body.Preconditions.ResourceVersion
		}
		return ""
	}
	return body.Metadata.ResourceVersion
}

// jsonPatchTests reads a JSON Patch's test operations: the paths they
// test (JSON pointers), and the resourceVersion a test of
// /metadata/resourceVersion requires, which is a precondition as one in
// the object would be. A body that is no JSON Patch has none.
func jsonPatchTests(raw json.RawMessage) (paths []string, rv string) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, ""
	}
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &ops) != nil {
		return nil, ""
	}
	for _, op := range ops {
		if op.Op != "test" {
			continue
		}
		paths = append(paths, op.Path)
		var s string
		if op.Path == "/metadata/resourceVersion" && json.Unmarshal(op.Value, &s) == nil {
			rv = s
		}
	}
	return paths, rv
}
