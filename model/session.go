package model

import (
	"fmt"

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
	// A save that stored otherwise than the draft at some path leaves
	// StateEditing instead (KeptAfterSave).
	StateSaved
	// StateRebasing holds a merge of the draft onto theirs with no open
	// conflict, ready to resubmit.
	StateRebasing
	// StateResolving holds a merge with open conflicts for the user to resolve.
	StateResolving
	// StateFailed follows a save the server refused for a reason other than a
	// conflict. The draft is kept.
	StateFailed
	// StateWaitingTheirs follows a conflict whose theirs the informer did
	// not have yet: FetchTheirs is out, and the merge comes with its
	// answer (Conflicted).
	StateWaitingTheirs
)

var stateNames = [...]string{
	StateViewing:   "viewing",
	StateEditing:   "editing",
	StateSaving:    "saving",
	StateSaved:     "saved",
	StateRebasing:  "rebasing",
	StateResolving: "resolving",
	StateFailed:    "failed",

	StateWaitingTheirs: "waiting for theirs",
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

// landedSave is a save that stored its draft whole: the draft's text and
// the resourceVersion the server gave it.
type landedSave struct{ text, rv string }

// pendingSave is the save in flight.
type pendingSave struct {
	// gen is the draft generation that was sent: a draft edited while
	// saving has a newer one and stays a draft after the save.
	gen    int
	object *unstructured.Unstructured
	// intended is the object the user means to store; object, sent, is
	// the same but for the fields an apply stops claiming.
	intended *unstructured.Unstructured
	// forced are the fields an apply takes with force, and from whom.
	forced []OwnedField
	// leftOut are the fields an apply leaves to their owners.
	leftOut  []string
	update   bool
	resubmit bool
	// verifying is set while the save's answer was lost and kube/ reads
	// the object back (VerifySave) to learn whether it went through.
	verifying bool
	// thenSave sends the draft once the verification is done: the save
	// was asked for the draft edited since the lost one.
	thenSave bool
	// verified is set once the object read back showed that the lost
	// save went through.
	verified bool
	// newObject is set when the save takes a draft made on an earlier
	// object of this name onto the new one, after the user's yes.
	newObject bool
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
	// lastLanded is the last save that ended its draft: the text it sent and
	// the version it stored (DraftEdited.From).
	lastLanded *landedSave
	// keptGen is the draft revision a save the server took kept as the
	// draft, as it stored otherwise than the draft at some path (-1 when
	// none).
	keptGen int
	retries int
	// unsure is a save whose answer was lost (a reset, a timeout, a 5xx):
	// it may have gone through. Until a VerifySave tells, no save is
	// sent again, so that nothing is written twice and no rebase runs
	// against kedit's own write.
	unsure *pendingSave
	// serverRebases counts the rebases in a row resubmitted at once
	// because theirs changed only what the server owns (hot objects).
	serverRebases int
	// again is the rule for objects whose data changes all the time, armed
	// once the user resubmitted a rebase (again.go).
	again *againState
	// ontoNew is the uid of the object, created again under this name,
	// that the user said the draft made on the earlier one may be saved
	// onto.
	ontoNew  string
	change   *ServerChange
	preview  *preview
	timeline Timeline
	lastSave *SaveReport
	// storeSeq numbers the WriteDraft and DeleteDraft effects.
	storeSeq uint64
	// format is the text the draft is written in (SetFormat).
	format Format
	// manager is the field manager kedit's writes go under
	// (SetFieldManager).
	manager string
	// baseText is base rendered in format once known (DraftText with no
	// draft).
	baseText struct {
		obj  *unstructured.Unstructured
		text string
	}

	emitTimeline bool

	// autoRebase is --auto-rebase (SetAutoRebase); autoRebased the rebase
	// it resubmitted, while the save it sent is in flight.
	autoRebase  bool
	autoRebased *AutoRebase
	// gitOpsYes is the user's yes to saving an object a GitOps tool
	// reconciles (ConfirmGitOps).
	gitOpsYes bool
}

// NewSession starts a session for ref. opts go to every diff.MergeObjects
// call; kube/ passes diff.WithSchemas with the server's schemas. The
// session has no object until Opened.
func NewSession(ref ObjectRef, opts ...diff.Option) *Session {
	return &Session{ref: ref, opts: opts, timeline: Timeline{opts: opts}, format: FormatYAML, manager: FieldManager, keptGen: -1}
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
func (s *Session) Live() (Version, bool) {
	v := s.live
	// Its writer as the timeline found it, against the version before
	// it (WriterSince): managedFields alone cannot tell two writers of
	// the same second apart.
	if e, ok := s.timeline.writerOf(v.ResourceVersion, s.liveDeleted); ok {
		v.Manager, v.Operation = e.Manager, e.Operation
	}
	return v, s.liveDeleted
}

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
	if s.baseText.obj == s.base.Object && s.base.Object != nil {
		return s.baseText.text, nil
	}
	text, err := s.format.Render(s.base.Object)
	if err == nil {
		s.SetBaseText(s.base.Object, s.format, text)
	}
	return text, err
}

// BaseToRender returns base's object when DraftText would render it (no
// draft, and base's text not known yet): a mebibyte takes tens of
// milliseconds, which the UI spends in the background (Format.Render)
// ahead of e or i, and hands back with SetBaseText.
func (s *Session) BaseToRender() (*unstructured.Unstructured, bool) {
	if s.draft != nil || s.base.Object == nil || s.baseText.obj == s.base.Object {
		return nil, false
	}
	return s.base.Object, true
}

// SetBaseText keeps text, obj rendered in f, for DraftText, while obj is
// base (a session's objects are never changed in place) and f the
// session's Format.
func (s *Session) SetBaseText(obj *unstructured.Unstructured, f Format, text string) {
	if obj != nil && obj == s.base.Object && f == s.format {
		s.baseText.obj, s.baseText.text = obj, text
	}
}

// SaveUncertain reports whether the last save's answer was lost (a reset,
// a timeout, a 5xx), so that the next save first reads the object back to
// learn whether it went through.
func (s *Session) SaveUncertain() bool { return s.unsure != nil }

// LastSave reports what the last save the server took did, compared with
// what was sent; nil before the first and while a save is in flight.
func (s *Session) LastSave() *SaveReport {
	if s.lastSave == nil {
		return nil
	}
	r := *s.lastSave
	return &r
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
// oldest first, as far as MaxTimeline and MaxTimelineBytes keep them.
// TimelineObject and TimelineDiff rebuild an entry's object.
func (s *Session) Timeline() []Entry { return s.timeline.Entries() }

// Fights returns the fights among the versions the timeline holds: a
// field two field managers kept taking from each other (TimelineFights).
func (s *Session) Fights() []Fight { return s.timeline.Fights() }

// TimelineDropped returns how many of the oldest versions the timeline let
// go to stay within MaxTimeline and MaxTimelineBytes.
func (s *Session) TimelineDropped() int { return s.timeline.Dropped() }
