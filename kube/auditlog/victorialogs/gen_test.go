package victorialogs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"
)

// Random audit events with the shapes real ones have, and the values that
// flattening loses or makes ambiguous: keys with dots and slashes (labels,
// annotations, a ConfigMap's nginx.conf, a service account's extra),
// empty strings, objects and arrays, nulls, strings that read as numbers,
// booleans or JSON, numbers written 3.0 or past 2^53, escapes and
// non-ASCII text.

// nastyText are strings an event may hold.
var nastyText = []string{
	"", "a", "foo", "nginx.conf", "app.kubernetes.io/name", "authentication.kubernetes.io/pod-name", "x y", `say "hi"`,
	`back\slash`, "two\nlines", "tab\there", "é", "日本", "\u2028", "<>&", "3", "3.0", "-1", "true", "null", "{}", "[]",
	`{"a":1}`, `[1,"2"]`, " lead and trail ", "a.b.c", ".", "..", strings.Repeat("long", 60),
}

// nastyKeys are keys a body's object may have.
var nastyKeys = []string{"a", "b", "data", "foo", "nginx.conf", "app.kubernetes.io/name", "a.b", ".", "x y", "é", "3", "", "kind", "metadata"}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// randomJSON writes a random JSON value: numbers as a writer may write
// them (3.0, 1e3, past 2^53), which must come back as written.
func randomJSON(r *rand.Rand, b *bytes.Buffer, depth int) {
	n := r.IntN(10)
	if depth >= 3 && n >= 7 {
		n = r.IntN(7)
	}
	switch n {
	case 0:
		b.WriteString("null")
	case 1:
		b.WriteString(pick(r, []string{"true", "false"}))
	case 2:
		b.WriteString(pick(r, []string{"0", "3", "-7", "3.0", "1.5", "1e3", "-2.5E-3", "12345678901234567890", "9007199254740993"}))
	case 3, 4, 5, 6:
		b.WriteString(strconv.Quote(pick(r, nastyText)))
	case 7:
		b.WriteByte('[')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			randomJSON(r, b, depth+1)
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i < r.IntN(5); i++ {
			k := pick(r, nastyKeys)
			if seen[k] {
				continue
			}
			if len(seen) > 0 {
				b.WriteByte(',')
			}
			seen[k] = true
			b.WriteString(strconv.Quote(k) + ":")
			randomJSON(r, b, depth+1)
		}
		b.WriteByte('}')
	}
}

// randomBody is a request's or response's object: an object or a JSON
// Patch's array.
func randomBody(r *rand.Rand) *runtime.Unknown {
	var b bytes.Buffer
	if r.IntN(4) == 0 {
		b.WriteString(`[{"op":"test","path":"/data/foo","value":` + strconv.Quote(pick(r, nastyText)) + `},{"op":"replace","path":"/data/foo","value":`)
		randomJSON(r, &b, 2)
		b.WriteString(`}]`)
	} else {
		b.WriteString(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"r1","resourceVersion":"` + strconv.Itoa(r.IntN(1000)) + `","labels":{"app.kubernetes.io/name":"x"}},"data":`)
		randomJSON(r, &b, 1)
		b.WriteString(`,"x":`)
		randomJSON(r, &b, 0)
		b.WriteString(`}`)
	}
	return &runtime.Unknown{Raw: b.Bytes(), ContentType: runtime.ContentTypeJSON}
}

func randomUser(r *rand.Rand) authnv1.UserInfo {
	u := authnv1.UserInfo{Username: pick(r, []string{"alice", "bob", "system:serviceaccount:kube-system:x", "é user", `q"uote`})}
	if r.IntN(2) == 0 {
		u.UID = pick(r, nastyText)
	}
	if r.IntN(2) == 0 {
		u.Groups = []string{}
		for range r.IntN(3) {
			u.Groups = append(u.Groups, pick(r, nastyText))
		}
	}
	if r.IntN(3) == 0 {
		u.Extra = map[string]authnv1.ExtraValue{}
		for range r.IntN(3) {
			u.Extra[pick(r, nastyKeys)] = authnv1.ExtraValue{pick(r, nastyText)}
		}
	}
	return u
}

