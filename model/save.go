package model

import (
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

func (s *Session) saveRequested(ev SaveRequested) ([]Effect, error) {
	switch s.state {
	case StateRebasing, StateResolving:
		return s.resubmit(ev.OntoNewObject)
	case StateWaitingTheirs:
		return nil, &StateError{Event: "save", State: s.state, Reason: "theirs is still being read from the server"}
	case StateSaving:
		return nil, &StateError{Event: "save", State: s.state, Reason: "a save is in flight"}
	}
	if s.draft == nil {
		return nil, ErrNoDraft
	}
	if s.draft.Err != nil {
		return nil, s.draft.Err
	}
	if s.onEarlierObject() {
		// Made on an earlier object of this name: it goes onto the new
		// one only with the user's yes.
		if !ev.OntoNewObject && s.ontoNew != uidOf(s.live.Object) {
			return nil, &RecreatedError{UID: uidOf(s.live.Object), ResourceVersion: s.live.ResourceVersion}
		}
		return s.saveOntoNew()
	}
	s.serverRebases = 0
	if a := s.again; a != nil {
		a.rounds, a.stopped = 0, false
	}
	if s.unsure != nil {
		return s.verify(), nil
	}
	return s.startSave(s.draft.Object, s.base.ResourceVersion, pendingSave{update: ev.AsUpdate})
}

// verify asks for the object as the server has it, before anything is
// sent again after a save whose answer was lost (the lost-answer rule).
// The draft may have been edited since: then it is sent once the lost
// save is settled.
func (s *Session) verify() []Effect {
	p := *s.unsure
	p.verifying, p.thenSave = true, s.gen != p.gen
	s.pending = &p
	s.state, s.failure, s.lastSave = StateSaving, nil, nil
	return []Effect{VerifySave{Ref: s.ref, ResourceVersion: p.object.GetResourceVersion()}}
}

// saveVerified settles a save whose answer was lost, from the object as
// the server has it now: the save went through (the object holds every
// change it made), so it is reported saved and nothing is written again;
// or nothing was written since, so it is sent again; or someone else wrote
// meanwhile, which is a conflict, as the save would have met.
func (s *Session) saveVerified(ev SaveVerified) ([]Effect, error) {
	if s.state != StateSaving || s.pending == nil || !s.pending.verifying {
		return nil, &StateError{Event: "take the object read back", State: s.state, Reason: "no save is being verified"}
	}
	if ev.Object == nil {
		return nil, errors.New("model: SaveVerified without an object")
	}
	p := s.pending
	s.unsure = nil
	sentRV := p.object.GetResourceVersion()
	switch {
	case s.landed(p, ev.Object):
		p.verifying, p.verified = false, true
		effects, err := s.saved(Saved(ev))
		if err == nil && p.thenSave && s.state == StateEditing && s.draft != nil && s.draft.Err == nil && s.keptGen != s.gen {
			more, err := s.startSave(s.draft.Object, s.base.ResourceVersion, pendingSave{})
			return append(effects, more...), err
		}
		return effects, err
	case ev.Object.GetResourceVersion() == sentRV:
		if p.thenSave {
			s.pending = nil
			return s.startSave(s.draft.Object, sentRV, pendingSave{})
		}
		again := *p
		again.verifying = false
		s.pending = &again
		return []Effect{s.saveEffect(&again, sentRV)}, nil
	default:
		p.verifying = false
		return s.conflicted(Conflicted{Theirs: ev.Object, At: ev.At})
	}
}

// landed reports whether live holds every change the save p made from
// base: the save went through (or someone made the same changes), so
// rebasing onto live would merge nothing of it and sending it again would
// write it twice.
func (s *Session) landed(p *pendingSave, live *unstructured.Unstructured) bool {
	if !newerRV(live.GetResourceVersion(), p.object.GetResourceVersion()) {
		return false
	}
	intended := p.intended
	if intended == nil {
		intended = p.object
	}
	return s.holds(live, s.base.Object, intended)
}

// holds reports whether obj holds every change made from one version to
// another: merged onto obj, those changes add nothing (server-owned fields
// aside, which the merge takes from obj).
func (s *Session) holds(obj, from, to *unstructured.Unstructured) bool {
	m, err := diff.MergeObjects(from, to, obj, s.opts...)
	if err != nil || m.Open() > 0 {
		return false
	}
	final, err := m.Final()
	return err == nil && sameContent(final, obj)
}

// startSave sends obj conditionally on rv, the one way the session writes.
// how says how: a resubmit, an update whatever the strategy, the fields to
// force and the object meant (when obj leaves fields out).
func (s *Session) startSave(obj *unstructured.Unstructured, rv string, how pendingSave) ([]Effect, error) {
	o, err := s.toSave(obj, rv)
	if err != nil {
		return nil, err
	}
	p := how
	p.gen, p.object = s.gen, o
	s.pending = &p
	s.state, s.failure, s.lastSave = StateSaving, nil, nil
	return []Effect{s.saveEffect(&p, rv)}, nil
}

// saveEffect is the Save that sends p conditionally on rv, made from base.
func (s *Session) saveEffect(p *pendingSave, rv string) Save {
	return Save{Ref: s.ref, Object: p.object.DeepCopy(), ResourceVersion: rv, Base: s.base.Object.DeepCopy(),
		Resubmit: p.resubmit, Force: len(p.forced) > 0, Update: p.update, LeftOut: p.leftOut}
}

// toSave is obj as it goes to the server, conditional on rv.
func (s *Session) toSave(obj *unstructured.Unstructured, rv string) (*unstructured.Unstructured, error) {
	if rv == "" {
		return nil, ErrNoResourceVersion
	}
	o := obj.DeepCopy()
	// Base's resourceVersion, not whatever the text says: base is what
	// the draft was made from. Its uid too: a draft recovered from an
	// object deleted and created again still names the old one, which the
	// server would refuse as a conflict no rebase can settle.
	o.SetResourceVersion(rv)
	if uid := s.base.Object.GetUID(); uid != "" {
		o.SetUID(uid)
	}
	// Without managedFields the server keeps the ones it has.
	diff.DropManagedFields(o)
	if o.GetNamespace() == "" && !s.ref.ClusterScoped {
		o.SetNamespace(s.base.Object.GetNamespace())
	}
	return o, nil
}

func (s *Session) saved(ev Saved) ([]Effect, error) {
	if s.state != StateSaving || s.pending == nil || s.pending.verifying {
		return nil, &StateError{Event: "take a save result", State: s.state, Reason: "no save is in flight"}
	}
	if ev.Object == nil {
		return nil, errors.New("model: Saved without an object")
	}
	v := NewVersion(ev.Object, ev.At)
	s.timeline.Observe(ev.Object, ev.At, false)
	s.lastSave = s.report(s.pending, ev.Object)
	s.lastSave.Warnings = ev.Warnings
	s.base = v
	if s.liveDeleted || newerRV(v.ResourceVersion, s.live.ResourceVersion) {
		s.live, s.liveDeleted = v, false
	}
	s.failure, s.retries, s.rebase, s.unsure, s.serverRebases = nil, 0, nil, nil, 0
	gen := s.pending.gen
	s.pending = nil
	if s.draft != nil && s.gen != gen {
		// Edited while saving: the newer draft stays, now made from the
		// saved version, which holds the edits before it.
		s.state = StateEditing
		return []Effect{s.writeDraft()}, nil
	}
	if s.draft != nil && len(s.lastSave.Dropped()) > 0 {
		// The server dropped a value the user wrote, or kept one they
		// removed (an unknown field under --validate=ignore or warn, a
		// webhook's change, SaveReport.Dropped): the
		// draft keeps what they wrote, now made from the saved version,
		// until they discard or edit it, having been shown which paths. A
		// value stored in another form (a quantity made canonical, a
		// default, a webhook's change) is named and the draft ends.
		s.state, s.keptGen = StateEditing, s.gen
		return []Effect{s.writeDraft()}, nil
	}
	s.lastLanded = &landedSave{text: s.draft.Text, rv: v.ResourceVersion}
	s.draft, s.state = nil, StateSaved
	return []Effect{s.deleteDraft()}, nil
}

// KeptAfterSave returns the report of the save the draft outlived: a save
// the server took that stored otherwise than the draft at some path
// (SaveReport.NotStored), after which the draft, unchanged since, keeps
// what the user wrote on top of the saved version. False once the draft
// is edited, discarded or sent again.
func (s *Session) KeptAfterSave() (*SaveReport, bool) {
	if s.state != StateEditing || s.draft == nil || s.keptGen != s.gen || s.lastSave == nil || len(s.lastSave.Dropped()) == 0 {
		return nil, false
	}
	return s.LastSave(), true
}

// Retry back-off: the first retry after retryBase, doubling up to retryMax.
const (
	retryBase = time.Second
	retryMax  = 30 * time.Second
)

func (s *Session) saveFailed(ev SaveFailed) ([]Effect, error) {
	if s.state != StateSaving && s.state != StateWaitingTheirs {
		return nil, &StateError{Event: "take a save failure", State: s.state, Reason: "no save is in flight"}
	}
	kind := KindOf(ev.Err)
	// A read back (VerifySave) cannot conflict; only a save can.
	sending := s.state == StateSaving && !s.pending.verifying
	if kind == ErrorConflict && sending {
		return s.startRebase()
	}
	if kind == ErrorFieldManagerConflict && sending && s.startOwnership(ev.Err) {
		return nil, nil
	}
	switch {
	case s.state == StateSaving && s.pending != nil && s.pending.verifying && kind != ErrorNotFound:
		// The read back failed: whether the lost save was stored is still
		// unknown, so the next save reads the object back again. (An
		// object that is gone can only be created again, lost save or not.)
	case s.state == StateSaving && s.pending != nil && MayHaveLanded(ev.Err):
		// The save may have reached the server with only its answer lost:
		// the next save reads the object back first (verify).
		u := *s.pending
		u.verifying, u.thenSave = false, false
		s.unsure = &u
	case s.state == StateSaving:
		// An answer: the save was not stored.
		s.unsure = nil
	}
	s.pending, s.rebase = nil, nil
	s.state = StateFailed
	f := &Failure{Kind: kind, Err: ev.Err, Causes: CausesOf(ev.Err)}
	s.failure = f
	if !kind.Retryable() {
		// An answer: final. The draft is kept; nothing is sent until the
		// user asks.
		s.retries = 0
		return nil, nil
	}
	s.retries++
	f.Attempt = s.retries
	return []Effect{RetrySave{Attempt: s.retries, Delay: retryDelay(s.retries, ev.Err)}}, nil
}

func (s *Session) recreate() ([]Effect, error) {
	gone := s.liveDeleted || (s.failure != nil && s.failure.Kind == ErrorNotFound)
	if !gone {
		return nil, &StateError{Event: "recreate", State: s.state, Reason: "the object still exists"}
	}
	if s.state != StateEditing && s.state != StateFailed {
		return nil, &StateError{Event: "recreate", State: s.state}
	}
	if s.draft == nil {
		return nil, ErrNoDraft
	}
	if s.draft.Err != nil {
		return nil, s.draft.Err
	}
	o := s.draft.Object.DeepCopy()
	// A create carries nothing the server assigns.
	diff.StripServerOwned(o)
	if o.GetNamespace() == "" && !s.ref.ClusterScoped {
		o.SetNamespace(s.base.Object.GetNamespace())
	}
	s.pending = &pendingSave{gen: s.gen, object: o}
	s.state, s.failure, s.lastSave = StateSaving, nil, nil
	return []Effect{Create{Ref: s.ref, Object: o.DeepCopy()}}, nil
}
