package history

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The verbs of the audit events Analyze reads.
const (
	VerbGet    = "get"
	VerbList   = "list"
	VerbWatch  = "watch"
	VerbCreate = "create"
	VerbUpdate = "update"
	VerbPatch  = "patch"
	VerbDelete = "delete"
)

// Client is who made a request: the effective user (the impersonated user
// when there is one) with its user agent.
type Client struct {
	User      string `json:"user"`
	UserAgent string `json:"userAgent"`
}

// String names the client as "user (user agent)".
func (c Client) String() string {
	if c.UserAgent == "" {
		return c.User
	}
	return fmt.Sprintf("%s (%s)", c.User, UserAgentText(c.UserAgent))
}

// unstamped ends the user agent client-go makes for a binary built
// without version stamps (go build without kube's -ldflags): its commit
// is the placeholder $Format, its version v0.0.0.
const unstamped = " kubernetes/$Format"

// UserAgentText is a user agent as the report says it: as it is, but for
// a build without version stamps, which is said to be one
// ("localcluster (linux/amd64), a build without version stamps") rather
// than shown with its placeholders.
func UserAgentText(ua string) string {
	if !strings.HasSuffix(ua, unstamped) {
		return ua
	}
	s := strings.TrimSuffix(ua, unstamped)
	if name, rest, ok := strings.Cut(s, "/v0.0.0 "); ok {
		s = name + " " + rest
	}
	return s + ", a build without version stamps"
}

// Event is one audit event about the object: a write of it, or a read
// that covers it (a get of it, or a list or watch of its collection).
type Event struct {
	// Verb is the request's verb, one of the Verb constants.
	Verb   string
	Client Client
	// Manager is the field manager the request named (its fieldManager
	// parameter); empty when it named none.
	Manager string
	// Received is when the server received the request
	// (requestReceivedTimestamp), Time when the event was recorded
	// (stageTimestamp): for a write, after the object was stored; for a
	// watch, when it ended.
	Received, Time time.Time
	// Open marks a watch that had not ended when the log ends: it covers
	// the object from Received on.
	Open bool
	// Code is the response's status code; 0 when the log does not say.
	Code int
	// RequestRV is the resourceVersion the request carried as a
	// precondition (in its object, patch or delete options); empty for
	// none.
	RequestRV string
	// Tests are the paths (JSON pointers, "/data/foo") a JSON Patch's
	// test operations tested: the server compared their values with the
	// ones the client gave at the moment of the write, so the client had
	// read them then.
	Tests []string
	// Object is what the server returned for a write: the stored object
	// (or a Scale for the scale subresource, or a Status for a deletion).
	// Nil when the log does not record it (a write below RequestResponse
	// level).
	Object *unstructured.Unstructured
	// UID is the object's uid as the event names it, when it does.
	UID string
	// Subresource is the request's subresource, e.g. "status" or "scale".
	Subresource string
	// Source names where the event is in the log, "FILE:LINE".
	Source string
	// Level is the audit level the event was logged at (Metadata,
	// Request, RequestResponse); empty when the log does not say.
	Level string
}

// IsWrite reports whether the event is a write: create, update, patch or
// delete.
func (e *Event) IsWrite() bool {
	switch e.Verb {
	case VerbCreate, VerbUpdate, VerbPatch, VerbDelete:
		return true
	}
	return false
}

// succeeded reports whether the request succeeded; a log that does not
// record the status counts a write with a stored object as done.
func (e *Event) succeeded() bool {
	if e.Code == 0 {
		return e.Object != nil
	}
	return e.Code >= 200 && e.Code < 300
}
