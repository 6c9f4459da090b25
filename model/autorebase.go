package model

import "github.com/kedit/kedit/diff"

// --auto-rebase: a clean rebase after a conflict is resubmitted at once,
// never shown. The session decides it, for an object shown alone and for
// each object of a set alike (SetAutoRebase).

// AutoRebase is a rebase resubmitted at once by --auto-rebase: what it
// merged, and onto which version.
type AutoRebase struct {
	// OntoRV is theirs' resourceVersion.
	OntoRV string
	// Merge is the clean merge that was resubmitted.
	Merge *diff.ObjectMerge
}

// SetAutoRebase makes the session resubmit at once a rebase that holds no
// conflict, after a conflict or after the user's yes to saving onto an
// object created again (kedit --auto-rebase). A rebase with a conflict,
// and one onto an object created again before the user said yes, wait
// for the user as always.
func (s *Session) SetAutoRebase(on bool) { s.autoRebase = on }

// AutoRebased reports the rebase --auto-rebase resubmitted, while the save
// it sent is in flight; the save's report keeps it (SaveReport.AutoRebased).
// False when no such save is under way.
func (s *Session) AutoRebased() (AutoRebase, bool) {
	if s.autoRebased == nil {
		return AutoRebase{}, false
	}
	return *s.autoRebased, true
}

// resubmitAuto is --auto-rebase's rule, after the rules that resubmit
// without it (resubmitAtOnce): a rebase that waits for the user with
// nothing to decide is resubmitted as the user's s would. A resubmit the
// session refuses (a draft that cannot be saved) leaves the rebase waiting
// for the user, who is told why at their own s.
func (s *Session) resubmitAuto() []Effect {
	rb := s.rebase
	if !s.autoRebase || s.state != StateRebasing || rb == nil || len(rb.Merge.Conflicts) > 0 || s.needsYes(rb.Theirs.Object) {
		return nil
	}
	effects, err := s.resubmit(false)
	if err != nil {
		return nil
	}
	s.autoRebased = &AutoRebase{OntoRV: rb.Theirs.ResourceVersion, Merge: rb.Merge}
	return effects
}
