package model

import (
	"github.com/kedit/kedit/diff"
)

// resubmit is the user's resubmit of the rebase (Resubmit, or
// SaveRequested while rebasing): it saves the merged object with theirs'
// resourceVersion, and arms the rule for objects whose data keeps changing
// (again.go). A rebase onto an object created again since the draft was
// made waits for the user's yes (onto).
func (s *Session) resubmit(onto bool) ([]Effect, error) {
	if err := s.merging("resubmit"); err != nil {
		return nil, err
	}
	if s.rebase.stale && s.draft != nil && s.draft.Err != nil {
		return nil, s.draft.Err
	}
	rb := s.rebase
	if open := rb.Merge.Open(); open > 0 {
		return nil, &OpenConflictsError{Open: open, Total: len(rb.Merge.Conflicts)}
	}
	yes := s.needsYes(rb.Theirs.Object)
	if yes && !onto {
		return nil, &RecreatedError{UID: uidOf(rb.Theirs.Object), ResourceVersion: rb.Theirs.ResourceVersion}
	}
	effects, err := s.sendRebase(rb)
	if err != nil {
		return nil, err
	}
	if yes {
		s.ontoNew = uidOf(rb.Theirs.Object)
	}
	s.arm(rb, nil)
	return effects, nil
}

// sendRebase saves rb's merged object with theirs' resourceVersion. From
// here the draft is the merged object made from theirs, so that a further
// conflict merges theirs' successor into it.
func (s *Session) sendRebase(rb *Rebase) ([]Effect, error) {
	m := rb.Merge
	final, err := m.Final()
	if err != nil {
		return nil, err
	}
	text, err := s.format.Render(final)
	if err != nil {
		return nil, err
	}
	theirs := rb.Theirs
	if theirs.ResourceVersion == "" {
		return nil, ErrNoResourceVersion
	}
	how := pendingSave{resubmit: true, intended: final, newObject: rb.CreatedAgain != ""}
	sent := final
	if rb.Ownership {
		// A field left to its owner is left out of the apply, so that
		// kedit stops claiming it; the fields taken are forced, which is
		// safe only now that no conflict is left open.
		sent, err = m.FinalWithout(func(i int) bool { return m.Resolutions[i].Choice == diff.TakeTheirs })
		if err != nil {
			return nil, err
		}
		for i, c := range m.Conflicts {
			switch m.Resolutions[i].Choice {
			case diff.TakeMine:
				how.forced = append(how.forced, OwnedField{Field: c.Path.String(), Manager: c.Owner})
			case diff.TakeTheirs:
				how.leftOut = append(how.leftOut, c.Path.String())
			}
		}
	}
	prev := s.base
	s.base = theirs
	effects, err := s.startSave(sent, theirs.ResourceVersion, how)
	if err != nil {
		s.base = prev
		return nil, err
	}
	s.gen++
	s.pending.gen = s.gen
	s.draft = &Draft{Text: text, Object: final}
	s.rebase = nil
	return append([]Effect{s.writeDraft()}, effects...), nil
}

// resubmitAtOnce follows the merge after a conflict: a rebase that holds
// nothing for the user to decide goes back at once, by one of two rules
// (resubmitServerOnly, resubmitAgain), or with --auto-rebase by a third
// (resubmitAuto); any other waits for the user.
func (s *Session) resubmitAtOnce() ([]Effect, error) {
	if effects := s.resubmitServerOnly(); effects != nil {
		return effects, nil
	}
	if effects := s.resubmitAgain(); effects != nil {
		return effects, nil
	}
	return s.resubmitAuto(), nil
}

// maxServerRebases bounds the rebases resubmitted at once in a row, for an
// object whose status changes faster than a save goes there and back: the
// last clean rebase then waits for the user, as any other.
const maxServerRebases = 20

// resubmitServerOnly is the rule for hot objects (a Node's heartbeats, an
// HPA's or a controller's status writes): a conflict whose theirs differs
// from base only in what the server owns (status and the server-owned
// metadata, diff.ServerOwnedOnly) holds nothing for the user to decide,
// so the rebase is resubmitted at once and never waits in the conflict
// view. The save's report counts these rebases. Any other change of
// theirs waits for the user (or for resubmitAgain's rule).
//
// Unlike a resubmit the user asks for, it leaves the draft as typed: the
// merged object it sends is the draft with theirs' status and server-owned
// metadata, which the user never changed, and the draft is now made from
// theirs. (A save of that draft later sends its own status, which a type
// with a status subresource, as hot objects are, ignores.)
func (s *Session) resubmitServerOnly() []Effect {
	rb := s.rebase
	if s.state != StateRebasing || rb == nil || rb.Ownership || rb.stale || rb.CreatedAgain != "" || s.serverRebases >= maxServerRebases ||
		s.draft == nil || s.draft.Object == nil || !diff.ServerOwnedOnly(rb.Base, rb.Theirs.Object, s.opts...) {
		return nil
	}
	final, err := rb.Merge.Final()
	if err != nil {
		return nil // the rebase waits for the user, who sees why
	}
	prev := s.base
	s.base = rb.Theirs
	effects, err := s.startSave(final, rb.Theirs.ResourceVersion, pendingSave{resubmit: true, intended: final})
	if err != nil {
		s.base = prev
		return nil
	}
	s.serverRebases++
	s.rebase = nil
	// The stored draft's base moves to theirs with the session's.
	return append([]Effect{s.writeDraft()}, effects...)
}