var verbs = []string{"get", "list", "watch", "create", "update", "patch", "delete"}

// randomEvent is any audit event, numbered i (its auditID).
func randomEvent(r *rand.Rand, i int, at time.Time) auditv1.Event {
	verb := pick(r, verbs)
	ev := auditv1.Event{
		TypeMeta:   metav1.TypeMeta{Kind: "Event", APIVersion: "audit.k8s.io/v1"},
		Level:      pick(r, []auditv1.Level{auditv1.LevelMetadata, auditv1.LevelRequest, auditv1.LevelRequestResponse}),
		AuditID:    types.UID(fmt.Sprintf("%08x-aaaa-bbbb-cccc-%012d", r.Uint32(), i)),
		Stage:      pick(r, []auditv1.Stage{auditv1.StageRequestReceived, auditv1.StageResponseStarted, auditv1.StageResponseComplete, auditv1.StagePanic}),
		RequestURI: "/api/v1/namespaces/ns/configmaps/r1?" + pick(r, []string{"", "fieldManager=kubectl-edit", "dryRun=All", "a=%22b%22"}),
		Verb:       verb,
		User:       randomUser(r),
	}
	if r.IntN(3) == 0 {
		u := randomUser(r)
		ev.ImpersonatedUser = &u
	}
	if r.IntN(8) == 0 {
		ev.AuthenticationMetadata = &auditv1.AuthenticationMetadata{ImpersonationConstraint: "impersonate:user-info"}
	}
	if r.IntN(4) > 0 {
		ev.SourceIPs = []string{"127.0.0.1", "::1"}[:1+r.IntN(2)]
	}
	if r.IntN(4) > 0 {
		ev.UserAgent = pick(r, []string{"kubectl/v1.36.3 (linux/amd64) kubernetes/abc", "kedit/dev", "kubernetes/$Format", `odd "agent" é`})
	}
	if r.IntN(6) > 0 {
		ev.ObjectRef = &auditv1.ObjectReference{Resource: pick(r, []string{"configmaps", "deployments"}), Namespace: pick(r, []string{"", "ns", "a.b"}),
			Name: pick(r, []string{"", "r1", "nginx.conf"}), APIGroup: pick(r, []string{"", "apps"}), APIVersion: "v1"}
		if r.IntN(3) == 0 {
			ev.ObjectRef.UID, ev.ObjectRef.ResourceVersion, ev.ObjectRef.Subresource = types.UID(pick(r, nastyText)), "12", pick(r, []string{"", "status", "scale"})
		}
	}
	if r.IntN(6) > 0 {
		ev.ResponseStatus = &metav1.Status{Code: int32(pick(r, []int{200, 201, 404, 409, 422, 500}))}
		if r.IntN(3) == 0 {
			ev.ResponseStatus.Status, ev.ResponseStatus.Reason, ev.ResponseStatus.Message = "Failure", metav1.StatusReasonConflict, pick(r, nastyText)
			ev.ResponseStatus.Details = &metav1.StatusDetails{Name: "r1", Kind: "configmaps", RetryAfterSeconds: int32(r.IntN(3)),
				Causes: []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Message: pick(r, nastyText), Field: "data[nginx.conf]"}}}
		}
	}
	if r.IntN(2) == 0 {
		ev.RequestObject = randomBody(r)
	}
	if r.IntN(2) == 0 {
		ev.ResponseObject = randomBody(r)
	}
	received := at.Add(time.Duration(r.IntN(1e6)) * time.Microsecond)
	ev.RequestReceivedTimestamp = metav1.NewMicroTime(received)
	ev.StageTimestamp = metav1.NewMicroTime(received.Add(time.Duration(r.IntN(1e5)) * time.Microsecond))
	if r.IntN(2) == 0 {
		ev.Annotations = map[string]string{}
		for range 1 + r.IntN(3) {
			k := pick(r, []string{"authorization.k8s.io/decision", "authorization.k8s.io/reason", "pod-security.kubernetes.io/enforce-policy", "a", "", strings.Repeat("k", 130)})
			ev.Annotations[k] = pick(r, nastyText)
		}
	}
	return ev
}
