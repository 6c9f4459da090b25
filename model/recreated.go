package model

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// MadeOnEarlierObject is kedit's one rule for "this draft was made on an
// earlier object": it reports whether something made on the object whose
// uid is madeOn (a draft, a stored draft, a rebase's base) was made on an
// earlier object of this name than the one whose uid is now. An object
// deleted and created again under the same name is another object, with
// another uid. An unknown uid ("") is no evidence either way.
//
// The recovery of a stored draft, the save of a draft, the timeline's
// "created again" and the base of a text from the editor all ask it.
func MadeOnEarlierObject(madeOn, now string) bool {
	return madeOn != "" && now != "" && madeOn != now
}

// RecreatedError refuses to save a draft made on an earlier object of this
// name onto the object there now, created again since, until the user says
// yes: SaveRequested (or Resubmit) with OntoNewObject. As a Failure's Err it
// says that a save met the new object on the server.
type RecreatedError struct {
	// UID is the new object's uid.
	UID string
	// ResourceVersion is the new object's version the save would go onto.
	ResourceVersion string
}

// Error says what the user is asked about.
func (e *RecreatedError) Error() string {
	return "your draft was made on an earlier object of this name, deleted since"
}

// ErrorKind returns ErrorRecreated.
func (e *RecreatedError) ErrorKind() ErrorKind { return ErrorRecreated }

func uidOf(obj *unstructured.Unstructured) string {
	if obj == nil {
		return ""
	}
	return string(obj.GetUID())
}

// needsYes reports whether saving onto theirs would take the draft, made on
// base's object, onto another object of this name without the user's yes.
// While rebasing, base is the rebase's base.
func (s *Session) needsYes(theirs *unstructured.Unstructured) bool {
	now := uidOf(theirs)
	return MadeOnEarlierObject(uidOf(s.base.Object), now) && s.ontoNew != now
}

// onEarlierObject reports whether the draft was made on an earlier object
// of this name than live, which exists.
func (s *Session) onEarlierObject() bool {
	return !s.liveDeleted && MadeOnEarlierObject(uidOf(s.base.Object), uidOf(s.live.Object))
}

// stopForYes ends a save that met theirs, another object of this name
// than the draft's: nothing is merged or sent, the draft is as it was, and
// the failure says why (the UI asks the user).
func (s *Session) stopForYes(theirs Version) {
	s.pending, s.rebase, s.retries = nil, nil, 0
	s.state = StateFailed
	s.failure = &Failure{Kind: ErrorRecreated, Err: &RecreatedError{UID: uidOf(theirs.Object), ResourceVersion: theirs.ResourceVersion}}
}

// saveOntoNew is the save of a draft made on an earlier object, onto live,
// after the user's yes. A new object that holds what the earlier one held
// (the same content, server-owned fields aside) takes the draft as it
// stands. Any other goes through the rebase as a conflict would: mine and
// live merged from the earlier object, shown in the conflict view (whose
// title says that theirs is a new object), where s resubmits it.
func (s *Session) saveOntoNew() ([]Effect, error) {
	live := s.live
	s.unsure, s.serverRebases = nil, 0
	if diff.ServerOwnedOnly(s.base.Object, live.Object, s.opts...) {
		prev := s.base
		s.base = live
		effects, err := s.startSave(s.draft.Object, live.ResourceVersion, pendingSave{newObject: true})
		if err != nil {
			s.base = prev
			return nil, err
		}
		s.ontoNew = uidOf(live.Object)
		return append([]Effect{s.writeDraft()}, effects...), nil
	}
	s.ontoNew = uidOf(live.Object)
	s.merge(live, nil)
	return s.resubmitAuto(), nil
}

// createdAgainAt is the first version kedit saw of the object whose uid is
// uid, as the timeline holds it; rv when the timeline holds none.
func (s *Session) createdAgainAt(uid, rv string) string {
	first, found := rv, false
	for _, e := range s.timeline.entries {
		if e.uid == uid && !e.Deleted && (!found || newerRV(first, e.ResourceVersion)) {
			first, found = e.ResourceVersion, true
		}
	}
	return first
}
