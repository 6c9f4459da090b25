package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/diff"
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

// handle hands ev to the session, turns its effects into commands and
// brings the views up to date.
func (m *App) handle(ev model.Event) tea.Cmd {
	before := m.sess.State()
	state, effects, err := m.sess.Handle(ev)
	var cmds []tea.Cmd
	for _, eff := range effects {
		if r, ok := eff.(model.RetrySave); ok {
			m.status.Error(failureText(m.sess.Failure()) + fmt.Sprintf("; next try in %s", r.Delay.Round(time.Second)))
			cmds = append(cmds, retryCmd(r.Delay))
			continue
		}
		if m.cfg.Runner != nil {
			cmds = append(cmds, performCmd(m.ctx, m.cfg.Runner, eff))
		}
	}
	m.refresh()
	// Even a refused event can move the session: merged text edited by
	// hand with a block left in ends the rebase as a draft that cannot be
	// saved yet.
	cmds = append(cmds, m.moved(before, state, ev))
	if err != nil {
		m.refused(ev, err)
	}
	// In order: a draft's write must not overtake its deletion after a save.
	return tea.Sequence(cmds...)
}

// refused reports an intent the session did not take.
func (m *App) refused(ev model.Event, err error) {
	var de *model.DraftError
	switch {
	case errors.As(err, &de):
		// The text is kept (and stored) even though it cannot be saved.
		m.status.Error("the draft is kept but cannot be saved: " + errorText(err))
	case errors.Is(err, model.ErrUpToDate):
		m.status.Info("the draft is already based on the latest version")
	case errors.Is(err, model.ErrNoDraft):
		m.status.Info("there is no draft: e edits one")
	default:
		m.status.Error(errorText(err))
	}
}

// moved reacts to the session's state change: the spinner, the outcome in
// the status bar, and which screen shows.
func (m *App) moved(before, state model.State, ev model.Event) tea.Cmd {
	var cmd tea.Cmd
	if m.screen == screenEditor {
		// A watch event while typing: the editor stays, and the banner
		// waits for the user to leave it.
		return nil
	}
	if state == model.StateSaving {
		cmd = m.status.SetBusy("saving")
		m.status.Info("")
	} else {
		m.status.SetBusy("")
	}
	switch state {
	case model.StateSaved:
		if _, ok := ev.(model.Saved); ok {
			text := "saved rv " + kube.EscapeControl(m.sess.Base().ResourceVersion)
			if m.autoMerged != "" {
				text += " (" + m.autoMerged + ")"
				m.autoMerged = ""
			}
			m.status.OK(text)
		}
		m.screen = screenObject
	case model.StateFailed:
		m.autoMerged = ""
		// A retryable failure already said when the next try is.
		if f := m.sess.Failure(); f != nil && !f.Kind.Retryable() {
			m.status.Error(failureText(f))
		}
		m.screen = screenObject
	case model.StateRebasing, model.StateResolving:
		if before != model.StateRebasing && before != model.StateResolving {
			m.screen = screenConflict
		}
		if r := m.sess.Rebase(); m.cfg.AutoRebase && before == model.StateSaving && state == model.StateRebasing &&
			r != nil && r.Merge != nil && len(r.Merge.Conflicts) == 0 {
			// --auto-rebase: a clean rebase after a conflict goes back at
			// once, and the status bar still says what was merged.
			m.autoMerged = "auto-rebased onto rv " + kube.EscapeControl(r.Theirs.ResourceVersion) + ", merged: " + changeList(r.Merge)
			next := m.handle(model.Resubmit{})
			m.status.Info(m.autoMerged)
			return tea.Batch(cmd, next)
		}
	case model.StateViewing, model.StateEditing:
		m.screen = screenObject
		m.autoMerged = ""
	}
	return cmd
}

// changeList names a merge's changes for the status bar.
func changeList(mg *diff.ObjectMerge) string {
	if len(mg.Changes) == 0 {
		return "nothing"
	}
	var paths []string
	for _, c := range mg.Changes {
		paths = append(paths, c.Path.String()+" ("+c.Side.String()+")")
	}
	return kube.EscapeControl(strings.Join(paths, ", "))
}

// refresh copies the session into the views.
func (m *App) refresh() {
	m.object.SetSession(m.sess)
	m.conflict.SetSession(m.sess)
}

