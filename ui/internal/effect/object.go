package effect

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
)

// One object's commands: each answer carries the ID of the object it is
// of, and goes to that object wherever it is, shown or not.

type (
	// Watched is one event of the watch of the object Of, read from
	// channel Ch (nil for a set's, whose watch is the set's), or, Closed,
	// that the watch ended. One of a watch stopped since (the object left
	// for the browser, or watched again) is dropped.
	Watched struct {
		Of     ID
		Ch     <-chan kube.WatchEvent
		Event  kube.WatchEvent
		Closed bool
	}
	// Performed is the outcome of one effect of the object Of.
	Performed struct {
		Effect model.Effect
		Event  model.Event
		Err    error
		Of     ID
	}
	// RetryDue says the delay of RetrySave Attempt is over, for the
	// object Of.
	RetryDue struct {
		Of      ID
		Attempt int
	}
	// StoredDrafts is the outcome of recovering, discarding or keeping
	// aside stored drafts: the file the draft goes to now, and the kept
	// file for a draft kept aside.
	StoredDrafts struct {
		Path, Kept string
		// Why a draft was kept aside, said with where it is kept.
		Why escape.Text
		Err error
		// Of is the object whose drafts they are.
		Of ID
	}
	// ObjectRead is the object Of as read when the app took it up again.
	ObjectRead struct {
		Of  ID
		Obj *unstructured.Unstructured
		Err error
	}
)

// Watch reads the next event from the watch of the object id. The app
// returns it again after each event, so the informer never waits on the UI
// (Program.Send would block while an editor runs).
func Watch(id ID, ch <-chan kube.WatchEvent) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		return Watched{Of: id, Ch: ch, Event: ev, Closed: !ok}
	}
}

// Perform performs one effect of the object id and reports its outcome.
func Perform(ctx context.Context, id ID, r Performer, effect model.Effect) tea.Cmd {
	return func() tea.Msg {
		ev, err := r.Perform(ctx, effect)
		return Performed{Effect: effect, Event: ev, Err: err, Of: id}
	}
}

// Retry waits out a RetrySave's delay.
func Retry(id ID, r model.RetrySave) tea.Cmd {
	return tea.Tick(r.Delay, func(time.Time) tea.Msg { return RetryDue{id, r.Attempt} })
}

// Adopt makes a recovered stored draft's file this kedit's own.
func Adopt(id ID, d Drafts, path string) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Adopt(path)
		return StoredDrafts{Path: p, Err: err, Of: id}
	}
}

// Discard removes stored drafts the user declined to recover.
func Discard(id ID, d Drafts, paths []string) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Discard(paths...)
		return StoredDrafts{Path: p, Err: err, Of: id}
	}
}

// KeepAside moves a stored draft that cannot be recovered (why says so)
// out of the way, where nothing writes it again.
func KeepAside(id ID, d Drafts, path string, why escape.Text) tea.Cmd {
	return func() tea.Msg {
		kept, err := d.KeepAside(path)
		return StoredDrafts{Kept: kept, Why: why, Err: err, Of: id}
	}
}

// Read reads the object id from the server, when the app takes it up
// again: it may have changed or gone while nothing watched it.
func Read(ctx context.Context, id ID, read func(context.Context) (*unstructured.Unstructured, error)) tea.Cmd {
	return func() tea.Msg {
		obj, err := read(ctx)
		return ObjectRead{Of: id, Obj: obj, Err: err}
	}
}

// Stop stops a list or a watch, which waits for its goroutines, off the
// UI's goroutine. It reports nothing.
func Stop(stop func()) tea.Cmd { return Do(stop) }

// Do does f off the UI's goroutine, and reports nothing: what may wait on
// a file or a goroutine (a line of --debug's log).
func Do(f func()) tea.Cmd {
	return func() tea.Msg {
		f()
		return nil
	}
}

type (
	// AccessChecked is the server's answer to whether the user may save
	// the object Of: nil, a *kube.ForbiddenError, or why it could not be
	// asked.
	AccessChecked struct {
		Of  ID
		Err error
	}
	// SchemaRead is the schema of the kind of the object Of, or why it
	// could not be read.
	SchemaRead struct {
		Of     ID
		Schema *schemacheck.Schema
		Err    error
	}
	// SourceFound is the object view's line naming the source of the
	// object Of; "" says nothing.
	SourceFound struct {
		Of   ID
		Line escape.Text
	}
)

// AskAccess asks the server whether the user may save the object id.
func AskAccess(ctx context.Context, id ID, may func(context.Context) error) tea.Cmd {
	return func() tea.Msg { return AccessChecked{Of: id, Err: may(ctx)} }
}

// ReadSchema reads the schema of the object id's kind.
func ReadSchema(id ID, read func() (*schemacheck.Schema, error)) tea.Cmd {
	return func() tea.Msg {
		s, err := read()
		return SchemaRead{Of: id, Schema: s, Err: err}
	}
}

// FindSource finds the line naming the source of the object id (found
// by find, which may read the server and search a work tree).
func FindSource(id ID, find func() escape.Text) tea.Cmd {
	return func() tea.Msg { return SourceFound{Of: id, Line: find()} }
}

// BaseRendered is the text of Obj, the base of the object Of, rendered
// in Format; a nil Obj: it could not be rendered.
type BaseRendered struct {
	Of     ID
	Obj    *unstructured.Unstructured
	Format model.Format
	Text   string
}

// Render renders obj, the base of the object id, in format, in the
// background: e and i then open at once.
func Render(id ID, format model.Format, obj *unstructured.Unstructured) tea.Cmd {
	return func() tea.Msg {
		text, err := format.Render(obj)
		if err != nil {
			return BaseRendered{Of: id} // the draft's text says why, when asked
		}
		return BaseRendered{Of: id, Obj: obj, Format: format, Text: text}
	}
}
