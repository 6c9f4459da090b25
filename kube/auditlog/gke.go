package auditlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// gkePayload is the AuditLog in a GKE Cloud Audit Logs entry's
// protoPayload, as far as kedit reads it.
type gkePayload struct {
	ServiceName        string `json:"serviceName"`
	MethodName         string `json:"methodName"`
	ResourceName       string `json:"resourceName"`
	AuthenticationInfo struct {
		PrincipalEmail string `json:"principalEmail"`
	} `json:"authenticationInfo"`
	RequestMetadata struct {
		CallerSuppliedUserAgent string `json:"callerSuppliedUserAgent"`
	} `json:"requestMetadata"`
	Status *struct {
		Code int `json:"code"`
	} `json:"status"`
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
}

// fromGKE reads a GKE entry: methodName io.k8s.GROUP.VERSION.RESOURCE.VERB
// (core for the core group), resourceName
// GROUP/VERSION[/namespaces/NAMESPACE]/RESOURCE[/NAME[/SUBRESOURCE]]. The
// entry has one time, its timestamp, which stands for both of the Event's;
// its status is a google.rpc code, 0 for success.
func fromGKE(e *envelope) (*auditEvent, error) {
	p := e.ProtoPayload
	if p.ServiceName != "k8s.io" || !strings.HasPrefix(p.MethodName, "io.k8s.") {
		return nil, errNotAudit
	}
	parts := strings.Split(p.MethodName, ".")
	a := &auditEvent{Stage: "ResponseComplete", Verb: parts[len(parts)-1], User: p.AuthenticationInfo.PrincipalEmail,
		UserAgent: p.RequestMetadata.CallerSuppliedUserAgent, Code: 200,
		RequestObject: withoutType(p.Request), ResponseObject: withoutType(p.Response)}
	if e.Operation != nil && e.Operation.ID != "" {
		a.AuditID = e.Operation.ID
	} else {
		a.AuditID = e.InsertID
	}
	if p.Status != nil && p.Status.Code != 0 {
		a.Code = 500 + p.Status.Code // failed; the HTTP code is not kept
	}
	var ts string
	if err := json.Unmarshal(e.Timestamp, &ts); err != nil {
		return nil, errors.New("timestamp: not a time")
	}
	t, err := parseTime(ts)
	if err != nil {
		return nil, err
	}
	a.Received, a.Time = t, t
	seg := strings.Split(p.ResourceName, "/")
	if len(seg) < 3 {
		return a, nil // a non-resource request
	}
	ref := &objectRef{APIGroup: seg[0], APIVersion: seg[1]}
	if ref.APIGroup == "core" {
		ref.APIGroup = ""
	}
	rest := seg[2:]
	if len(rest) >= 3 && rest[0] == "namespaces" {
		ref.Namespace, rest = rest[1], rest[2:]
	}
	ref.Resource = rest[0]
	if len(rest) > 1 {
		ref.Name = rest[1]
	}
	if len(rest) > 2 {
		ref.Subresource = rest[2]
	}
	a.ObjectRef = ref
	return a, nil
}

// withoutType drops the "@type" key GKE adds to the objects it logs.
func withoutType(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"@type"`)) {
		return raw
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	delete(m, "@type")
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}
