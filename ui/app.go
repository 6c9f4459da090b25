package ui

import (
	"context"
	"fmt"
	"os"
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

// Drafts is this kedit's share of the draft store for the object
// (*kube.ObjectDrafts): where its draft is written, the stored drafts to
// offer for recovery, and what to do with them. The app reads the first
// six once, when it starts; the last three it calls inside commands.
type Drafts interface {
	Path() string
	Stored() []*kube.Draft
	Others() []kube.Editor
	Problem() error
	Warnings() []error
	MemoryOnly() bool
	Adopt(path string) (string, error)
	Discard(paths ...string) (string, error)
	KeepAside(path string) (string, error)
}

// Config is what the app is started with.
type Config struct {
	// Session is the edit session; the app owns it from now on.
	Session *model.Session
	// Runner performs the session's effects.
	Runner Performer
	// Events is the watch's channel (kube.Watch.Events); nil for none.
	Events <-chan kube.WatchEvent
	// Drafts is where drafts are stored; nil keeps them in memory only.
	Drafts Drafts
	// AutoRebase resubmits clean rebases after a conflict without asking.
	AutoRebase bool
	// Context bounds every API call; nil means context.Background.
	Context context.Context
	// Notice is said in the status bar at start, e.g. that the server's
	// schema could not be read.
	Notice string
	// Demo is kedit demo's second writer, which w makes write at once;
	// nil outside the demo.
	Demo DemoWriter
	// YesGitOps saves an object a GitOps tool reconciles without asking
	// first (--yes-gitops).
	YesGitOps bool
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
	screenTimeline
	screenPreview
)

// confirmation is a question waiting for y or n.
type confirmation int

const (
	confirmNone confirmation = iota
	confirmQuit
	confirmDiscard
	confirmRecover
	confirmTimelineTake
	confirmGitOps
)

// Messages: results of commands, named in the past tense.
type (
	// watchEventMsg is one event from the watch's channel.
	watchEventMsg struct{ ev kube.WatchEvent }
	// watchClosedMsg says the watch's channel was closed.
	watchClosedMsg struct{}
	// performedMsg is the outcome of one effect.
	performedMsg struct {
		effect model.Effect
		event  model.Event
		err    error
	}
	// retryDueMsg says a RetrySave's delay is over.
	retryDueMsg struct{}
	// editorFinishedMsg is $EDITOR's result.
	editorFinishedMsg struct {
		text, original string
		merged         bool
		err            error
	}
	// storedDraftsMsg is the outcome of recovering, discarding or keeping
	// aside stored drafts: the file the draft goes to now, and the kept
	// file for a draft kept aside.
	storedDraftsMsg struct {
		path, kept string
		// why a draft was kept aside, said with where it is kept.
		why string
		err error
	}
)

// SignalMsg tells the app that kedit got a signal that ends it (SIGHUP,
// SIGTERM, SIGINT). The app takes what the in-app editor holds as the
// draft and quits, once any $EDITOR has returned; the caller then stores
// the draft (Session().StoreDraft) and exits. Terminated reports it.
type SignalMsg struct{ Signal os.Signal }

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
	// stored are the drafts earlier runs left, offered until answered.
	stored []*kube.Draft
	// autoMerged says what --auto-rebase merged, for the saved message.
	autoMerged string
	// editingMerged is set while the in-app editor holds the rebase's
	// merged text rather than the draft.
	editingMerged bool

	// Where the draft is: draftPath on disk, unless memoryOnly (a Secret
	// without --allow-secret-drafts, or no store) or the last write failed
	// (diskFailed; said once, diskWarned).
	draftPath              string
	memoryOnly, diskFailed bool
	diskWarned, secretSaid bool
	// storeSeq is the Seq of the newest draft write whose outcome came back.
	storeSeq uint64
	// forceArmed: ctrl+c asked once about a draft that exists only in
	// memory; the next one quits.
	forceArmed bool
	// editorOpen: $EDITOR runs, and a signal waits for it to return.
	editorOpen  bool
	terminating os.Signal

	object   ObjectView
	conflict ConflictView
	editor   EditorView
	status   StatusBar
	help     help.Model
	timeline TimelineView
	preview  PreviewView
	oncall   oncallState
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
		status: NewStatusBar(styles), help: help.New(), width: 80, height: 24,
		timeline: NewTimelineView(keys, styles), preview: NewPreviewView(keys, styles), oncall: oncallState{gitOpsOK: cfg.YesGitOps}}
	m.memoryOnly = true
	if d := cfg.Drafts; d != nil {
		m.draftPath, m.memoryOnly = d.Path(), d.MemoryOnly()
		if w := d.Warnings(); len(w) > 0 {
			// A file at a draft's name that kedit did not write: left alone.
			m.status.Error(errorText(w[0]) + "; kedit leaves it alone")
		}
		if others := d.Others(); len(others) > 0 {
			m.status.Info(fmt.Sprintf("another kedit (pid %d) is editing this object; this one stores its draft in %s", others[0].PID, kube.EscapeControl(m.draftPath)))
		}
		if err := d.Problem(); err != nil {
			m.diskFailed, m.diskWarned = true, true
			m.status.Error("drafts exist only in memory: " + errorText(err))
		}
		if m.stored = d.Stored(); len(m.stored) > 0 {
			m.confirm = confirmRecover
		}
	}
	if cfg.Notice != "" {
		m.status.Info(kube.EscapeControl(cfg.Notice))
	}
	m.refresh()
	m.relayout()
	return m
}

