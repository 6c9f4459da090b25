package model

import (
	"errors"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// abandonRebase drops the rebase and keeps the draft as it is. A theirs
// still on its way is then refused as a StateError, which is harmless.
func (s *Session) abandonRebase() error {
	if !s.rebasing() && s.state != StateWaitingTheirs {
		return &StateError{Event: "leave the rebase", State: s.state, Reason: "no rebase is under way"}
	}
	s.rebase, s.pending, s.again, s.ontoNew = nil, nil, nil, ""
	s.state = StateViewing
	if s.draft != nil {
		s.state = StateEditing
	}
	return nil
}

// startRebase follows a conflict: theirs is live when the informer already
// has a version newer than base, and is fetched otherwise.
func (s *Session) startRebase() ([]Effect, error) {
	if !s.liveDeleted && newerRV(s.live.ResourceVersion, s.base.ResourceVersion) {
		return s.rebaseOnto(s.live)
	}
	mine, _ := s.mine()
	s.pending = nil
	s.state = StateWaitingTheirs
	s.rebase = &Rebase{Base: s.base.Object, Mine: mine}
	return []Effect{FetchTheirs{Ref: s.ref, NotRV: s.base.ResourceVersion}}, nil
}

// mine is the draft's object. When the draft was edited into text that
// does not parse, it is the last object that did (the one sent, or the one
// merged before), and current is false: a merge of it is stale.
func (s *Session) mine() (obj *unstructured.Unstructured, current bool) {
	if s.draft != nil && s.draft.Object != nil {
		return s.draft.Object, true
	}
	if s.pending != nil {
		return s.pending.object, false
	}
	if s.rebase != nil {
		return s.rebase.Mine, false
	}
	return nil, false
}

func (s *Session) conflicted(ev Conflicted) ([]Effect, error) {
	if s.state != StateSaving && s.state != StateWaitingTheirs || s.pending != nil && s.pending.verifying {
		return nil, &StateError{Event: "rebase onto theirs", State: s.state, Reason: "no conflict is pending"}
	}
	if ev.Theirs == nil {
		return nil, errors.New("model: Conflicted without theirs")
	}
	s.timeline.Observe(ev.Theirs, ev.At, false)
	theirs := NewVersion(ev.Theirs, ev.At)
	if newerRV(theirs.ResourceVersion, s.live.ResourceVersion) {
		s.live, s.liveDeleted = theirs, false
	}
	if !newerRV(theirs.ResourceVersion, s.base.ResourceVersion) {
		// Theirs must be newer than base: a rebase onto a stale copy
		// (base itself, or older, as a watch that reconnects after kedit's
		// own save may hold) would undo base's changes. The server refused
		// base's resourceVersion, so it has something newer: ask it. When
		// its own copy is not newer either, the conflict came from
		// something else, and there is nothing to rebase onto.
		if s.state == StateWaitingTheirs && s.rebase != nil && s.rebase.fromServer {
			return s.saveFailed(SaveFailed{Err: &TheirsNotNewerError{Ref: s.ref, Theirs: theirs.ResourceVersion, Base: s.base.ResourceVersion}})
		}
		fresh := s.state == StateWaitingTheirs
		mine, _ := s.mine()
		s.pending = nil
		s.state = StateWaitingTheirs
		s.rebase = &Rebase{Base: s.base.Object, Mine: mine, fromServer: fresh}
		return []Effect{FetchTheirs{Ref: s.ref, NotRV: s.base.ResourceVersion, Fresh: fresh}}, nil
	}
	return s.rebaseOnto(theirs)
}

// TheirsNotNewerError says that the server's copy, read after a conflict,
// is not newer than base, so there is nothing to rebase onto: the conflict
// came from something other than a newer version.
type TheirsNotNewerError struct {
	Ref          ObjectRef
	Theirs, Base string
}

func (e *TheirsNotNewerError) Error() string {
	return fmt.Sprintf("%s/%s: the server refused the save as a conflict, but its copy (resourceVersion %s) is not newer than base (%s): nothing to rebase onto; the draft is kept", e.Ref.ResourceName(), e.Ref.Name, e.Theirs, e.Base)
}

// rebaseOnto merges mine onto theirs after a conflict, then resubmits at
// once what holds nothing for the user to decide (resubmitAtOnce). A theirs
// that is another object of this name than the draft's (deleted and
// created again) is neither merged nor sent to before the user says yes:
// the save stops there (stopForYes).
func (s *Session) rebaseOnto(theirs Version) ([]Effect, error) {
	if s.needsYes(theirs.Object) {
		s.stopForYes(theirs)
		return nil, nil
	}
	s.merge(theirs, nil)
	return s.resubmitAtOnce()
}

// merge runs the three-way merge of base, mine and theirs, and takes over
// from prev (the merge before, if any) the resolutions of conflicts that
// are still the same. A merge that cannot run (an object that is not JSON,
// theirs renamed) fails the save with the draft intact.
func (s *Session) merge(theirs Version, prev *diff.ObjectMerge) {
	mine, current := s.mine()
	s.pending = nil
	if mine == nil {
		s.rebase, s.state = nil, StateFailed
		s.failure = &Failure{Kind: ErrorUnknown, Err: ErrNoDraft}
		return
	}
	m, err := diff.MergeObjects(s.base.Object, mine, theirs.Object, s.opts...)
	if err != nil {
		s.rebase, s.state = nil, StateFailed
		s.failure = &Failure{Kind: ErrorUnknown, Err: fmt.Errorf("rebasing onto theirs (resourceVersion %s): %w", theirs.ResourceVersion, err)}
		return
	}
	if prev != nil {
		carryResolutions(prev, m)
	}
	s.failure, s.retries = nil, 0
	s.rebase = &Rebase{Base: s.base.Object, Mine: mine, Theirs: theirs, Merge: m, stale: !current}
	if uid := uidOf(theirs.Object); MadeOnEarlierObject(uidOf(s.base.Object), uid) {
		s.rebase.CreatedAgain = s.createdAgainAt(uid, theirs.ResourceVersion)
	}
	s.setRebaseState()
}

// carryResolutions resolves each conflict of next that prev had, with the
// same values on every side (and the same lines, for a region of a
// multi-line string), the way prev resolved it.
func carryResolutions(prev, next *diff.ObjectMerge) {
	for i, c := range next.Conflicts {
		for j, p := range prev.Conflicts {
			if p.Path.Equals(c.Path) && reflect.DeepEqual(p.Base, c.Base) && reflect.DeepEqual(p.Mine, c.Mine) && reflect.DeepEqual(p.Theirs, c.Theirs) &&
				reflect.DeepEqual(p.Hunk, c.Hunk) && p.Owner == c.Owner {
				// Same conflict, same choices: cannot fail.
				_, _ = next.Resolve(i, prev.Resolutions[j])
			}
		}
	}
}

func (s *Session) setRebaseState() {
	if s.rebase.Merge.Open() > 0 {
		s.state = StateResolving
	} else {
		s.state = StateRebasing
	}
}

// ErrUpToDate is returned for a rebase requested while base is already
// live's version.
var ErrUpToDate = errors.New("the draft is already based on the latest version")

// ErrNothingToRebaseOnto is returned for a rebase requested while the
// object is deleted on the server: there is no version to merge onto, and
// a save creates the object again from the draft.
var ErrNothingToRebaseOnto = errors.New("cannot rebase: the object was deleted on the server, so there is nothing to rebase onto; saving creates it again from the draft")

func (s *Session) rebaseRequested() ([]Effect, error) {
	if s.draft == nil && s.rebase == nil && s.state != StateSaving {
		return nil, ErrNoDraft
	}
	if s.rebasing() {
		// Theirs moved on while resolving: merge onto live instead,
		// keeping the resolutions of the conflicts that stayed the same.
		if s.liveDeleted {
			return nil, ErrNothingToRebaseOnto
		}
		if !newerRV(s.live.ResourceVersion, s.rebase.Theirs.ResourceVersion) {
			return nil, ErrUpToDate
		}
		s.merge(s.live, s.rebase.Merge)
		return nil, nil
	}
	if s.state != StateEditing && s.state != StateFailed {
		return nil, &StateError{Event: "rebase", State: s.state}
	}
	if s.draft == nil {
		return nil, ErrNoDraft
	}
	if s.draft.Err != nil {
		return nil, s.draft.Err
	}
	// A lost save that went through is in live, so the merge shows it as
	// a change both sides made; one that did not is resent by the rebase.
	s.unsure = nil
	if s.liveDeleted {
		return nil, ErrNothingToRebaseOnto
	}
	if !newerRV(s.live.ResourceVersion, s.base.ResourceVersion) {
		return nil, ErrUpToDate
	}
	s.merge(s.live, nil)
	return nil, nil
}

// rebasing reports whether a merge is there to resolve and resubmit.
func (s *Session) rebasing() bool {
	return s.state == StateRebasing || s.state == StateResolving
}

func (s *Session) merging(event string) error {
	if !s.rebasing() {
		return &StateError{Event: event, State: s.state, Reason: "nothing is being rebased"}
	}
	return nil
}

// ErrOwnershipChoice refuses base, or a value typed by hand, for a
// conflict of server-side apply: kedit either takes the field (mine) or
// leaves it to its owner (theirs).
var ErrOwnershipChoice = errors.New("a field another manager owns is resolved to mine (kedit takes it, with force) or theirs (kedit leaves it to its owner)")

func (s *Session) resolve(i int, r diff.Resolution) error {
	if err := s.merging("resolve"); err != nil {
		return err
	}
	if s.rebase.Ownership && r.Choice != diff.TakeMine && r.Choice != diff.TakeTheirs && r.Choice != diff.Unresolved {
		return ErrOwnershipChoice
	}
	m := s.rebase.Merge.Clone()
	if _, err := m.Resolve(i, r); err != nil {
		return err
	}
	rb := *s.rebase
	rb.Merge = m
	s.rebase = &rb
	s.setRebaseState()
	return nil
}

func (s *Session) resolveAll(c diff.Choice) error {
	if err := s.merging("resolve"); err != nil {
		return err
	}
	if c != diff.TakeMine && c != diff.TakeTheirs && c != diff.TakeBase {
		return fmt.Errorf("model: resolve all takes mine, theirs or base, not choice %d", c)
	}
	if s.rebase.Ownership && c == diff.TakeBase {
		return ErrOwnershipChoice
	}
	m := s.rebase.Merge.Clone()
	for i, r := range m.Resolutions {
		if r.Choice == diff.Unresolved {
			if _, err := m.Resolve(i, diff.Resolution{Choice: c}); err != nil {
				return err
			}
		}
	}
	rb := *s.rebase
	rb.Merge = m
	s.rebase = &rb
	s.setRebaseState()
	return nil
}

// startOwnership follows an apply the server refused because other field
// managers own fields of it: those fields become the rebase's conflicts,
// with the object on the server as theirs. It reports false, leaving the
// session as it was, when the error names no field of mine's.
func (s *Session) startOwnership(err error) bool {
	owners, oe := OwnersOf(err)
	if oe == nil {
		return false
	}
	byPath := make(map[string]string, len(owners))
	for _, o := range owners {
		byPath[o.Field] = o.Manager
	}
	theirs := s.base
	if live := oe.Live(); live != nil {
		theirs = NewVersion(live, s.base.Observed)
	}
	mine, _ := s.mine()
	if mine == nil {
		return false
	}
	m, merr := diff.OwnershipConflicts(s.base.Object, mine, theirs.Object, byPath, s.opts...)
	if merr != nil || len(m.Conflicts) == 0 {
		return false
	}
	s.pending, s.failure, s.retries = nil, nil, 0
	s.rebase = &Rebase{Base: s.base.Object, Mine: mine, Theirs: theirs, Merge: m, Ownership: true, owners: byPath}
	s.setRebaseState()
	return true
}

// remerge merges again after mine changed under the rebase, keeping the
// resolutions of the conflicts that stayed the same; an ownership rebase
// stays one.
func (s *Session) remerge() {
	rb := s.rebase
	if !rb.Ownership {
		s.merge(rb.Theirs, rb.Merge)
		return
	}
	mine, _ := s.mine()
	m, err := diff.OwnershipConflicts(s.base.Object, mine, rb.Theirs.Object, rb.owners, s.opts...)
	if err != nil || len(m.Conflicts) == 0 {
		// Mine no longer sets an owned field differently: an ordinary
		// rebase (a clean one) shows what goes.
		s.merge(rb.Theirs, nil)
		return
	}
	carryResolutions(rb.Merge, m)
	s.rebase = &Rebase{Base: s.base.Object, Mine: mine, Theirs: rb.Theirs, Merge: m, Ownership: true, owners: rb.owners}
	s.setRebaseState()
}
