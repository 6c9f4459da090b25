package auditlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// auditEvent is an audit.k8s.io/v1 Event as far as kedit reads it.
type auditEvent struct {
	AuditID          string
	Level            string
	Stage            string
	RequestURI       string
	Verb             string
	User             string
	ImpersonatedUser string
	UserAgent        string
	ObjectRef        *objectRef
	Code             int
	RequestObject    json.RawMessage
	ResponseObject   json.RawMessage
	Received, Time   time.Time
}

type objectRef struct {
	Resource    string `json:"resource"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	UID         string `json:"uid"`
	APIGroup    string `json:"apiGroup"`
	APIVersion  string `json:"apiVersion"`
	Subresource string `json:"subresource"`
}

type userInfo struct {
	Username string `json:"username"`
}

// envelope is one line of any format read: an Event, or a record that
// wraps one. encoding/json matches keys regardless of case, so the
// AKSAudit table's columns (AuditId, RequestUri, Verb ...) land in the
// Event's fields.
type envelope struct {
	Kind                     string          `json:"kind"`
	APIVersion               string          `json:"apiVersion"`
	AuditID                  string          `json:"auditID"`
	Level                    string          `json:"level"`
	Stage                    string          `json:"stage"`
	RequestURI               string          `json:"requestURI"`
	Verb                     string          `json:"verb"`
	User                     json.RawMessage `json:"user"`
	ImpersonatedUser         json.RawMessage `json:"impersonatedUser"`
	UserAgent                string          `json:"userAgent"`
	ObjectRef                json.RawMessage `json:"objectRef"`
	ResponseStatus           json.RawMessage `json:"responseStatus"`
	RequestObject            json.RawMessage `json:"requestObject"`
	ResponseObject           json.RawMessage `json:"responseObject"`
	RequestReceivedTimestamp string          `json:"requestReceivedTimestamp"`
	StageTimestamp           string          `json:"stageTimestamp"`

	// AKSAudit's names for the two times.
	RequestReceivedTime string `json:"RequestReceivedTime"`
	StageReceivedTime   string `json:"StageReceivedTime"`

	// Wrappers: CloudWatch's message, a log shipper's log, the
	// AzureDiagnostics table's log_s, an Azure archive's properties.log.
	Message    *string `json:"message"`
	Log        *string `json:"log"`
	LogS       *string `json:"log_s"`
	Properties *struct {
		Log *string `json:"log"`
	} `json:"properties"`

	// GKE's Cloud Audit Logs entry.
	ProtoPayload *gkePayload     `json:"protoPayload"`
	Timestamp    json.RawMessage `json:"timestamp"`
	InsertID     string          `json:"insertId"`
	Operation    *struct {
		ID string `json:"id"`
	} `json:"operation"`
}

// errNotAudit says a line is JSON but no audit event in a format read.
var errNotAudit = errors.New("not an audit.k8s.io/v1 Event, nor a record of EKS, AKS or GKE holding one")

// parseLine decodes one line of a log.
func parseLine(line []byte) (*auditEvent, error) {
	return parseDepth(line, 0)
}

func parseDepth(line []byte, depth int) (*auditEvent, error) {
	line = bytes.TrimSpace(line)
	// A CloudWatch export to S3 puts the event's time and a space before
	// it; `aws logs tail` its time and stream.
	if i := bytes.IndexByte(line, '{'); i > 0 {
		line = line[i:]
	} else if i < 0 {
		return nil, errors.New("no JSON object on the line")
	}
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if depth < 2 {
		for _, inner := range []*string{e.Message, e.Log, e.LogS, propertiesLog(&e)} {
			if inner != nil && strings.Contains(*inner, "{") {
				return parseDepth([]byte(*inner), depth+1)
			}
		}
	}
	if e.ProtoPayload != nil {
		return fromGKE(&e)
	}
	return fromEnvelope(&e)
}

func propertiesLog(e *envelope) *string {
	if e.Properties == nil {
		return nil
	}
	return e.Properties.Log
}

// fromEnvelope reads an Event, or an AKSAudit row, whose dynamic columns
// may come as JSON in strings.
func fromEnvelope(e *envelope) (*auditEvent, error) {
	if e.Kind != "" && e.Kind != "Event" {
		return nil, errNotAudit
	}
	if e.APIVersion != "" && !strings.HasPrefix(e.APIVersion, "audit.k8s.io/") {
		return nil, errNotAudit
	}
	if e.Verb == "" || e.Stage == "" {
		return nil, errNotAudit
	}
	a := &auditEvent{AuditID: e.AuditID, Level: e.Level, Stage: e.Stage, RequestURI: e.RequestURI, Verb: e.Verb, UserAgent: e.UserAgent,
		RequestObject: unquote(e.RequestObject), ResponseObject: unquote(e.ResponseObject)}
	var u, iu userInfo
	if err := dynamic(e.User, &u); err != nil {
		return nil, fmt.Errorf("user: %w", err)
	}
	if err := dynamic(e.ImpersonatedUser, &iu); err != nil {
		return nil, fmt.Errorf("impersonatedUser: %w", err)
	}
	a.User, a.ImpersonatedUser = u.Username, iu.Username
	if len(e.ObjectRef) > 0 && string(e.ObjectRef) != "null" {
		a.ObjectRef = &objectRef{}
		if err := dynamic(e.ObjectRef, a.ObjectRef); err != nil {
			return nil, fmt.Errorf("objectRef: %w", err)
		}
	}
	var st struct {
		Code int `json:"code"`
	}
	if err := dynamic(e.ResponseStatus, &st); err != nil {
		return nil, fmt.Errorf("responseStatus: %w", err)
	}
	a.Code = st.Code
	var err error
	if a.Received, err = parseTime(first(e.RequestReceivedTimestamp, e.RequestReceivedTime)); err != nil {
		return nil, fmt.Errorf("requestReceivedTimestamp: %w", err)
	}
	if a.Time, err = parseTime(first(e.StageTimestamp, e.StageReceivedTime)); err != nil {
		return nil, fmt.Errorf("stageTimestamp: %w", err)
	}
	return a, nil
}

// dynamic decodes raw into v: a JSON value, or a string holding one (as
// Azure's tables give dynamic columns); absent or null leaves v alone.
func dynamic(raw json.RawMessage, v any) error {
	raw = unquote(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// unquote returns the JSON a string value holds, or raw itself.
func unquote(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || raw[0] != '"' {
		return raw
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		return json.RawMessage(s)
	}
	// A string that is no object ("skipped-too-big-size-object"): the
	// log does not hold the object.
	return nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// parseTime reads a timestamp as the API server writes it (RFC 3339 with
// microseconds), or as Azure's tables do.
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, errors.New("missing")
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is no time", s)
}

// query returns the parameter key of a request URI.
func query(uri, key string) string {
	_, q, ok := strings.Cut(uri, "?")
	if !ok {
		return ""
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		return ""
	}
	return v.Get(key)
}