// Init starts reading the watch, and the demo writer's reports.
func (m App) Init() tea.Cmd { return tea.Batch(watchCmd(m.cfg.Events), demoCmd(m.cfg.Demo)) }

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
		return performedMsg{effect: effect, event: ev, err: err}
	}
}

// retryCmd waits out a RetrySave's delay.
func retryCmd(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return retryDueMsg{} })
}

// adoptCmd makes a recovered stored draft's file this kedit's own.
func adoptCmd(d Drafts, path string) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Adopt(path)
		return storedDraftsMsg{path: p, err: err}
	}
}

// discardCmd removes stored drafts the user declined to recover.
func discardCmd(d Drafts, paths []string) tea.Cmd {
	return func() tea.Msg {
		p, err := d.Discard(paths...)
		return storedDraftsMsg{path: p, err: err}
	}
}

// keepAsideCmd moves a stored draft that cannot be recovered (why says
// so) out of the way, where nothing writes it again.
func keepAsideCmd(d Drafts, path, why string) tea.Cmd {
	return func() tea.Msg {
		kept, err := d.KeepAside(path)
		return storedDraftsMsg{kept: kept, why: why, err: err}
	}
}

// Session returns the session: for tests, and for kedit to store the
// latest draft once the app has ended.
func (m App) Session() *model.Session { return m.sess }

// Terminated returns the signal that ended the app, nil when the user
// quit.
func (m App) Terminated() os.Signal { return m.terminating }

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
	case demoWroteMsg, demoStoppedMsg:
		return m.demoWrote(msg)
	case performedMsg:
		var cmd tea.Cmd
		if seq := storeSeq(msg.effect); seq > 0 {
			m.draftStored(msg.effect, seq, msg.err)
		} else if msg.err != nil {
			m.status.Error(errorText(msg.err))
		}
		if msg.event != nil {
			cmd = m.handle(msg.event)
		}
		return m, cmd
	case storedDraftsMsg:
		switch {
		case msg.err != nil:
			m.status.Error(errorText(msg.err))
		case msg.kept != "":
			m.status.Error(msg.why + "; it is kept in " + kube.EscapeControl(msg.kept))
		case msg.path != "":
			m.draftPath = msg.path
		}
		return m, nil
	case SignalMsg:
		m.terminating = msg.Signal
		cmd := m.takeEditorText()
		if m.editorOpen {
			// $EDITOR has the terminal: what it writes is the draft, so
			// wait for it to return.
			return m, cmd
		}
		return m, tea.Batch(cmd, tea.Quit)
	case retryDueMsg:
		if m.sess.State() != model.StateFailed {
			// The user did something else meanwhile (discarded, edited and saved).
			return m, nil
		}
		return m, m.handle(model.SaveRequested{})
	case editorFinishedMsg:
		m.editorOpen = false
		m, cmd := m.editorFinished(msg)
		if m.terminating != nil {
			return m, tea.Batch(cmd, tea.Quit)
		}
		return m, cmd
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
