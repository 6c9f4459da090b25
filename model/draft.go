package model

import (
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// draftEdited takes the user's text as the draft, whether it parses or
// not; ev.Parsed, when it is the text's, saves parsing it again. A new
// draft is based on the version its text was made from (baseOfText): the
// version it names, or the version a landed save stored when the text was
// opened on that save's draft (ev.From).
func (s *Session) draftEdited(ev DraftEdited) ([]Effect, error) {
	rv := ""
	if s.lastLanded != nil && ev.From != "" && ev.From == s.lastLanded.text {
		rv = s.lastLanded.rv
	}
	opened := ""
	if s.draft == nil && ev.From != "" {
		// A text that cannot be read cannot name its version: the text
		// the editor was opened on does.
		if obj, err := s.format.parse(ev.From); err == nil {
			opened = obj.GetResourceVersion()
		}
	}
	return s.takeDraft(ev.Text, ev.Parsed, true, rv, opened)
}

// takeDraft takes text as the draft; ofText bases a new draft on the
// version the text was made from (madeFrom, or when that is "" the one
// the text names) rather than on base as it is now. A new draft whose
// text cannot be read (or names another object) is based on opened, the
// version the editor was opened on: fixed later, the text holds that
// version's values, and saved over a base that moved on meanwhile it
// would silently undo what changed, the lost update kedit exists to
// prevent. Unread, it cannot be said to hold those changes, so the save
// that follows is a conflict.
func (s *Session) takeDraft(text string, parsed *ParsedDraft, ofText bool, madeFrom, opened string) ([]Effect, error) {
	fresh := ofText && s.draft == nil
	obj, err := s.parse(text, parsed)
	s.gen++
	s.draft = &Draft{Text: text, Object: obj, Err: err}
	switch s.state {
	case StateSaving:
		// The save in flight goes on; its outcome looks at the newer
		// draft.
	case StateWaitingTheirs:
		// The merge will take the newer draft when theirs comes.
	case StateRebasing, StateResolving:
		switch {
		case obj != nil:
			// Mine changed under the merge: merge again, keeping the
			// resolutions of the conflicts that stayed the same.
			s.remerge()
		default:
			// The merge is of an older mine now; Resubmit refuses it
			// until the draft parses again.
			rb := *s.rebase
			rb.stale = true
			s.rebase = &rb
		}
	default:
		switch {
		case fresh && obj != nil:
			if madeFrom == "" {
				madeFrom = obj.GetResourceVersion()
			}
			s.baseOfText(madeFrom, obj)
		case fresh:
			if madeFrom == "" {
				madeFrom = opened
			}
			s.baseOfText(madeFrom, nil)
		}
		if err == nil && sameContent(obj, s.base.Object) {
			// No change, as kubectl edit says: nothing to save or keep.
			s.draft, s.state, s.failure = nil, StateViewing, nil
			if !s.liveDeleted {
				s.base = s.live
			}
			return []Effect{s.deleteDraft()}, nil
		}
		// The retry count stays: a retry scheduled before the edit is
		// still due, and its back-off goes on from where it was.
		s.state, s.failure = StateEditing, nil
	}
	return []Effect{s.writeDraft()}, err
}

// ParsedDraft is a draft's text parsed ahead of DraftEdited, by
// Format.ParseDraft.
type ParsedDraft struct {
	text   string
	format Format
	obj    *unstructured.Unstructured
	err    error
}

// Object is the object the text holds, as the server would get it (a
// Secret's values encoded); nil when it does not parse.
func (p *ParsedDraft) Object() *unstructured.Unstructured {
	if p == nil || p.err != nil {
		return nil
	}
	return p.obj
}

// Err returns why the text cannot be saved as it stands, a *DraftError
// naming the line when it can, or nil when it parses. For the text of
// ref's object: a Secret's refusal never quotes the text, which may hold
// a value.
func (p *ParsedDraft) Err(ref ObjectRef) error {
	if p.err != nil && ref.IsSecret() {
		return redactDraftError(p.err)
	}
	return p.err
}

// baseOfText makes base the version a new draft's text was made from, when
// base moved on while the text was being edited. With no draft base
// follows live, so an editor opened on rv 540 can come back after the
// watch moved base to 541; saved over 541, the text would silently undo
// 541's change, the lost update kedit exists to prevent. The text names
// its version (metadata.resourceVersion, as the editor was given it), and
// the timeline still holds that version unless its bound dropped it: the
// draft is based on it, so the banner says what changed meanwhile and the
// save is a conflict. A text naming no older version of this object keeps
// base. rv is the version the text was made from; obj is the text's
// object, nil when it cannot be read.
func (s *Session) baseOfText(rv string, obj *unstructured.Unstructured) {
	if rv == "" || !newerRV(s.base.ResourceVersion, rv) {
		return
	}
	uid := string(s.base.Object.GetUID())
	for _, e := range s.timeline.Entries() {
		// Base's object's version only: not one of an earlier object
		// (MadeOnEarlierObject), nor one whose uid is unknown where base's
		// is known, or the reverse. A base must be known to be this
		// object, where a draft need only not be known to be another's.
		if e.ResourceVersion != rv || e.Deleted || MadeOnEarlierObject(e.uid, uid) || (e.uid == "") != (uid == "") {
			continue
		}
		// A text that holds every change from its version to base
		// already loses nothing on base, and is no conflict either.
		if old, ok := s.timeline.Object(e.ID); ok && (obj == nil || !s.holds(obj, old, s.base.Object)) {
			s.base = NewVersion(old, e.Observed)
		}
		return
	}
}

// parse reads a draft's text, or takes parsed when it is text's, and
// checks that it is still base's object.
func (s *Session) parse(text string, parsed *ParsedDraft) (*unstructured.Unstructured, error) {
	obj, err := s.parseText(text, parsed)
	if err != nil {
		return nil, err
	}
	if err := checkIdentity(text, s.base.Object, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// mergedEdited takes the merged text as the user edited it by hand: the
// rebase is done, and the draft is that text, made from theirs. It starts
// from theirs' values (open conflicts are blocks holding all three), so
// nothing of theirs is lost unless the user removes it. Text that cannot
// be saved (a block left in, YAML that does not parse) is refused: the
// rebase and its resolutions stay as they were, and the text is kept to
// be offered again.
func (s *Session) mergedEdited(text string) ([]Effect, error) {
	if err := s.merging("take the edited merge"); err != nil {
		return nil, err
	}
	obj, err := s.parseText(text, nil)
	if err == nil {
		err = checkIdentity(text, s.rebase.Theirs.Object, obj)
	}
	if err != nil {
		rb := *s.rebase
		rb.Edited = text
		s.rebase = &rb
		return nil, err
	}
	rb := s.rebase
	// Edited by hand in the view, after seeing it: as a resubmit, it arms
	// the rule for objects whose data keeps changing, with what the
	// edit changed from theirs protected too. (Onto an object created
	// again, the text is made on the new one: the view said so.)
	edited, _ := Changes(rb.Theirs.Object, obj, s.opts...)
	s.arm(rb, edited)
	s.base = rb.Theirs
	s.rebase = nil
	s.gen++
	s.draft = &Draft{Text: text, Object: obj}
	s.state, s.failure, s.retries = StateEditing, nil, 0
	return []Effect{s.writeDraft()}, nil
}

// parseText is parseDraft (or parsed, when it is text's: parsed in the
// background), whose refusal of a Secret's text never quotes the text
// (ParsedDraft.Err).
func (s *Session) parseText(text string, parsed *ParsedDraft) (*unstructured.Unstructured, error) {
	if parsed == nil || parsed.text != text || parsed.format != s.format {
		parsed = s.format.ParseDraft(text)
	}
	return parsed.obj, parsed.Err(s.ref)
}

func (s *Session) writeDraft() WriteDraft {
	s.storeSeq++
	return WriteDraft{Ref: s.ref, Text: s.draft.Text, Format: s.format, BaseResourceVersion: s.base.ResourceVersion, Base: s.base.Object, Seq: s.storeSeq}
}

func (s *Session) deleteDraft() DeleteDraft {
	s.storeSeq++
	return DeleteDraft{Ref: s.ref, Seq: s.storeSeq}
}

// StoreDraft returns the effect that brings the draft store up to the
// session as it is now: a WriteDraft of the draft, or a DeleteDraft when
// there is none. It orders after every effect handed out before, so
// performing it last (when kedit ends) leaves the store holding the latest
// draft whatever happened to the writes still in flight.
func (s *Session) StoreDraft() Effect {
	if s.draft == nil {
		return s.deleteDraft()
	}
	return s.writeDraft()
}

// sameContent compares two versions of the object, leaving out what the
// server maintains.
func sameContent(a, b *unstructured.Unstructured) bool {
	if a == nil || b == nil {
		return a == b
	}
	strip := func(o *unstructured.Unstructured) map[string]any {
		c := o.DeepCopy()
		for _, f := range diff.ServerOwnedMeta() {
			unstructured.RemoveNestedField(c.Object, "metadata", f)
		}
		return c.Object
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// DraftRevision numbers the draft as it stands: it grows each time the
// draft is replaced (an edit, a merge taken, a resubmit's merged draft),
// so that the UI can tell what it said of one draft from the next.
func (s *Session) DraftRevision() int { return s.gen }
