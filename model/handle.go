package model

import (
	"errors"
	"fmt"
)

// Handle applies ev and returns the new state and the effects to perform,
// in order. A non-nil error means ev was refused and nothing changed,
// except for a DraftEdited whose text cannot be saved: the text is still
// kept (and stored), and the error is its *DraftError.
func (s *Session) Handle(ev Event) (State, []Effect, error) {
	var effects []Effect
	var err error
	firstNew := s.timeline.nextID
	if !s.opened {
		switch e := ev.(type) {
		case Opened:
		case LiveChanged:
			// The informer's first event may well come before anything
			// else: it opens the session.
			if e.Type == LiveDeleted || e.Object == nil {
				return s.state, nil, ErrNotOpen
			}
			ev = Opened{Object: e.Object, At: e.At}
		default:
			return s.state, nil, ErrNotOpen
		}
	}
	if err := s.gitOpsRefuses(ev); err != nil {
		return s.state, nil, err
	}
	switch ev := ev.(type) {
	case Opened:
		err = s.open(ev)
	case LiveChanged:
		err = s.liveChanged(ev)
	case DraftEdited:
		effects, err = s.draftEdited(ev)
	case MergedEdited:
		effects, err = s.mergedEdited(ev.Text)
	case SaveRequested:
		effects, err = s.saveRequested(ev)
	case Saved:
		effects, err = s.saved(ev)
	case SaveFailed:
		effects, err = s.saveFailed(ev)
	case SaveVerified:
		effects, err = s.saveVerified(ev)
	case Reconnected:
		effects, err = s.reconnected()
	case Conflicted:
		effects, err = s.conflicted(ev)
	case RebaseRequested:
		effects, err = s.rebaseRequested()
	case Resolve:
		err = s.resolve(ev.Index, ev.Resolution)
	case ResolveAll:
		err = s.resolveAll(ev.Choice)
	case Resubmit:
		s.serverRebases = 0
		effects, err = s.resubmit(ev.OntoNewObject)
	case DiscardDraft:
		effects, err = s.discard()
	case AbandonRebase:
		err = s.abandonRebase()
	case RecoverDraft:
		effects, err = s.recover(ev.Draft)
	case Recreate:
		effects, err = s.recreate()
	case PreviewRequested:
		effects, err = s.previewRequested()
	case Previewed:
		err = s.previewed(ev)
	default:
		err = fmt.Errorf("model: unknown event %T", ev)
	}
	if s.state != StateSaving && s.state != StateWaitingTheirs {
		// What --auto-rebase resubmitted is said while its save is in
		// flight (and in the save's report), and goes with it.
		s.autoRebased = nil
	}
	if s.draft == nil {
		// What the user said of this draft (the rule for changing data
		// armed, the yes to a new object) goes with it.
		s.again, s.ontoNew = nil, ""
	}
	s.updateChange()
	if e := s.timelineEffect(firstNew); e != nil {
		effects = append(effects, e)
	}
	return s.state, effects, err
}

func (s *Session) open(ev Opened) error {
	if s.opened {
		return &StateError{Event: "open", State: s.state, Reason: "the session is already open"}
	}
	if ev.Object == nil {
		return errors.New("model: Opened without an object")
	}
	v := NewVersion(ev.Object, ev.At)
	s.opened, s.state, s.base, s.live = true, StateViewing, v, v
	s.timeline.Observe(ev.Object, ev.At, false)
	return nil
}

// liveChanged tracks the informer. Base follows live only while there is
// nothing made from base (no draft, no rebase, no save in flight).
func (s *Session) liveChanged(ev LiveChanged) error {
	if ev.Object == nil {
		return errors.New("model: LiveChanged without an object")
	}
	deleted := ev.Type == LiveDeleted
	s.timeline.Observe(ev.Object, ev.At, deleted)
	if deleted {
		s.live, s.liveDeleted = NewVersion(ev.Object, ev.At), true
		return nil
	}
	rv := ev.Object.GetResourceVersion()
	if !s.liveDeleted && (rv == s.live.ResourceVersion || !newerRV(rv, s.live.ResourceVersion)) {
		// An event older than kedit's own save result: live is already
		// newer.
		return nil
	}
	s.live, s.liveDeleted = NewVersion(ev.Object, ev.At), false
	if s.draft == nil && s.rebase == nil && s.state != StateSaving {
		s.base = s.live
	}
	return nil
}
