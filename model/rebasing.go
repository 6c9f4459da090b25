package model

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// The rebase under way, as the session shows it: its versions, its merge,
// its conflicts and their resolutions.

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
	// so far; nil in StateWaitingTheirs. The session replaces it on
	// each Resolve instead of changing it, so a Merge handed out stays as
	// it was.
	Merge *diff.ObjectMerge

	// Ownership is true when the conflicts are fields other field managers
	// own, from a server-side apply the server refused (Theirs is then the
	// object as it was, base's content): resolving one to theirs leaves the
	// field to its owner and out of the apply, to mine takes it, and the
	// resubmit forces the fields resolved to mine.
	Ownership bool
	// Edited is the merged text as the user last edited it, when the
	// session refused it (a block left in, YAML that does not parse):
	// MergedText offers it again. Empty otherwise.
	Edited string
	// CreatedAgain is set when theirs is another object of this name than
	// base's (deleted and created again since, another uid): the first
	// version of it kedit saw. The rebase then merges the draft, made on
	// the earlier object, onto the new one.
	CreatedAgain string

	// stale is true when the draft was edited since into text that does
	// not parse, so Merge is not of the draft as it stands.
	stale bool
	// fromServer is true in StateWaitingTheirs when the FetchTheirs out
	// reads the server (FetchTheirs.Fresh), not the informer's copy.
	fromServer bool
	// owners are, for an ownership rebase, the owner of each field the
	// server named, by path.
	owners map[string]string
}

// Conflicts returns the rebase's conflicts, nil when there is none.
func (s *Session) Conflicts() []diff.Conflict {
	if !s.rebasing() {
		return nil
	}
	return s.rebase.Merge.Conflicts
}

// Resolutions returns the rebase's resolutions, one per conflict.
func (s *Session) Resolutions() []diff.Resolution {
	if !s.rebasing() {
		return nil
	}
	return append([]diff.Resolution(nil), s.rebase.Merge.Resolutions...)
}

// OpenConflicts returns how many of the rebase's conflicts are still open.
func (s *Session) OpenConflicts() int {
	if !s.rebasing() {
		return 0
	}
	return s.rebase.Merge.Open()
}

// MergedText renders the rebase's merged object with a conflict block for
// each open conflict, for the conflict view or $EDITOR. Handing the edited
// text back as MergedEdited resolves the rebase by hand. After the session
// refused an edited text, it is that text again, so that nothing typed is
// lost.
func (s *Session) MergedText() (string, error) {
	if !s.rebasing() {
		return "", &StateError{Event: "render the merge", State: s.state, Reason: "nothing is being rebased"}
	}
	if s.rebase.Edited != "" {
		return s.rebase.Edited, nil
	}
	return s.format.MergedText(s.rebase.Merge)
}

// Rebase returns the rebase in progress, or nil.
func (s *Session) Rebase() *Rebase {
	if s.rebase == nil {
		return nil
	}
	r := *s.rebase
	return &r
}

// Stale reports whether the draft was edited since the merge into text
// that does not parse: Merge is of an older mine, and Resubmit is refused
// until the draft parses again (and is merged again).
func (r *Rebase) Stale() bool { return r.stale }
