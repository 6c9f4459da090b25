package model

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// State is where an edit session stands.
type State int

// The session's states.
const (
	// StateViewing shows the object; there is no draft. Base follows live.
	StateViewing State = iota
	// StateEditing holds a draft that has not been saved.
	StateEditing
	// StateSaving has a Save or Create in flight.
	StateSaving
	// StateSaved follows a save the server took; there is no draft any more.
	StateSaved
	// StateRebasing moves the draft onto theirs: it waits for theirs after a
	// conflict, or holds a merge with no open conflict, ready to resubmit.
	StateRebasing
	// StateResolving holds a merge with open conflicts for the user to resolve.
	StateResolving
	// StateFailed follows a save the server refused for a reason other than a
	// conflict. The draft is kept.
	StateFailed
)

var stateNames = [...]string{
	StateViewing:   "viewing",
	StateEditing:   "editing",
	StateSaving:    "saving",
	StateSaved:     "saved",
	StateRebasing:  "rebasing",
	StateResolving: "resolving",
	StateFailed:    "failed",
}

// String returns the state's name, e.g. "resolving".
func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Draft is mine: what the user typed, and the object it parses to.
type Draft struct {
	// Text is exactly what the user typed, kept even when it does not
	// parse, so that nothing typed is lost.
	Text string
	// Object is Text parsed, nil when Err is set.
	Object *unstructured.Unstructured
	// Err is a *DraftError when Text cannot be saved as it stands.
	Err error
}

// Rebase is a draft being moved onto theirs after a conflict (or on
// request): base, mine and theirs, and their merge.
type Rebase struct {
	// Base is the object mine was made from.
	Base *unstructured.Unstructured
	// Mine is the draft's object at the time of the merge.
	Mine *unstructured.Unstructured
	// Theirs is the object as the server has it; zero while the session
	// waits for FetchTheirs' answer.
	Theirs Version
	// Merge is diff.MergeObjects(Base, Mine, Theirs) with the resolutions
	// so far; nil while waiting for theirs. The session replaces it on
	// each Resolve instead of changing it, so a Merge handed out stays as
	// it was.
	Merge *diff.ObjectMerge

	// stale is true when the draft was edited since into text that does
	// not parse, so Merge is not of the draft as it stands.
	stale bool
}

// Stale reports whether the draft was edited since the merge into text
// that does not parse: Merge is of an older mine, and Resubmit is refused
// until the draft parses again (and is merged again).
func (r *Rebase) Stale() bool { return r.stale }

// Failure is why the last save did not go through.
type Failure struct {
	// Kind classifies the failure, from KindOf(Err).
	Kind ErrorKind
	// Err is the error kube/ reported.
	Err error
	// Causes are the server's field causes, from CausesOf(Err).
	Causes []FieldCause
	// Attempt counts consecutive retryable failures (unavailable,
	// timeout); 0 for the others.
	Attempt int
}

// ServerChange is what the banner says when the object changed on the
// server while a draft exists: from which version to which, who changed
// it and which fields.
type ServerChange struct {
	// FromRV is the version the draft (or the rebase) is based on.
	FromRV string
	// ToRV is live's version.
	ToRV string
	// Manager is the field manager that wrote live.
	Manager string
	// Changes are the fields that differ from FromRV to ToRV.
	Changes []FieldChange
	// Deleted is true when the object was deleted.
	Deleted bool
	// Err is set when the versions could not be compared.
	Err error
}

// pendingSave is the save in flight.
type pendingSave struct {
	// gen is the draft generation that was sent: a draft edited while
	// saving has a newer one and stays a draft after the save.
	gen      int
	object   *unstructured.Unstructured
	resubmit bool
}

