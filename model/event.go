package model

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// Event is an intent from the user or an outcome reported by kube/, handed
// to Session.Handle. Intents are named for what the user asks
// (SaveRequested, Resolve); outcomes in the past tense (Saved, Conflicted).
type Event interface {
	event()
}

// Opened starts the session with the object as first read. A LiveChanged
// (added or modified) before it opens the session the same way.
type Opened struct {
	// Object is the object as first read; it becomes base and live.
	Object *unstructured.Unstructured
	// At is when kube/ saw it; the session never reads the clock.
	At time.Time
}

// LiveType is the kind of informer event.
type LiveType int

// The informer's event types.
const (
	LiveAdded LiveType = iota + 1
	LiveModified
	LiveDeleted
)

// String returns "added", "modified" or "deleted".
func (t LiveType) String() string {
	switch t {
	case LiveAdded:
		return "added"
	case LiveModified:
		return "modified"
	case LiveDeleted:
		return "deleted"
	}
	return "LiveType(?)"
}

// LiveChanged reports an informer event: the object as the server has it
// now, or its last state before it was deleted.
type LiveChanged struct {
	// Type is the informer's event type.
	Type LiveType
	// Object is the object now, or its last state for LiveDeleted.
	Object *unstructured.Unstructured
	// At is when kube/ saw it; the session never reads the clock.
	At time.Time
}

// DraftEdited reports the draft's new text (mine), from the in-app editor
// or $EDITOR. During a rebase, mine is merged with theirs again.
type DraftEdited struct {
	// Text is the whole draft, exactly as typed.
	Text string
	// Parsed is Text parsed ahead by ParseDraft, off the UI's goroutine:
	// the session takes it instead of parsing Text again (parsing a
	// mebibyte of YAML takes tens of milliseconds). It is ignored unless
	// it was parsed from Text; nil parses Text.
	Parsed *ParsedDraft
	// From is the text the editor was opened on, when the editor knows
	// it. A text opened on the draft while its save was in flight names
	// the version the save was sent against, yet holds the save's
	// changes: once that save has landed, such a text is based on the
	// version it stored, not on the one it names, so that the next save
	// is no conflict with kedit's own.
	From string
}

// MergedEdited reports the rebase's merged text (Session.MergedText) as the
// user edited it by hand. Text that parses ends the rebase: it becomes the
// draft, made from theirs. Text that does not (a conflict block left in,
// YAML that does not parse) is refused with its *DraftError: the rebase and
// its resolutions stay, the draft is not touched, and MergedText offers the
// edited text again.
type MergedEdited struct {
	// Text is the whole merged text, exactly as edited.
	Text string
}

// SaveRequested asks to save the draft (during a rebase, to resubmit).
type SaveRequested struct {
	// AsUpdate sends this save as an update (a PUT with base's
	// resourceVersion) whatever the strategy: the user's way on after
	// server-side apply could not remove a field another manager owns
	// (ErrorApplyCannotRemove).
	AsUpdate bool
	// OntoNewObject is the user's yes to saving a draft made on an
	// earlier object of this name onto the object there now, created
	// again since (another uid). Without it such a save is refused with
	// a *RecreatedError, and nothing changes. With it, a new object that
	// holds what the earlier one held takes the draft as it stands; any
	// other is merged with the draft as a conflict's theirs is, and the
	// rebase waits for the user (Rebase.CreatedAgain says it is a new
	// object).
	OntoNewObject bool
}

// Saved reports a save or create the server took, with the object it
// stored.
type Saved struct {
	// Object is what the server stored; it becomes base.
	Object *unstructured.Unstructured
	// At is when kube/ saw it; the session never reads the clock.
	At time.Time
	// Warnings are what the server warned of in its answer (a field it
	// dropped under --validate=warn), in its words.
	Warnings []string
}

// SaveVerified is kube/'s answer to VerifySave: the object as the server
// has it now.
type SaveVerified struct {
	// Object is the object on the server now.
	Object *unstructured.Unstructured
	// At is when kube/ saw it; the session never reads the clock.
	At time.Time
	// Warnings are always none: a read back carries no save's warnings.
	Warnings []string
}

