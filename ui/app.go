package ui

import (
	"context"
	"errors"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// Performer carries out a session's effects: *kube.Runner against the API
// server, or a fake in tests of the UI alone.
type Performer interface {
	Perform(ctx context.Context, effect model.Effect) (model.Event, error)
}

// Config is what the app is started with.
type Config struct {
	// Session is the edit session; the app owns it from now on.
	Session *model.Session
	// Runner performs the session's effects.
	Runner Performer
	// Events is the watch's channel (kube.Watch.Events); nil for none.
	Events <-chan kube.WatchEvent
	// Stored is a draft the draft store holds for this object, offered
	// for recovery at start; nil for none.
	Stored *model.StoredDraft
	// AutoRebase resubmits clean rebases after a conflict without asking.
	AutoRebase bool
	// Context bounds every API call; nil means context.Background.
	Context context.Context
	// Notice is said in the status bar at start, e.g. that the server's
	// schema could not be read.
	Notice string
	// Keys and Styles default to DefaultKeyMap and NewStyles.
	Keys   *KeyMap
	Styles *Styles
}

// screen is what fills the body.
type screen int

const (
	screenObject screen = iota
	screenConflict
	screenEditor
)

// confirmation is a question waiting for y or n.
type confirmation int

const (
	confirmNone confirmation = iota
	confirmQuit
	confirmDiscard
	confirmRecover
)

// Messages: results of commands, named in the past tense.
type (
	// watchEventMsg is one event from the watch's channel.
	watchEventMsg struct{ ev kube.WatchEvent }
	// watchClosedMsg says the watch's channel was closed.
	watchClosedMsg struct{}
	// performedMsg is the outcome of one effect.
	performedMsg struct {
		event model.Event
		err   error
	}
	// retryDueMsg says a RetrySave's delay is over.
	retryDueMsg struct{}
	// editorFinishedMsg is $EDITOR's result.
	editorFinishedMsg struct {
		text, original string
		merged         bool
		err            error
	}
	// storedDraftDeletedMsg is the outcome of declining a stored draft.
	storedDraftDeletedMsg struct{ err error }
)

// App is kedit's root model: it owns the session, hands it every intent
// and outcome, performs its effects as commands and draws the child views.
type App struct {
	cfg    Config
	ctx    context.Context
	sess   *model.Session
	keys   KeyMap
	styles *Styles

	width, height int
	screen        screen
	confirm       confirmation
	stored        *model.StoredDraft
	// autoMerged says what --auto-rebase merged, for the saved message.
	autoMerged string
	// editingMerged is set while the in-app editor holds the rebase's
	// merged text rather than the draft.
	editingMerged bool

	object   ObjectView
	conflict ConflictView
	editor   EditorView
	status   StatusBar
	help     help.Model
}

// New returns the app for cfg.
func New(cfg Config) App {
	keys := DefaultKeyMap()
	if cfg.Keys != nil {
		keys = *cfg.Keys
	}
	styles := cfg.Styles
	if styles == nil {
		styles = NewStyles()
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	m := App{cfg: cfg, ctx: ctx, sess: cfg.Session, keys: keys, styles: styles,
		object: NewObjectView(keys, styles), conflict: NewConflictView(keys, styles), editor: NewEditorView(keys, styles),
		status: NewStatusBar(styles), help: help.New(), width: 80, height: 24}
	if cfg.Stored != nil {
		m.stored, m.confirm = cfg.Stored, confirmRecover
	}
	if cfg.Notice != "" {
		m.status.Info(kube.EscapeControl(cfg.Notice))
	}
	m.refresh()
	m.relayout()
	return m
}

// Init starts reading the watch.
func (m App) Init() tea.Cmd { return watchCmd(m.cfg.Events) }

// watchCmd reads the next event from the watch. The app returns it again
// after each event, so the informer never waits on the UI (Program.Send would
// block while an editor runs).
func watchCmd(ch <-chan kube.WatchEvent) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return watchClosedMsg{}
		}
		return watchEventMsg{ev}
	}
}

// performCmd performs one effect and reports its outcome.
func performCmd(ctx context.Context, r Performer, effect model.Effect) tea.Cmd {
	return func() tea.Msg {
		ev, err := r.Perform(ctx, effect)
		return performedMsg{event: ev, err: err}
	}
}

// retryCmd waits out a RetrySave's delay.
func retryCmd(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return retryDueMsg{} })
}

// deleteStoredDraftCmd removes a stored draft the user declined to recover.
func deleteStoredDraftCmd(ctx context.Context, r Performer, ref model.ObjectRef) tea.Cmd {
	return func() tea.Msg {
		_, err := r.Perform(ctx, model.DeleteDraft{Ref: ref})
		return storedDraftDeletedMsg{err}
	}
}

// Session returns the session, for tests.
func (m App) Session() *model.Session { return m.sess }

// Update handles a message and lays the screen out again.
func (m App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.relayout()
	return m, cmd
}

func (m App) update(msg tea.Msg) (App, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case watchEventMsg:
		return m, tea.Batch(m.watched(msg.ev), watchCmd(m.cfg.Events))
	case watchClosedMsg:
		m.object.SetConnection("watch stopped")
		return m, nil
	case performedMsg:
		var cmd tea.Cmd
		var secret *kube.SecretDraftError
		switch {
		case errors.As(msg.err, &secret):
			// The default for Secrets, not a failure: say it without alarm.
			m.status.Info(errorText(msg.err))
		case msg.err != nil:
			// Only a draft that could not be written to disk: the session's
			// draft is intact, but the user must know it will not survive a crash.
			m.status.Error(errorText(msg.err))
		}
		if msg.event != nil {
			cmd = m.handle(msg.event)
		}
		return m, cmd
	case retryDueMsg:
		if m.sess.State() != model.StateFailed {
			// The user did something else meanwhile (discarded, edited and saved).
			return m, nil
		}
		return m, m.handle(model.SaveRequested{})
	case editorFinishedMsg:
		return m.editorFinished(msg)
	case storedDraftDeletedMsg:
		if msg.err != nil {
			m.status.Error("could not remove the stored draft: " + errorText(msg.err))
		}
		return m, nil
	case tea.KeyMsg:
		return m.key(msg)
	case tea.MouseMsg:
		var cmd tea.Cmd
		if m.screen == screenObject {
			m.object, cmd = m.object.Update(msg)
		}
		return m, cmd
	}
	var cmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	return m, cmd
}

// watched turns a watch event into a LiveChanged, or a connection state.
func (m *App) watched(ev kube.WatchEvent) tea.Cmd {
	switch ev.Type {
	case kube.WatchConnected:
		m.object.SetConnection("connected")
		return nil
	case kube.WatchReconnecting:
		m.object.SetConnection("reconnecting since " + ev.Since.Local().Format("15:04:05"))
		return nil
	}
	typ := map[kube.WatchEventType]model.LiveType{kube.ObjectAdded: model.LiveAdded, kube.ObjectModified: model.LiveModified, kube.ObjectDeleted: model.LiveDeleted}[ev.Type]
	if typ == 0 || ev.Object == nil {
		return nil
	}
	return m.handle(model.LiveChanged{Type: typ, Object: ev.Object, At: time.Now()})
}
