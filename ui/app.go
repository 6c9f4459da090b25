package ui

import (
	"context"
	"os"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/statusbar"
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
	screenDocs
	screenSource
)

// SignalMsg tells the app that kedit got a signal that ends it (SIGHUP,
// SIGTERM, SIGINT). The app takes what the in-app editor holds as the
// draft and quits, once any $EDITOR has returned; the caller then stores
// the draft (Session().StoreDraft) and exits. Terminated reports it.
type SignalMsg struct{ Signal os.Signal }

// App is kedit's root model. It routes each key to the active view (or
// the question, or the help page), acts on what the view asks for, owns
// the session and hands it every intent and outcome, performs its effects
// as commands, and draws the frame: the active view, the status bar (or
// the question) and the footer of the view's keys.
type App struct {
	cfg    Config
	ctx    context.Context
	keys   KeyMap
	styles *common.Styles

	// objectState is the object shown, empty when none: its session and
	// where its draft is (m.sess, m.draftPath ...). It is the object's one
	// state, shared with the set or the shelf that holds the object when
	// it is not shown, never a copy of it.
	*objectState
	// objects are the open objects, each's one home (objectstate.go): the
	// one shown, the set's, those left for the browser with a draft.
	objects registry
	// shelf is where the store has drafts; browsing is the app's side of
	// the browser's list.
	shelf    shelf
	browsing browsing
	// set is the set kedit was started on (Config.Set), nil for none: its
	// objects not shown, and its save round (set.go).
	set *setState

	// screen is the view that fills the body, the top of the page stack
	// whose screens under it are under (views.go: goTo, push, pop); views
	// are the views, one of each (m.object, m.conflict ...), and status
	// the status bar. The views are held by pointer, as the objects are:
	// the app's copies (Update's value receiver) share them, so that
	// copying the app copies no view, and handing a view to the table of
	// views (pages) does not move the app to the heap at every message.
	screen screen
	under  []screen
	*views
	status statusbar.Model
	// confirm is the question on the bottom line, if any.
	confirm confirmState
	// writeBack is the edit of the object's source the source diff
	// shows, nil when none (sourcewrite.go).
	writeBack *writeBack
	// planAfterSave plans the draft's source once its save ends (b at
	// the GitOps question); nil when none.
	planAfterSave tea.Cmd

	life  lifecycle
	frame frameState
}

// lifecycle is where the program stands.
type lifecycle struct {
	// initCmd is what Init starts besides the watch: the first list's
	// reader, or the first object's watch and demo writer's reader.
	initCmd tea.Cmd
	// firstFrame is set once ExitAfterFirstFrame has quit; warming while
	// the shown object's YAML renders in the background (warmDraftText).
	firstFrame bool
	warming    bool
	// editorOpen: $EDITOR runs, and a signal waits for it to return;
	// terminating is that signal.
	editorOpen  bool
	terminating os.Signal
}

// New returns the app for cfg.
func New(cfg Config) App {
	keys := DefaultKeyMap()
	if cfg.Keys != nil {
		keys = *cfg.Keys
	}
	styles := cfg.Styles
	if styles == nil {
		styles = common.NewStyles()
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	m := App{cfg: cfg, ctx: ctx, keys: keys, styles: styles, objects: newRegistry(), objectState: &objectState{},
		views: newViews(keys, styles), status: statusbar.New(styles), frame: newFrameState()}
	if len(cfg.HelpNote) > 0 {
		note := make([]escape.Text, len(cfg.HelpNote))
		for i, l := range cfg.HelpNote {
			note[i] = escape.Safe(l)
		}
		m.help.SetNote(note)
	}
	switch {
	case cfg.Set != nil:
		m.life.initCmd = m.startSet(cfg.Set)
	case cfg.Object != nil:
		m.life.initCmd = m.show(cfg.Object)
	case cfg.List != nil:
		m.goTo(screenBrowser)
		m.browsing.list = cfg.List
		m.life.initCmd = m.setList(cfg.List.Collection(), cfg.List.Snapshots())
		if cfg.First != nil {
			m.browser.ShowSnapshot(browserSnapshot(*cfg.First))
		}
	}
	m.status.Settle(m.statusState())
	m.relayout()
	return m
}

// Init starts what New prepared (the object's watch, the list's reader,
// the set's watch), and asks for what the browser completes and marks.
func (m App) Init() tea.Cmd {
	cmds := []tea.Cmd{m.life.initCmd}
	if m.cfg.Cluster != nil {
		cmds = append(cmds, effect.ListTypes(m.cfg.Cluster.Types), effect.ListDrafts(m.cfg.Cluster.Drafts, false))
	}
	return tea.Batch(cmds...)
}

// Session returns the session: for tests, and for kedit to store the
// latest draft once the app has ended.
func (m App) Session() *model.Session { return m.sess }

// Terminated returns the signal that ended the app, nil when the user
// quit.
func (m App) Terminated() os.Signal { return m.life.terminating }

// Update handles a message and lays the screen out again.
func (m App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	m.frame.pasting = ok && k.Paste && m.screen == screenEditor
	m, cmd := m.update(msg)
	m.tourUpdate()
	m.status.Settle(m.statusState())
	if warm := m.warmDraftText(); warm != nil {
		cmd = tea.Batch(cmd, warm)
	}
	if find := m.findSourceOnce(); find != nil {
		cmd = tea.Batch(cmd, find)
	}
	m.relayout()
	if m.frame.pasting {
		cmd = tea.Batch(cmd, m.frame.cache.redraw())
	}
	if m.cfg.ExitAfterFirstFrame && !m.life.firstFrame && m.showsContent() {
		// The frame of this Update is drawn before the program ends.
		m.life.firstFrame = true
		return m, tea.Batch(cmd, tea.Quit)
	}
	return m, cmd
}

// update hands msg to whom it is for: the browser's own messages to the
// browser, whatever shows (the list stays live); a key to the active
// view; what a view asked for, and the outcomes of commands, to the app;
// the rest to the editor and the status bar, whose background results
// they are.
func (m App) update(msg tea.Msg) (App, tea.Cmd) {
	if m.browser.Handles(msg) {
		var cmd tea.Cmd
		m.browser, cmd = m.browser.Update(msg)
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.frame.width, m.frame.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyMsg:
		return m.key(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	case SignalMsg:
		return m.signalled(msg)
	case redrawMsg:
		m.frame.cache.redrawing = false
		return m, nil
	}
	// The set's outcomes come before the object's: an outcome of an object
	// of the set not shown is its own.
	for _, act := range [...]func(App, tea.Msg) (App, tea.Cmd, bool){App.intent, App.setOutcome, App.objectOutcome, App.browserOutcome} {
		if next, cmd, ok := act(m, msg); ok {
			return next, cmd
		}
	}
	// The editor's own background results (its gutter's diff, its
	// pauses) are of types it keeps to itself, and drops when they are
	// another opening's.
	var cmd, ecmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	m.editor, ecmd = m.editor.Update(msg)
	return m, tea.Batch(cmd, ecmd)
}

// signalled ends the app on a signal, keeping what the in-app editor
// holds as the draft.
func (m App) signalled(msg SignalMsg) (App, tea.Cmd) {
	m.life.terminating = msg.Signal
	cmd := m.takeEditorText()
	if m.life.editorOpen {
		// $EDITOR has the terminal: what it writes is the draft, so wait
		// for it to return.
		return m, cmd
	}
	return m, tea.Batch(cmd, tea.Quit)
}