// Session is one edit of one object, and the single source of truth for
// base, the draft (mine), live, theirs and the rebase's conflicts and
// resolutions. It is a pure state machine: Handle takes an intent or an
// outcome and returns the next state and the effects for kube/ to perform.
//
// Its rules: no Save without a resourceVersion; no field where mine and
// theirs collide takes mine without a resolution; no failure touches the
// draft.
//
// Objects it hands out (Base, Live, Draft, Rebase, Timeline) are its own
// and must be treated as read-only; it copies what it is given, so callers
// may go on changing their objects. A Session is not safe for concurrent
// use; the UI owns it.
type Session struct {
	ref  ObjectRef
	opts []diff.Option

	opened      bool
	state       State
	base        Version
	live        Version
	liveDeleted bool
	draft       *Draft
	gen         int
	rebase      *Rebase
	failure     *Failure
	pending     *pendingSave
	retries     int
	change      *ServerChange
	preview     *preview
	timeline    Timeline
}

// NewSession starts a session for ref. opts go to every diff.MergeObjects
// call; kube/ passes diff.WithSchemas with the server's schemas. The
// session has no object until Opened.
func NewSession(ref ObjectRef, opts ...diff.Option) *Session {
	return &Session{ref: ref, opts: opts, timeline: Timeline{opts: opts}}
}

// Ref returns the object the session edits.
func (s *Session) Ref() ObjectRef { return s.ref }

// State returns the current state.
func (s *Session) State() State { return s.state }

// Base returns the version the draft is made from (the latest version while
// there is no draft).
func (s *Session) Base() Version { return s.base }

// Live returns the latest version the informer delivered, and whether the
// object has since been deleted (Live is then its last state).
func (s *Session) Live() (Version, bool) { return s.live, s.liveDeleted }

// Draft returns mine, or nil when there is no draft.
func (s *Session) Draft() *Draft {
	if s.draft == nil {
		return nil
	}
	d := *s.draft
	return &d
}

// DraftText is the text to put in the editor: the draft's, or base
// rendered when there is no draft yet.
func (s *Session) DraftText() (string, error) {
	if s.draft != nil {
		return s.draft.Text, nil
	}
	return RenderYAML(s.base.Object)
}

// Rebase returns the rebase in progress, or nil.
func (s *Session) Rebase() *Rebase {
	if s.rebase == nil {
		return nil
	}
	r := *s.rebase
	return &r
}

// Conflicts returns the rebase's conflicts, nil when there is none.
func (s *Session) Conflicts() []diff.Conflict {
	if s.rebase == nil || s.rebase.Merge == nil {
		return nil
	}
	return s.rebase.Merge.Conflicts
}

// Resolutions returns the rebase's resolutions, one per conflict.
func (s *Session) Resolutions() []diff.Resolution {
	if s.rebase == nil || s.rebase.Merge == nil {
		return nil
	}
	return append([]diff.Resolution(nil), s.rebase.Merge.Resolutions...)
}

// OpenConflicts returns how many of the rebase's conflicts are still open.
func (s *Session) OpenConflicts() int {
	if s.rebase == nil || s.rebase.Merge == nil {
		return 0
	}
	return s.rebase.Merge.Open()
}

// MergedText renders the rebase's merged object with a conflict block for
// each open conflict, for the conflict view or $EDITOR. Handing the edited
// text back as MergedEdited resolves the rebase by hand.
func (s *Session) MergedText() (string, error) {
	if s.rebase == nil || s.rebase.Merge == nil {
		return "", &StateError{Event: "render the merge", State: s.state, Reason: "nothing is being rebased"}
	}
	out, err := s.rebase.Merge.YAML()
	return string(out), err
}

// Failure returns why the last save failed while the session is in
// StateFailed, and nil otherwise.
func (s *Session) Failure() *Failure {
	if s.failure == nil {
		return nil
	}
	f := *s.failure
	return &f
}

// ServerChange reports whether the object changed on the server since the
// version the draft (or the rebase) is based on, and how. It is false
// while there is no draft.
func (s *Session) ServerChange() (ServerChange, bool) {
	if s.change == nil {
		return ServerChange{}, false
	}
	return *s.change, true
}

// Timeline returns every version observed since the session opened,
// oldest first (the latest MaxTimeline of them).
func (s *Session) Timeline() []Entry { return s.timeline.Entries() }

// TimelineDropped returns how many of the oldest versions the timeline let
// go to stay within MaxTimeline.
func (s *Session) TimelineDropped() int { return s.timeline.Dropped() }

