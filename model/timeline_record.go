package model

import (
	"encoding/json"
	"time"
)

// TimelineRecord is one timeline entry as `--timeline-out` writes it, one
// JSON object per line, for incident notes: which version, when kedit saw
// it, who wrote it and which fields changed. It holds field paths, never
// values, so a Secret's data cannot reach the file: a path names a key of
// data, and keys are not secret.
type TimelineRecord struct {
	// Object is the object as a kubectl argument, "configmaps/testmap -n ns".
	Object string `json:"object"`
	// Context is the kubeconfig context.
	Context string `json:"context,omitempty"`
	// ID is the entry's Entry.ID.
	ID int `json:"id"`
	// RV is the version's resourceVersion.
	RV string `json:"rv"`
	// Time is when kedit observed the version.
	Time time.Time `json:"time"`
	// Manager, Operation and Subresource name the writer, as far as
	// managedFields tell.
	Manager     string `json:"manager,omitempty"`
	Operation   string `json:"operation,omitempty"`
	Subresource string `json:"subresource,omitempty"`
	// Deleted and Recreated mark a deletion and a re-creation.
	Deleted   bool `json:"deleted,omitempty"`
	Recreated bool `json:"recreated,omitempty"`
	// Changes are the changed fields: "modified .data.foo".
	Changes []TimelineRecordChange `json:"changes"`
	// Error says that the versions could not be compared.
	Error string `json:"error,omitempty"`
}

// TimelineRecordChange is one changed field of a TimelineRecord.
type TimelineRecordChange struct {
	Path string `json:"path"`
	// Kind is "added", "modified" or "removed".
	Kind string `json:"kind"`
}

// NewTimelineRecord describes entry e of ref's timeline.
func NewTimelineRecord(ref ObjectRef, e Entry) TimelineRecord {
	r := TimelineRecord{
		Object: ref.String(), Context: ref.Context, ID: e.ID, RV: e.ResourceVersion, Time: e.Observed,
		Manager: e.Manager, Operation: e.Operation, Subresource: e.Subresource,
		Deleted: e.Deleted, Recreated: e.Recreated, Changes: []TimelineRecordChange{},
	}
	for _, c := range e.Changes {
		r.Changes = append(r.Changes, TimelineRecordChange{Path: c.Path, Kind: c.Kind.String()})
	}
	if e.Err != nil {
		r.Error = e.Err.Error()
		if ref.IsSecret() {
			// A comparison's error may quote the value it choked on.
			r.Error = "the versions could not be compared"
		}
	}
	return r
}

// EncodeTimelineEntry encodes entry e of ref's timeline as one JSON line,
// newline included.
func EncodeTimelineEntry(ref ObjectRef, e Entry) ([]byte, error) {
	b, err := json.Marshal(NewTimelineRecord(ref, e))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// AppendTimeline is the effect that asks kube/ to append timeline entries
// to the --timeline-out file: the versions that joined the timeline during
// one Handle. Sessions return it only after EmitTimeline.
type AppendTimeline struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// Entries are the new entries, oldest first.
	Entries []Entry
}

func (AppendTimeline) effect() {}

// EmitTimeline makes Handle return an AppendTimeline effect whenever
// versions join the timeline, for --timeline-out. Call it before Opened
// so that the first version is written too.
func (s *Session) EmitTimeline() { s.emitTimeline = true }

// timelineEffect returns the AppendTimeline for the entries with an ID of
// at least from, or nil when there is none or nobody asked.
func (s *Session) timelineEffect(from int) Effect {
	if !s.emitTimeline || s.timeline.nextID == from {
		return nil
	}
	var fresh []Entry
	for _, e := range s.timeline.Entries() {
		if e.ID >= from {
			fresh = append(fresh, e)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	return AppendTimeline{Ref: s.ref, Entries: fresh}
}