// SaveFailed reports a save the server refused (or a FetchTheirs that
// failed). Err's kind comes from KindOf.
type SaveFailed struct {
	// Err is the typed error (a KindedError somewhere in its chain).
	Err error
}

// Conflicted reports theirs, the object as the server has it after a
// conflict: kube/'s answer to FetchTheirs, or sent directly with a
// conflict's SaveFailed when kube/ already holds theirs.
type Conflicted struct {
	// Theirs is the object the server has now.
	Theirs *unstructured.Unstructured
	// At is when kube/ saw it; the session never reads the clock.
	At time.Time
}

// RebaseRequested asks to rebase the draft onto live before saving, after
// the banner said the object changed on the server. During a rebase it
// merges onto live instead of theirs, keeping the resolutions of the
// conflicts that did not change.
type RebaseRequested struct{}

// Resolve resolves conflict Index (an index into Session.Conflicts).
type Resolve struct {
	// Index is the conflict's index in Session.Conflicts.
	Index int
	// Resolution is mine, theirs, base, a custom value, or Unresolved to
	// open the conflict again.
	Resolution diff.Resolution
}

// ResolveAll resolves every open conflict the same way (TakeMine,
// TakeTheirs or TakeBase).
type ResolveAll struct {
	// Choice is diff.TakeMine, diff.TakeTheirs or diff.TakeBase.
	Choice diff.Choice
}

// Resubmit asks to save the rebase's merged object with theirs'
// resourceVersion. It is refused while conflicts are open, and, for a
// rebase onto an object created again since the draft was made
// (Rebase.CreatedAgain), without the user's yes.
type Resubmit struct {
	// OntoNewObject is the user's yes to saving onto the object created
	// again, as SaveRequested's.
	OntoNewObject bool
}

// DiscardDraft throws the draft (and any rebase) away.
type DiscardDraft struct{}

// AbandonRebase leaves a rebase and goes back to the draft, unchanged and
// still based on base: the conflict view's way back. Nothing of theirs is
// lost: a later save conflicts again and starts a new rebase, and the
// banner keeps saying that the object changed on the server.
type AbandonRebase struct{}

// StoredDraft is a draft as the draft store kept it.
type StoredDraft struct {
	// Text is the draft as typed.
	Text string
	// Format is the format Text was written in; "" is YAML. The session
	// edits in it from then on: a draft opens in the format it was
	// written in, whatever the session's was.
	Format Format
	// BaseResourceVersion is base's resourceVersion when the draft was
	// stored.
	BaseResourceVersion string
	// Base is the object the draft was made from, when the store kept it.
	Base *unstructured.Unstructured
	// UID is the uid of the object the draft was made on, when the store
	// recorded it. A draft of an object that was deleted and created again
	// under the same name (another uid) is taken as it stands, over the
	// object as it is now: its base is another object's, so nothing is
	// merged.
	UID string
}

// RecoverDraft takes a stored draft back as the session's draft.
type RecoverDraft struct {
	// Draft is what the draft store read.
	Draft StoredDraft
}

// Recreate asks to create the object again from the draft after it was
// deleted while editing.
type Recreate struct{}

// PreviewRequested asks for a server-side dry run of the draft's save, to
// show the object the server would store before it is written.
type PreviewRequested struct{}

// Previewed reports the dry run's answer: the object the server would
// store, or Err when it would refuse the save.
type Previewed struct {
	// Object is what the server would store.
	Object *unstructured.Unstructured
	// Err is why the server would refuse the save.
	Err error
}

func (PreviewRequested) event() {}
func (Previewed) event()        {}
func (Opened) event()           {}
func (AbandonRebase) event()    {}
func (LiveChanged) event()      {}
func (DraftEdited) event()      {}
func (MergedEdited) event()     {}
func (SaveRequested) event()    {}
func (Saved) event()            {}
func (SaveFailed) event()       {}
func (SaveVerified) event()     {}
func (Conflicted) event()       {}
func (RebaseRequested) event()  {}
func (Resolve) event()          {}
func (ResolveAll) event()       {}
func (Resubmit) event()         {}
func (DiscardDraft) event()     {}
func (RecoverDraft) event()     {}
func (Recreate) event()         {}