// relayout gives each part of the screen its height.
func (m *App) relayout() {
	m.help.Width = m.width
	m.status.SetSize(m.width, 1)
	h := m.height - lipgloss.Height(m.helpView()) - lipgloss.Height(m.bottomLine())
	m.object.SetSize(m.width, h)
	m.conflict.SetSize(m.width, h)
	m.editor.SetSize(m.width, h)
}

// key handles a key press: a pending question first, then the keys of
// every screen, then the screen's own.
func (m App) key(msg tea.KeyMsg) (App, tea.Cmd) {
	if key.Matches(msg, m.keys.ForceQuit) {
		return m, tea.Quit
	}
	if m.confirm != confirmNone {
		return m.answer(msg)
	}
	if m.screen == screenEditor {
		// Every other key is typed into the draft, q and ? included.
		return m.editorKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		return m, nil
	case key.Matches(msg, m.keys.Quit):
		if m.sess.Draft() != nil {
			m.confirm = confirmQuit
			return m, nil
		}
		return m, tea.Quit
	}
	if m.screen == screenConflict {
		return m.conflictKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Edit):
		text, err := m.sess.DraftText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		return m, editCmd(text, false)
	case key.Matches(msg, m.keys.EditInApp):
		text, err := m.sess.DraftText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		if kube.EscapeControl(text) != text {
			// The editor would draw them raw; $EDITOR is the user's choice.
			m.status.Error("the draft holds control characters: e edits it in $EDITOR")
			return m, nil
		}
		m.screen = screenEditor
		return m, m.editor.Open(text)
	case key.Matches(msg, m.keys.Save):
		if f := m.sess.Failure(); f != nil && f.Kind == model.ErrorNotFound {
			// Saving over a deleted object can only create it again.
			return m, m.handle(model.Recreate{})
		}
		return m, m.handle(model.SaveRequested{})
	case key.Matches(msg, m.keys.Rebase):
		cmd := m.handle(model.RebaseRequested{})
		if m.sess.Rebase() != nil {
			// Also when a rebase was already under way: r shows it again.
			m.screen = screenConflict
		}
		return m, cmd
	case key.Matches(msg, m.keys.Discard):
		if m.sess.Draft() == nil {
			m.status.Info("there is no draft to discard")
			return m, nil
		}
		m.confirm = confirmDiscard
		return m, nil
	case key.Matches(msg, m.keys.Conflicts):
		if m.sess.Rebase() != nil {
			m.screen = screenConflict
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.object, cmd = m.object.Update(msg)
	return m, cmd
}

// editorKey handles the in-app editor's keys: esc leaves, keeping what was
// typed as the draft; ctrl+s keeps it and saves.
func (m App) editorKey(msg tea.KeyMsg) (App, tea.Cmd) {
	leave := key.Matches(msg, m.keys.EditorLeave)
	save := key.Matches(msg, m.keys.EditorSave)
	if !leave && !save {
		var cmd tea.Cmd
		m.editor, cmd = m.editor.Update(msg)
		return m, cmd
	}
	m.screen = screenObject
	var cmds []tea.Cmd
	if m.editor.Changed() {
		cmds = append(cmds, m.handle(model.DraftEdited{Text: m.editor.Text()}))
		if d := m.sess.Draft(); d != nil && d.Err != nil {
			// handle has said why; a draft that does not parse is not sent.
			return m, tea.Batch(cmds...)
		}
	}
	if save {
		cmds = append(cmds, m.handle(model.SaveRequested{}))
	}
	return m, tea.Batch(cmds...)
}

// conflictKey handles the conflict view's keys that act on the session.
func (m App) conflictKey(msg tea.KeyMsg) (App, tea.Cmd) {
	resolve := func(c diff.Choice) tea.Cmd {
		if len(m.sess.Conflicts()) == 0 {
			m.status.Info("nothing to resolve: 0 conflicts")
			return nil
		}
		return m.handle(model.Resolve{Index: m.conflict.Selected(), Resolution: diff.Resolution{Choice: c}})
	}
	switch {
	case key.Matches(msg, m.keys.TakeMine):
		return m, resolve(diff.TakeMine)
	case key.Matches(msg, m.keys.TakeTheirs):
		return m, resolve(diff.TakeTheirs)
	case key.Matches(msg, m.keys.TakeBase):
		return m, resolve(diff.TakeBase)
	case key.Matches(msg, m.keys.AllMine):
		return m, m.handle(model.ResolveAll{Choice: diff.TakeMine})
	case key.Matches(msg, m.keys.AllTheirs):
		return m, m.handle(model.ResolveAll{Choice: diff.TakeTheirs})
	case key.Matches(msg, m.keys.Save):
		return m, m.handle(model.Resubmit{})
	case key.Matches(msg, m.keys.Edit):
		text, err := m.sess.MergedText()
		if err != nil {
			m.status.Error(errorText(err))
			return m, nil
		}
		return m, editCmd(text, true)
	case key.Matches(msg, m.keys.Back):
		// Back to the draft, unchanged: the rebase and its resolutions
		// are dropped; r (or a save that conflicts) starts a new one.
		cmd := m.handle(model.AbandonRebase{})
		m.screen = screenObject
		m.status.Info("back to the draft, unchanged; r rebases again")
		return m, cmd
	}
	var cmd tea.Cmd
	m.conflict, cmd = m.conflict.Update(msg)
	return m, cmd
}

// answer takes y or n for the pending question.
func (m App) answer(msg tea.KeyMsg) (App, tea.Cmd) {
	yes := key.Matches(msg, m.keys.Yes)
	if !yes && !key.Matches(msg, m.keys.No) {
		return m, nil
	}
	c := m.confirm
	m.confirm = confirmNone
	switch c {
	case confirmQuit:
		if yes {
			return m, tea.Quit
		}
	case confirmDiscard:
		if yes {
			cmd := m.handle(model.DiscardDraft{})
			m.status.Info("draft discarded")
			return m, cmd
		}
		m.status.Info("the draft is kept")
	case confirmRecover:
		stored := m.stored
		m.stored = nil
		if yes {
			cmd := m.handle(model.RecoverDraft{Draft: *stored})
			if m.sess.Draft() != nil {
				m.status.Info("draft recovered")
			}
			return m, cmd
		}
		m.status.Info("stored draft discarded")
		if m.cfg.Runner != nil {
			return m, deleteStoredDraftCmd(m.ctx, m.cfg.Runner, m.sess.Ref())
		}
	}
	return m, nil
}

// editorFinished hands what $EDITOR left in the file to the session.
func (m App) editorFinished(msg editorFinishedMsg) (App, tea.Cmd) {
	switch {
	case msg.err != nil:
		m.status.Error("editor: " + errorText(msg.err) + " (the draft is unchanged)")
		return m, nil
	case msg.text == msg.original:
		m.status.Info("no change")
		return m, nil
	case msg.merged:
		return m, m.handle(model.MergedEdited{Text: msg.text})
	}
	cmd := m.handle(model.DraftEdited{Text: msg.text})
	return m, cmd
}

// question is the pending question's text.
func (m App) question() string {
	switch m.confirm {
	case confirmQuit:
		return "quit with an unsaved draft? It stays on disk and is offered next time. (y/n)"
	case confirmDiscard:
		return "discard the draft? (y/n)"
	case confirmRecover:
		return fmt.Sprintf("a draft of this object from rv %s is stored: recover it? (y/n)", kube.EscapeControl(m.stored.BaseResourceVersion))
	}
	return ""
}

// bottomLine is the status bar, or the pending question in its place.
func (m App) bottomLine() string {
	if q := m.question(); q != "" {
		return m.styles.Banner.Width(m.width).Render(q)
	}
	return m.status.View()
}

// helpView is the help line, or every key with ?.
func (m App) helpView() string {
	var v string
	switch m.screen {
	case screenConflict:
		v = m.help.View(m.conflict)
	case screenEditor:
		v = m.help.View(m.editor)
	default:
		v = m.help.View(m.object)
	}
	if m.help.ShowAll {
		return v
	}
	// help's own cut lets the last item through when its ellipsis does not fit.
	return ansi.Truncate(v, m.width, "…")
}

// View draws the screen.
func (m App) View() string {
	var body string
	switch m.screen {
	case screenConflict:
		body = m.conflict.View()
	case screenEditor:
		body = m.editor.View()
	default:
		body = m.object.View()
	}
	h := m.height - lipgloss.Height(m.helpView()) - lipgloss.Height(m.bottomLine())
	// Pad or cut the body so that the status bar and help stay at the bottom.
	lines := strings.Split(body, "\n")
	if len(lines) > h {
		lines = lines[:max(0, h)]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n") + "\n" + m.bottomLine() + "\n" + m.helpView()
}
