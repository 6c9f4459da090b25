package model

import (
	"slices"

	"github.com/kedit/kedit/diff"
)

// MaxRebasesAgain bounds the rebases resubmitted at once in a row by the
// rule for objects whose data keeps changing (resubmitAgain): after that
// many, the next clean rebase waits for the user in the conflict view, and
// RebasedAgain says so.
const MaxRebasesAgain = 20

// againState is resubmitAgain's rule, armed by the user's resubmit.
type againState struct {
	// protected are the fields the user changed or decided in the
	// rebases they resubmitted: mine's changes and the conflicts,
	// whatever their resolution. A change of theirs to one of them, or
	// inside or around one, stops the rule.
	protected []string
	// rounds counts the rebases resubmitted at once since the user's
	// last resubmit.
	rounds int
	// last is the last of them.
	last RebaseAgain
	// stopped is set when a clean rebase waits for the user because
	// rounds reached MaxRebasesAgain.
	stopped bool
}

// RebaseAgain is what the rule for objects whose data keeps changing did:
// the rebases it resubmitted at once since the user's resubmit, and what
// the last of them merged.
type RebaseAgain struct {
	// Rounds counts the rebases resubmitted at once in a row.
	Rounds int
	// OntoRV is theirs' resourceVersion in the last of them.
	OntoRV string
	// Changes are the fields theirs changed that the last one merged, in
	// field order (a region of a multi-line string names its lines).
	Changes []string
	// Manager is the field manager that wrote theirs, as Writer tells.
	Manager string
	// Stopped is set when a clean rebase waits for the user, because
	// Rounds reached MaxRebasesAgain: the object changes faster than a
	// save goes there and back.
	Stopped bool
}

// RebasedAgain reports what the rule for objects whose data keeps
// changing did since the user's last resubmit; false when it did nothing.
func (s *Session) RebasedAgain() (RebaseAgain, bool) {
	a := s.again
	if a == nil || (a.rounds == 0 && !a.stopped) {
		return RebaseAgain{}, false
	}
	r := a.last
	r.Rounds, r.Stopped = a.rounds, a.stopped
	r.Changes = slices.Clone(r.Changes)
	return r, true
}

// arm is the user's resubmit of rb (or of its merged text edited by hand,
// whose fields other than theirs are edited): from here a conflict whose
// theirs collides with nothing the user changed or decided is rebased and
// resubmitted at once (resubmitAgain). What rebases resubmitted before
// protected stays protected, until the save lands or the draft goes.
func (s *Session) arm(rb *Rebase, edited []FieldChange) {
	a := &againState{}
	if s.again != nil {
		a.protected = slices.Clone(s.again.protected)
	}
	for _, c := range rb.Merge.Conflicts {
		a.protected = append(a.protected, c.Path.String())
	}
	for _, c := range rb.Merge.Changes {
		if c.Side != diff.SideTheirs {
			a.protected = append(a.protected, c.Path.String())
		}
	}
	for _, c := range edited {
		a.protected = append(a.protected, c.Path)
	}
	s.again = a
}

// resubmitAgain is the rule for objects whose data keeps changing (a
// ConfigMap another writer patches every 300 ms): once the user has seen a
// rebase and resubmitted it, a conflict whose theirs changed nothing the
// user changed or decided (the merge is clean, and no change of theirs
// touches a protected field) holds nothing new for the user, so the
// rebase is resubmitted at once, again and again, up to MaxRebasesAgain in
// a row. The draft becomes the merged object, as with the user's resubmit,
// so that theirs' changes are kept in it. A rebase onto an object created
// again is never resubmitted without the user.
func (s *Session) resubmitAgain() []Effect {
	a, rb := s.again, s.rebase
	if a == nil || s.state != StateRebasing || rb == nil || rb.Ownership || rb.stale || rb.CreatedAgain != "" ||
		len(rb.Merge.Conflicts) > 0 || s.draft == nil || s.draft.Object == nil {
		return nil
	}
	var changed []string
	var fields []FieldChange
	for _, c := range rb.Merge.Changes {
		if c.Side != diff.SideTheirs {
			continue
		}
		p := c.Path.String()
		for _, q := range a.protected {
			if within(p, q) || within(q, p) {
				return nil
			}
		}
		changed = append(changed, c.Where())
		fields = append(fields, FieldChange{Path: p, Kind: c.Kind})
	}
	if len(changed) == 0 {
		// Theirs changed nothing of the object's own: a hot object's
		// status is resubmitServerOnly's, bounded on its own.
		return nil
	}
	if a.rounds >= MaxRebasesAgain {
		a.stopped = true
		return nil
	}
	theirs := rb.Theirs
	effects, err := s.sendRebase(rb)
	if err != nil {
		return nil // the rebase waits for the user, who sees why
	}
	a.rounds++
	a.last = RebaseAgain{OntoRV: theirs.ResourceVersion, Changes: changed, Manager: Writer(theirs.Object, fields).Manager}
	return effects
}
