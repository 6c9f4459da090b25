package ui

import (
	"context"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// What the app is started with and what it calls, and the commands that
// carry out one object's I/O.

// Performer carries out a session's effects: *kube.Runner against the API
// server, or a fake in tests of the UI alone.
type Performer interface {
	Perform(ctx context.Context, effect model.Effect) (model.Event, error)
}

// Drafts is this kedit's share of the draft store for the object
// (*drafts.Object): where its draft is written, the stored drafts to
// offer for recovery, and what to do with them. The app reads the first
// six once, when it starts; the last three it calls inside commands.
type Drafts interface {
	Path() string
	Stored() []*drafts.Draft
	Others() []drafts.Editor
	Problem() error
	Warnings() []error
	MemoryOnly() bool
	Adopt(path string) (string, error)
	Discard(paths ...string) (string, error)
	KeepAside(path string) (string, error)
}

// Config is what the app is started with: the object, the list or the
// set to show first, and the options of every object.
type Config struct {
	// AutoRebase resubmits clean rebases after a conflict without asking.
	AutoRebase bool
	// Context bounds every API call; nil means context.Background.
	Context context.Context
	// YesGitOps saves an object a GitOps tool reconciles without asking
	// first (--yes-gitops).
	YesGitOps bool
	// SourceDir is the checkout of the manifests g writes a GitOps
	// object's draft to (--source); "" for the git work tree of the
	// current directory.
	SourceDir string
	// Clipboard is the terminal, where a copy or a cut in the in-app
	// editor is written as an OSC 52 sequence (the terminal's clipboard,
	// where it allows); nil for none.
	Clipboard io.Writer
	// Keys and common.Styles default to DefaultKeyMap and common.NewStyles.
	Keys   *KeyMap
	Styles *common.Styles

	// Cluster lists objects for the browser and opens those picked in it;
	// nil for an app on one object alone, where esc has no list to go
	// back to.
	Cluster Cluster
	// Object is the object to show first (kedit TYPE/NAME), opened by
	// Cluster.Open; with a Cluster, esc goes back to its type's list.
	Object *Object
	// List is the browser's list to show first (kedit, kedit TYPE),
	// started already; First is its latest snapshot, read before the UI
	// started to say a refusal on the terminal.
	List  List
	First *kube.BrowseSnapshot
	// Set is the set to show first (kedit cm/a cm/b, -l, -f), its objects
	// opened already; esc from one of them goes back to it.
	Set *Set
	// ExitAfterFirstFrame quits once the first frame showing the list (or
	// the object's YAML, or the set) is drawn: start-up made measurable.
	ExitAfterFirstFrame bool
	// Subresource is the part of each object this kedit edits
	// (--subresource); "" for the objects themselves. The browser marks
	// the drafts of what it edits; :drafts lists every draft, naming the
	// subresource of each.
	Subresource kube.Subresource
	// HelpNote is said under the keys on the help page (?), one line
	// each: kedit demo's how a second terminal joins its cluster.
	HelpNote []string
	// Requests is the log of every request kedit sent and every watch
	// event it read, which the request pane (L) shows; nil for none.
	Requests *kube.RequestLog
	// Tour draws kedit demo --tour's line over every view: what to do
	// next, and what the last step did on the wire (tourline.go).
	Tour bool
}

// watchCmd reads the next event from the watch of the object id. The app
// returns it again after each event, so the informer never waits on the UI
// (Program.Send would block while an editor runs).
func watchCmd(id objectID, ch <-chan kube.WatchEvent) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		return watchedMsg{of: id, ch: ch, ev: ev, closed: !ok}
	}
}

// performCmd performs one effect of the object id and reports its outcome.
func performCmd(ctx context.Context, id objectID, r Performer, effect model.Effect) tea.Cmd {
	return func() tea.Msg {
		ev, err := r.Perform(ctx, effect)
		return performedMsg{effect: effect, event: ev, err: err, of: id}
	}
}

// retryCmd waits out a RetrySave's delay.
func retryCmd(id objectID, r model.RetrySave) tea.Cmd {
	return tea.Tick(r.Delay, func(time.Time) tea.Msg { return retryDueMsg{id, r.Attempt} })
}

// adoptCmd makes a recovered stored draft's file this kedit's own.
func adoptCmd(id objectID, d Drafts, path string) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Adopt(path)
		return storedDraftsMsg{path: p, err: err, of: id}
	}
}

// discardCmd removes stored drafts the user declined to recover.
func discardCmd(id objectID, d Drafts, paths []string) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Discard(paths...)
		return storedDraftsMsg{path: p, err: err, of: id}
	}
}

// keepAsideCmd moves a stored draft that cannot be recovered (why says
// so) out of the way, where nothing writes it again.
func keepAsideCmd(id objectID, d Drafts, path string, why escape.Text) tea.Cmd {
	return func() tea.Msg {
		kept, err := d.KeepAside(path)
		return storedDraftsMsg{kept: kept, why: why, err: err, of: id}
	}
}
