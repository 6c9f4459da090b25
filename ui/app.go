package ui

import (
	"context"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// screen is what fills the body.
type screen int

const (
	screenObject screen = iota
	screenConflict
	screenEditor
	screenTimeline
	screenPreview
	screenBrowser
	screenLost
	screenSet
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
	confirmNewObject
	confirmUndo
	confirmSetRecover
	confirmSetGitOps
)

// Messages: results of commands, named in the past tense.
type (
	// watchEventMsg is one event from the watch's channel.
	watchEventMsg struct{ ev kube.WatchEvent }
	// watchClosedMsg says the watch's channel was closed.
	watchClosedMsg struct{}
	// watchedMsg is a watchEventMsg or watchClosedMsg from the watch of
	// channel ch: one of an object left for the browser is dropped.
	watchedMsg struct {
		ch  <-chan kube.WatchEvent
		msg tea.Msg
	}
	// performedMsg is the outcome of one effect of session sess (nil:
	// the session shown).
	performedMsg struct {
		effect model.Effect
		event  model.Event
		err    error
		sess   *model.Session
	}
	// retryDueMsg says the delay of RetrySave attempt is over, for session
	// sess (nil: the session shown).
	retryDueMsg struct {
		sess    *model.Session
		attempt int
	}
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
		// sess is the session whose drafts they are (nil: the one shown).
		sess *model.Session
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
	keys   KeyMap
	styles *Styles

	// objectState is the object shown, if any: its session and where its
	// draft is (m.sess, m.draftPath ...).
	objectState
	// parked are the objects left for the browser with a draft, taken up
	// again when opened again, so the draft comes back without the
	// recovery question.
	parked map[DraftKey]objectState
	// opening is the object being opened from the browser, if any.
	opening *DraftKey
	// checkingNamespace is the namespace :ns NAME typed, while the server
	// is asked whether it exists.
	checkingNamespace string
	// leaving: esc was pressed and the app goes back to the list once
	// the shown object's outstanding commands are back.
	leaving bool

	// set is kedit's set (Config.Set), nil for none; setView lists it.
	set     *setState
	setView SetView

	// list is the browser's live list; storedMarks the drafts the store
	// holds on this cluster, for the DRAFT column.
	list        List
	storedMarks map[DraftKey]DraftPlace
	// initCmd is what Init starts besides the watch: the first list's
	// reader, or the first object's watch and demo writer's reader.
	initCmd tea.Cmd
	// firstFrame is set once ExitAfterFirstFrame has quit; warming while
	// the shown object's YAML renders in the background (warmDraftText).
	firstFrame bool
	warming    bool

	width, height int
	screen        screen
	confirm       confirmation
	// forceArmed: ctrl+c asked once about a draft that exists only in
	// memory; the next one quits.
	forceArmed bool
	// editorOpen: $EDITOR runs, and a signal waits for it to return.
	editorOpen  bool
	terminating os.Signal

	object   ObjectView
	conflict ConflictView
	editor   EditorView
	timeline TimelineView
	// lost is a LOST row's lost updates, from the timeline.
	lost    LostView
	preview PreviewView
	browser Browser
	status  StatusBar
	// helpState is the help page (? or f1), when it shows.
	helpState
	// helpLine and bottom are the footer and the status bar (or question)
	// as relayout rendered them; helpLine is for helpFor.
	helpLine, bottom string
	helpFor          helpKey
	// pasting: the last message was a paste into the editor; frame is
	// the screen last drawn (View).
	pasting bool
	frame   *frameCache
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
	m := App{cfg: cfg, ctx: ctx, keys: keys, styles: styles, parked: map[DraftKey]objectState{},
		object: NewObjectView(keys, styles), conflict: NewConflictView(keys, styles), editor: NewEditorView(keys, styles),
		timeline: NewTimelineView(keys, styles), lost: NewLostView(lostKeys(keys), styles), preview: NewPreviewView(keys, styles),
		browser: NewBrowser(keys, styles), status: NewStatusBar(styles), width: 80, height: 24, frame: &frameCache{}}
	switch {
	case cfg.Set != nil:
		m.initCmd = m.startSet(cfg.Set)
	case cfg.Object != nil:
		m.initCmd = m.show(cfg.Object)
	case cfg.Session != nil:
		m.take(objectState{sess: cfg.Session, runner: cfg.Runner, drafts: cfg.Drafts, events: cfg.Events, demo: cfg.Demo, history: cfg.History}, true)
		m.initCmd = demoCmd(cfg.Demo)
		if cfg.Notice != "" {
			m.status.Info(kube.EscapeControl(cfg.Notice))
		}
	case cfg.List != nil:
		m.screen = screenBrowser
		m.list = cfg.List
		m.initCmd = m.browser.SetList(cfg.List.Collection(), cfg.List.Snapshots())
		if cfg.First != nil {
			m.browser.ShowSnapshot(*cfg.First)
		}
	}
	m.status.Settle(m.statusState())
	m.relayout()
	return m
}

// Init starts reading the watch and the list, and asks for what the
// browser completes and marks.
func (m App) Init() tea.Cmd {
	cmds := []tea.Cmd{watchCmd(m.events), m.initCmd}
	if m.cfg.Cluster != nil {
		cmds = append(cmds, typesCmd(m.cfg.Cluster), draftsCmd(m.cfg.Cluster, false))
	}
	return tea.Batch(cmds...)
}

// Session returns the session: for tests, and for kedit to store the
// latest draft once the app has ended.
func (m App) Session() *model.Session { return m.sess }

// Terminated returns the signal that ended the app, nil when the user
// quit.
func (m App) Terminated() os.Signal { return m.terminating }

// Update handles a message and lays the screen out again.
func (m App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	m.pasting = ok && k.Paste && m.screen == screenEditor
	m, cmd := m.update(msg)
	m.status.Settle(m.statusState())
	if warm := m.warmDraftText(); warm != nil {
		cmd = tea.Batch(cmd, warm)
	}
	m.relayout()
	if m.pasting && m.frame != nil {
		cmd = tea.Batch(cmd, m.frame.redraw())
	}
	if m.cfg.ExitAfterFirstFrame && !m.firstFrame && m.showsContent() {
		// The frame of this Update is drawn before the program ends.
		m.firstFrame = true
		return m, tea.Batch(cmd, tea.Quit)
	}
	return m, cmd
}

func (m App) update(msg tea.Msg) (App, tea.Cmd) {
	if m.browser.Handles(msg) {
		// The list stays live whatever screen is shown.
		var cmd tea.Cmd
		m.browser, cmd = m.browser.Update(msg)
		return m, cmd
	}
	if m, cmd, ok := m.setMsg(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case baseRenderedMsg:
		return m.baseRendered(msg)
	case watchedMsg:
		if msg.ch != m.events {
			return m, nil // the watch of an object left for the browser
		}
		return m.update(msg.msg)
	case watchEventMsg:
		if m.sess == nil {
			return m, nil
		}
		return m, tea.Batch(m.watched(msg.ev), watchCmd(m.events))
	case watchClosedMsg:
		m.object.SetConnection("watch stopped")
		return m, nil
	case demoWroteMsg, demoStoppedMsg:
		return m.demoWrote(msg)
	case performedMsg:
		if msg.sess != nil && msg.sess != m.sess {
			// Leaving an object waits for its outcomes: this cannot
			// happen, and must not reach another object's session.
			return m, nil
		}
		if msg.sess != nil {
			m.inflight--
		}
		var cmd tea.Cmd
		if seq := storeSeq(msg.effect); seq > 0 {
			m.draftStored(msg.effect, seq, msg.err)
		} else if msg.err != nil {
			m.status.Error(errorText(msg.err))
		}
		if msg.event != nil {
			cmd = m.handle(msg.event)
		}
		if m.set != nil {
			cmd = tea.Batch(cmd, m.pumpSet())
			m, cmd = m.shownSettled(cmd)
		}
		return m.leaveIfDue(cmd)
	case storedDraftsMsg:
		if msg.sess != nil && msg.sess != m.sess {
			return m, nil // as for performedMsg
		}
		if n, ok := m.objectState.storedDrafts(msg); ok {
			n.say(&m.status)
		}
		return m.leaveIfDue(nil)
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
		if m.sess == nil || (msg.sess != nil && msg.sess != m.sess) {
			return m, nil // the object was left meanwhile
		}
		if !m.sess.RetryWaiting() || m.sess.Failure().Attempt != msg.attempt {
			// The user did something else meanwhile (discarded, edited and
			// saved), or the save was tried already (the server came back).
			return m, nil
		}
		return m, m.handle(model.SaveRequested{})
	case editorFinishedMsg:
		if m.sess == nil {
			return m, nil // cannot happen: no object is left while $EDITOR runs
		}
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
		switch m.screen {
		case screenObject:
			m.object, cmd = m.object.Update(msg)
		case screenBrowser:
			m.browser, cmd = m.browser.Update(msg)
		case screenSet:
			m.setView, cmd = m.setView.Update(msg)
		case screenEditor:
			m.editor, cmd = m.editor.Update(msg)
		}
		return m, cmd
	case editorCheckedMsg:
		return m.editorChecked(msg)
	case accessCheckedMsg:
		m.accessChecked(msg)
		return m, nil
	case redrawMsg:
		if m.frame != nil {
			m.frame.redrawing = false
		}
		return m, nil
	}
	if m, cmd, ok := m.browsing(msg); ok {
		return m, cmd
	}
	if m, cmd, ok := m.auditing(msg); ok {
		return m, cmd
	}
	// The editor's own background results (its gutter's diff, its
	// pauses) are of types it keeps to itself, and drops when they are
	// another opening's.
	var cmd, ecmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	m.editor, ecmd = m.editor.Update(msg)
	return m, tea.Batch(cmd, ecmd)
}

// watched turns a watch event into a LiveChanged, or a connection state.
func (m *App) watched(ev kube.WatchEvent) tea.Cmd {
	if ev.Type == kube.ConnectionChanged {
		m.object.SetConnection(connectionText(ev.Connection))
		if ev.Connection.State.Up() && m.sess.RetryWaiting() {
			// The server answers again: a save waiting out its back-off
			// goes now, not when the back-off ends.
			return m.handle(model.Reconnected{})
		}
		return nil
	}
	typ := map[kube.WatchEventType]model.LiveType{kube.ObjectAdded: model.LiveAdded, kube.ObjectModified: model.LiveModified, kube.ObjectDeleted: model.LiveDeleted}[ev.Type]
	if typ == 0 || ev.Object == nil {
		return nil
	}
	cmd := m.handle(model.LiveChanged{Type: typ, Object: ev.Object, At: time.Now()})
	m.sayDemoWrite()
	return cmd
}
