package model

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// What the timeline view asks of the session: an entry's object (rebuilt
// from the deltas the timeline keeps), its diff against the entry before
// it, and the text that makes it the draft.

// TimelineEntryError says that a timeline entry asked for by ID is no
// longer on the timeline: it was dropped to stay within the bounds.
type TimelineEntryError struct {
	ID int
}

func (e *TimelineEntryError) Error() string {
	return fmt.Sprintf("timeline entry %d is no longer kept (the timeline drops its oldest versions)", e.ID)
}

// TimelineBytes returns the estimated heap bytes the timeline retains,
// which MaxTimelineBytes bounds.
func (s *Session) TimelineBytes() int { return s.timeline.Bytes() }

// TimelineObject rebuilds the object of the timeline entry with id (an
// Entry.ID), as it was observed. The object is the caller's own.
func (s *Session) TimelineObject(id int) (*unstructured.Unstructured, error) {
	obj, ok := s.timeline.Object(id)
	if !ok {
		return nil, &TimelineEntryError{ID: id}
	}
	return obj, nil
}

// EachTimelineObject calls f with each timeline entry and its object as
// it was observed, newest first, in one pass over the timeline (a
// field's value in every version). f must neither keep nor change obj:
// it becomes the next entry's object.
func (s *Session) EachTimelineObject(f func(e Entry, obj map[string]any)) { s.timeline.each(f) }

// TimelineChange is a timeline entry set against the entry before it, for
// the view that `enter` opens.
type TimelineChange struct {
	// Entry is the entry shown.
	Entry Entry
	// Before is the previous entry's object; nil for the oldest entry kept.
	Before *unstructured.Unstructured
	// After is the entry's object (a deletion's: the object's last state).
	After *unstructured.Unstructured
	// BeforeText and AfterText are Before and After rendered as the draft
	// is (Format.Render: no managedFields); BeforeText is "" without
	// Before.
	BeforeText, AfterText string
	// Edits turn BeforeText into AfterText, line by line.
	Edits []diff.LineEdit
}

// TimelineDiff returns the timeline entry with id and its diff against the
// entry before it.
func (s *Session) TimelineDiff(id int) (TimelineChange, error) {
	i, ok := s.timeline.Index(id)
	if !ok {
		return TimelineChange{}, &TimelineEntryError{ID: id}
	}
	c := TimelineChange{Entry: s.timeline.Entries()[i], After: s.timeline.objectAt(i)}
	if i > 0 {
		c.Before = s.timeline.objectAt(i - 1)
	}
	var err error
	if c.BeforeText, err = s.format.Render(c.Before); err != nil {
		return TimelineChange{}, err
	}
	if c.AfterText, err = s.format.Render(c.After); err != nil {
		return TimelineChange{}, err
	}
	c.Edits = diff.LineDiff(c.BeforeText, c.AfterText)
	return c, nil
}

// TimelineDraftText renders the timeline entry with id as a draft, for `y`
// (make that version the draft): the entry's content with base's
// server-owned metadata (diff.TakeServerOwnedMeta: resourceVersion, uid,
// generation, creationTimestamp ...), which an older version (or one from
// before a re-creation) would otherwise carry back. Handing it to Handle as
// DraftEdited makes it the draft, saved like any other, so a conflict is
// still a conflict.
func (s *Session) TimelineDraftText(id int) (string, error) {
	obj, err := s.TimelineObject(id)
	if err != nil {
		return "", err
	}
	return s.DraftTextOf(obj)
}

// DraftTextOf renders obj, a version of the object known from elsewhere (an
// audit log's), as a draft, as TimelineDraftText renders a timeline entry:
// its content with base's server-owned metadata. obj is not changed.
func (s *Session) DraftTextOf(obj *unstructured.Unstructured) (string, error) {
	obj = obj.DeepCopy()
	if b := s.base.Object; b != nil {
		diff.TakeServerOwnedMeta(obj, b)
	}
	return s.format.Render(obj)
}