// Handle applies ev and returns the new state and the effects to perform,
// in order. A non-nil error means ev was refused and nothing changed,
// except for a DraftEdited whose text cannot be saved: the text is still
// kept (and stored), and the error is its *DraftError.
func (s *Session) Handle(ev Event) (State, []Effect, error) {
	var effects []Effect
	var err error
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
	switch ev := ev.(type) {
	case Opened:
		err = s.open(ev)
	case LiveChanged:
		err = s.liveChanged(ev)
	case DraftEdited:
		effects, err = s.draftEdited(ev.Text)
	case MergedEdited:
		effects, err = s.mergedEdited(ev.Text)
	case SaveRequested:
		effects, err = s.saveRequested()
	case Saved:
		effects, err = s.saved(ev)
	case SaveFailed:
		effects, err = s.saveFailed(ev)
	case Conflicted:
		effects, err = s.conflicted(ev)
	case RebaseRequested:
		effects, err = s.rebaseRequested()
	case Resolve:
		err = s.resolve(ev.Index, ev.Resolution)
	case ResolveAll:
		err = s.resolveAll(ev.Choice)
	case Resubmit:
		effects, err = s.resubmit()
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
	s.updateChange()
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

// draftEdited takes the user's text as the draft, whether it parses or not.
func (s *Session) draftEdited(text string) ([]Effect, error) {
	obj, err := s.parse(text)
	s.gen++
	s.draft = &Draft{Text: text, Object: obj, Err: err}
	switch s.state {
	case StateSaving:
		// The save in flight goes on; its outcome looks at the newer
		// draft.
	case StateRebasing, StateResolving:
		switch {
		case s.rebase.Merge == nil:
			// Waiting for theirs: the merge will take the newer draft.
		case obj != nil:
			// Mine changed under the merge: merge again, keeping the
			// resolutions of the conflicts that stayed the same.
			s.merge(s.rebase.Theirs, s.rebase.Merge)
		default:
			// The merge is of an older mine now; Resubmit refuses it
			// until the draft parses again.
			rb := *s.rebase
			rb.stale = true
			s.rebase = &rb
		}
	default:
		if err == nil && sameContent(obj, s.base.Object) {
			// No change, as kubectl edit says: nothing to save or keep.
			s.draft, s.state, s.failure = nil, StateViewing, nil
			if !s.liveDeleted {
				s.base = s.live
			}
			return []Effect{DeleteDraft{Ref: s.ref}}, nil
		}
		// The retry count stays: a retry scheduled before the edit is
		// still due, and its back-off goes on from where it was.
		s.state, s.failure = StateEditing, nil
	}
	return []Effect{s.writeDraft()}, err
}

// parse reads a draft's text and checks that it is still base's object.
func (s *Session) parse(text string) (*unstructured.Unstructured, error) {
	obj, err := parseDraft(text)
	if err != nil {
		return nil, err
	}
	if err := checkIdentity(text, s.base.Object, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// abandonRebase drops the rebase and keeps the draft as it is. A theirs
// still on its way is then refused as a StateError, which is harmless.
func (s *Session) abandonRebase() error {
	if s.state != StateRebasing && s.state != StateResolving {
		return &StateError{Event: "leave the rebase", State: s.state, Reason: "no rebase is under way"}
	}
	s.rebase, s.pending = nil, nil
	s.state = StateViewing
	if s.draft != nil {
		s.state = StateEditing
	}
	return nil
}

// mergedEdited takes the merged text as the user edited it by hand: the
// rebase is done, and the draft is that text, made from theirs. It starts
// from theirs' values (open conflicts are blocks holding all three), so
// nothing of theirs is lost unless the user removes it.
func (s *Session) mergedEdited(text string) ([]Effect, error) {
	if err := s.merging("take the edited merge"); err != nil {
		return nil, err
	}
	s.base = s.rebase.Theirs
	s.rebase = nil
	obj, err := s.parse(text)
	s.gen++
	s.draft = &Draft{Text: text, Object: obj, Err: err}
	s.state, s.failure, s.retries = StateEditing, nil, 0
	return []Effect{s.writeDraft()}, err
}

func (s *Session) writeDraft() WriteDraft {
	return WriteDraft{Ref: s.ref, Text: s.draft.Text, BaseResourceVersion: s.base.ResourceVersion, Base: s.base.Object}
}

// sameContent compares two versions of the object, leaving out what the
// server maintains.
func sameContent(a, b *unstructured.Unstructured) bool {
	if a == nil || b == nil {
		return a == b
	}
	strip := func(o *unstructured.Unstructured) map[string]any {
		c := o.DeepCopy()
		for _, f := range []string{"resourceVersion", "managedFields", "generation", "uid", "creationTimestamp"} {
			unstructured.RemoveNestedField(c.Object, "metadata", f)
		}
		return c.Object
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

func (s *Session) saveRequested() ([]Effect, error) {
	switch s.state {
	case StateRebasing, StateResolving:
		if s.rebase != nil && s.rebase.Merge != nil {
			return s.resubmit()
		}
		return nil, &StateError{Event: "save", State: s.state, Reason: "waiting for theirs"}
	case StateSaving:
		return nil, &StateError{Event: "save", State: s.state, Reason: "a save is in flight"}
	}
	if s.draft == nil {
		return nil, ErrNoDraft
	}
	if s.draft.Err != nil {
		return nil, s.draft.Err
	}
	return s.startSave(s.draft.Object, s.base.ResourceVersion, false)
}

// startSave sends obj conditionally on rv, the one way the session writes.
func (s *Session) startSave(obj *unstructured.Unstructured, rv string, resubmit bool) ([]Effect, error) {
	o, err := s.toSave(obj, rv)
	if err != nil {
		return nil, err
	}
	s.pending = &pendingSave{gen: s.gen, object: o, resubmit: resubmit}
	s.state, s.failure = StateSaving, nil
	return []Effect{Save{Ref: s.ref, Object: o.DeepCopy(), ResourceVersion: rv, Base: s.base.Object.DeepCopy(), Resubmit: resubmit}}, nil
}

// toSave is obj as it goes to the server, conditional on rv.
func (s *Session) toSave(obj *unstructured.Unstructured, rv string) (*unstructured.Unstructured, error) {
	if rv == "" {
		return nil, ErrNoResourceVersion
	}
	o := obj.DeepCopy()
	// Base's resourceVersion, not whatever the text says: base is what
	// the draft was made from.
	o.SetResourceVersion(rv)
	// Without managedFields the server keeps the ones it has; stale ones
	// typed back in would rewrite ownership.
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	if o.GetNamespace() == "" && !s.ref.ClusterScoped {
		o.SetNamespace(s.base.Object.GetNamespace())
	}
	return o, nil
}

// previewRequested asks for a server-side dry run of the draft, to show what the
// server would store. It changes no state: the answer is kept for the
// draft it was asked for.
func (s *Session) previewRequested() ([]Effect, error) {
	if s.draft == nil {
		return nil, ErrNoDraft
	}
	if s.draft.Err != nil {
		return nil, s.draft.Err
	}
	o, err := s.toSave(s.draft.Object, s.base.ResourceVersion)
	if err != nil {
		return nil, err
	}
	s.preview = &preview{gen: s.gen}
	return []Effect{Save{Ref: s.ref, Object: o, ResourceVersion: s.base.ResourceVersion, Base: s.base.Object.DeepCopy(), DryRun: true}}, nil
}

func (s *Session) previewed(ev Previewed) error {
	if s.preview == nil || s.preview.done {
		return &StateError{Event: "take a dry run's result", State: s.state, Reason: "no dry run was asked for"}
	}
	s.preview.done = true
	s.preview.err = ev.Err
	if ev.Object != nil {
		s.preview.object = ev.Object.DeepCopy()
	}
	return nil
}

// preview is a dry run's answer for draft generation gen.
type preview struct {
	gen    int
	done   bool
	object *unstructured.Unstructured
	err    error
}

// DryRunResult is the server's answer to a dry run of the draft.
type DryRunResult struct {
	// Object is what the server would store.
	Object *unstructured.Unstructured
	// Err is why the server would refuse the save; KindOf classifies it.
	Err error
}

// Preview returns the server's dry run of the current draft. It is false
// when no dry run of this very draft has been answered.
func (s *Session) Preview() (DryRunResult, bool) {
	p := s.preview
	if p == nil || !p.done || p.gen != s.gen || s.draft == nil {
		return DryRunResult{}, false
	}
	return DryRunResult{Object: p.object, Err: p.err}, true
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
	return []Effect{DeleteDraft{Ref: s.ref}}, nil
}

// Retry back-off: the first retry after retryBase, doubling up to retryMax.
const (
	retryBase = time.Second
	retryMax  = 30 * time.Second
)

func (s *Session) saveFailed(ev SaveFailed) ([]Effect, error) {
	waiting := s.state == StateRebasing && s.rebase != nil && s.rebase.Merge == nil
	if s.state != StateSaving && !waiting {
		return nil, &StateError{Event: "take a save failure", State: s.state, Reason: "no save is in flight"}
	}
	kind := KindOf(ev.Err)
	if kind == ErrorConflict && s.state == StateSaving {
		return s.startRebase()
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

// startRebase follows a conflict: theirs is live when the informer already
// has a version newer than base, and is fetched otherwise.
func (s *Session) startRebase() ([]Effect, error) {
	if !s.liveDeleted && newerRV(s.live.ResourceVersion, s.base.ResourceVersion) {
		s.merge(s.live, nil)
		return nil, nil
	}
	mine, _ := s.mine()
	s.pending = nil
	s.state = StateRebasing
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
	waiting := s.state == StateRebasing && s.rebase != nil && s.rebase.Merge == nil
	if s.state != StateSaving && !waiting {
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
	if theirs.ResourceVersion == s.base.ResourceVersion {
		// A stale copy: the server refused base's resourceVersion, so it
		// has something newer. Ask again, from the server.
		mine, _ := s.mine()
		s.pending = nil
		s.state = StateRebasing
		s.rebase = &Rebase{Base: s.base.Object, Mine: mine}
		return []Effect{FetchTheirs{Ref: s.ref, NotRV: s.base.ResourceVersion}}, nil
	}
	s.merge(theirs, nil)
	return nil, nil
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
	s.setRebaseState()
}

// carryResolutions resolves each conflict of next that prev had, with the
// same values on every side, the way prev resolved it.
func carryResolutions(prev, next *diff.ObjectMerge) {
	for i, c := range next.Conflicts {
		for j, p := range prev.Conflicts {
			if p.Path.Equals(c.Path) && reflect.DeepEqual(p.Base, c.Base) && reflect.DeepEqual(p.Mine, c.Mine) && reflect.DeepEqual(p.Theirs, c.Theirs) {
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

func (s *Session) rebaseRequested() ([]Effect, error) {
	if s.rebase != nil && s.rebase.Merge != nil {
		// Theirs moved on while resolving: merge onto live instead,
		// keeping the resolutions of the conflicts that stayed the same.
		if s.liveDeleted {
			return nil, &StateError{Event: "rebase", State: s.state, Reason: "the object was deleted; recreate it from the draft instead"}
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
	if s.liveDeleted {
		return nil, &StateError{Event: "rebase", State: s.state, Reason: "the object was deleted; recreate it from the draft instead"}
	}
	if !newerRV(s.live.ResourceVersion, s.base.ResourceVersion) {
		return nil, ErrUpToDate
	}
	s.merge(s.live, nil)
	return nil, nil
}

func (s *Session) merging(event string) error {
	if s.rebase == nil || s.rebase.Merge == nil {
		return &StateError{Event: event, State: s.state, Reason: "nothing is being rebased"}
	}
	return nil
}

func (s *Session) resolve(i int, r diff.Resolution) error {
	if err := s.merging("resolve"); err != nil {
		return err
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

// resubmit saves the merged object with theirs' resourceVersion. From here
// the draft is the merged object made from theirs, so that a further
// conflict merges theirs' successor into it.
func (s *Session) resubmit() ([]Effect, error) {
	if err := s.merging("resubmit"); err != nil {
		return nil, err
	}
	if s.rebase.stale && s.draft != nil && s.draft.Err != nil {
		return nil, s.draft.Err
	}
	m := s.rebase.Merge
	if open := m.Open(); open > 0 {
		return nil, &OpenConflictsError{Open: open, Total: len(m.Conflicts)}
	}
	final, err := m.Final()
	if err != nil {
		return nil, err
	}
	text, err := RenderYAML(final)
	if err != nil {
		return nil, err
	}
	theirs := s.rebase.Theirs
	if theirs.ResourceVersion == "" {
		return nil, ErrNoResourceVersion
	}
	prev := s.base
	s.base = theirs
	effects, err := s.startSave(final, theirs.ResourceVersion, true)
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

func (s *Session) discard() ([]Effect, error) {
	if s.state == StateSaving {
		return nil, &StateError{Event: "discard the draft", State: s.state, Reason: "a save is in flight"}
	}
	s.draft, s.rebase, s.failure, s.retries = nil, nil, nil, 0
	if !s.liveDeleted {
		s.base = s.live
	}
	s.state = StateViewing
	return []Effect{DeleteDraft{Ref: s.ref}}, nil
}

// recover takes a stored draft back. Its base must be known: either it is
// the current version, or the store kept the object itself.
func (s *Session) recover(sd StoredDraft) ([]Effect, error) {
	if s.draft != nil || s.rebase != nil || s.state == StateSaving {
		return nil, &StateError{Event: "recover a draft", State: s.state, Reason: "a draft is already open"}
	}
	rv := sd.BaseResourceVersion
	if sd.Base != nil && sd.Base.GetResourceVersion() != "" {
		rv = sd.Base.GetResourceVersion()
	}
	switch {
	case rv == s.base.ResourceVersion:
	case sd.Base != nil:
		// The object moved on since the draft was made: keep the draft's
		// own base, so that the save conflicts and the rebase merges the
		// changes in between instead of undoing them.
		s.base = NewVersion(sd.Base, time.Time{})
	default:
		return nil, &StaleDraftError{DraftBase: sd.BaseResourceVersion, Current: s.base.ResourceVersion}
	}
	return s.draftEdited(sd.Text)
}

// serverOwned are the fields a create must not carry.
var serverOwned = []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"}

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
	for _, f := range serverOwned {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	unstructured.RemoveNestedField(o.Object, "status")
	if o.GetNamespace() == "" && !s.ref.ClusterScoped {
		o.SetNamespace(s.base.Object.GetNamespace())
	}
	s.pending = &pendingSave{gen: s.gen, object: o}
	s.state, s.failure = StateSaving, nil
	return []Effect{Create{Ref: s.ref, Object: o.DeepCopy()}}, nil
}

// updateChange recomputes the banner after every event: it shows while a
// draft or a rebase exists and live has moved past what it is based on.
func (s *Session) updateChange() {
	if !s.opened || (s.draft == nil && s.rebase == nil) {
		s.change = nil
		return
	}
	from := s.base
	if s.rebase != nil && s.rebase.Merge != nil {
		from = s.rebase.Theirs
	}
	if s.liveDeleted {
		s.change = &ServerChange{FromRV: from.ResourceVersion, ToRV: s.live.ResourceVersion, Deleted: true}
		return
	}
	if !newerRV(s.live.ResourceVersion, from.ResourceVersion) {
		s.change = nil
		return
	}
	if c := s.change; c != nil && c.FromRV == from.ResourceVersion && c.ToRV == s.live.ResourceVersion && !c.Deleted {
		return
	}
	ch, err := Changes(from.Object, s.live.Object, s.opts...)
	w := Writer(s.live.Object, ch)
	s.change = &ServerChange{FromRV: from.ResourceVersion, ToRV: s.live.ResourceVersion, Manager: w.Manager, Changes: ch, Err: err}
}
