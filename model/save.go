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
		return s.resubmit()
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
	return s.startSave(s.draft.Object, s.base.ResourceVersion, pendingSave{update: ev.AsUpdate})
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
	return []Effect{Save{Ref: s.ref, Object: o.DeepCopy(), ResourceVersion: rv, Base: s.base.Object.DeepCopy(),
		Resubmit: p.resubmit, Force: len(p.forced) > 0, Update: p.update, LeftOut: p.leftOut}}, nil
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
	// Without managedFields the server keeps the ones it has; stale ones
	// typed back in would rewrite ownership.
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	if o.GetNamespace() == "" && !s.ref.ClusterScoped {
		o.SetNamespace(s.base.Object.GetNamespace())
	}
	return o, nil
}

func (s *Session) saved(ev Saved) ([]Effect, error) {
	if s.state != StateSaving || s.pending == nil {
		return nil, &StateError{Event: "take a save result", State: s.state, Reason: "no save is in flight"}
	}
	if ev.Object == nil {
		return nil, errors.New("model: Saved without an object")
	}
	v := NewVersion(ev.Object, ev.At)
	s.timeline.Observe(ev.Object, ev.At, false)
	s.lastSave = s.report(s.pending, ev.Object)
	s.base = v
	if s.liveDeleted || newerRV(v.ResourceVersion, s.live.ResourceVersion) {
		s.live, s.liveDeleted = v, false
	}
	s.failure, s.retries, s.rebase = nil, 0, nil
	gen := s.pending.gen
	s.pending = nil
	if s.draft != nil && s.gen != gen {
		// Edited while saving: the newer draft stays, now made from the
		// saved version, which holds the edits before it.
		s.state = StateEditing
		return []Effect{s.writeDraft()}, nil
	}
	s.draft, s.state = nil, StateSaved
	return []Effect{s.deleteDraft()}, nil
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
	if kind == ErrorConflict && s.state == StateSaving {
		return s.startRebase()
	}
	if kind == ErrorFieldManagerConflict && s.state == StateSaving && s.startOwnership(ev.Err) {
		return nil, nil
	}
	s.pending, s.rebase = nil, nil
	s.state = StateFailed
	f := &Failure{Kind: kind, Err: ev.Err, Causes: CausesOf(ev.Err)}
	s.failure = f
	if !kind.Retryable() {
		s.retries = 0
		return nil, nil
	}
	s.retries++
	f.Attempt = s.retries
	delay := retryBase << min(s.retries-1, 5)
	return []Effect{RetrySave{Attempt: s.retries, Delay: min(delay, retryMax)}}, nil
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
