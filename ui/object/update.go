package object

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// The object view's keys: what the body shows is the view's own; the
// draft, the other views and leaving are asked of the app.

// The object view's intents (ui/common has those views share: help,
// quitting, editing and what the status bar says).
type (
	// SaveMsg asks to save the draft (s), or with AsUpdate to send the
	// save as an update (u) after server-side apply could not remove a
	// field another manager owns.
	SaveMsg struct{ AsUpdate bool }
	// RebaseMsg asks to rebase the draft onto the object as it is now (r).
	RebaseMsg struct{}
	// DiscardMsg asks to discard the draft (x), after a confirmation.
	DiscardMsg struct{}
	// ShowConflictsMsg asks for the conflict view of the rebase under way
	// (c).
	ShowConflictsMsg struct{}
	// ShowTimelineMsg asks for the timeline of the object's versions (t).
	ShowTimelineMsg struct{}
	// PreviewMsg asks for the server's dry run of the draft's save (p).
	PreviewMsg struct{}
	// DemoWriteMsg asks kedit demo's second writer to write at once (w).
	DemoWriteMsg struct{}
	// DemoKubectlEditMsg asks kedit demo to play a colleague's kubectl
	// edit that loses a value saved meanwhile (W).
	DemoKubectlEditMsg struct{}
	// DemoRaceMsg asks kedit demo to race ten conditional patches, the
	// same kedit set --if, on the field the user edits (A).
	DemoRaceMsg struct{}
	// BackToListMsg asks to go back to the browser (esc), when the view
	// has a list to go back to (SetBackToList).
	BackToListMsg struct{}
	// DocsMsg asks for the docs of the field on blame's cursor line (K);
	// Path names it from the object's root.
	DocsMsg struct{ Path []string }
)

// SetBackToList says whether esc goes back to a list: kedit was started
// on one, or on an object whose type it can list.
func (m *Model) SetBackToList(ok bool) { m.backToList = ok }

// SetDemo says whether kedit demo's writer is there for w and W.
func (m *Model) SetDemo(ok bool) { m.demo = ok }

// SetTour names kedit demo --tour's writer, whose writes the tour
// prepares: a fight with it is said to be the tour's; "" without the tour.
func (m *Model) SetTour(writer string) { m.tourWriter = writer }

// Update handles a key or a mouse event. Scrolling, the blame gutter and
// what the body shows (f, d, R) are the view's own; what needs the session
// or another view comes back as an intent. While blame shows, the movement
// keys move its cursor line and the status bar names that line's owners;
// a key that acts on the draft (e, i, s, u, r, x, c, d, and esc back to
// the list) leaves blame and acts, as it does without it: every key the
// footer names works in every mode.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		m.body, cmd = m.body.Update(msg)
		if m.blame.on {
			m.keepCursorInView()
		}
		return m, cmd
	}
	if in := common.FirstIntent(k, m.anywhereIntents()); in != nil {
		return m, common.Emit(in)
	}
	if key.Matches(k, m.keys.Suspend) {
		// Bubble Tea gives the terminal back and takes it again on fg;
		// the drafts are on disk as they are.
		return m, tea.Suspend
	}
	if key.Matches(k, m.keys.Blame) {
		m.ToggleBlame()
		return m, common.Emit(common.SayMsg{Text: m.BlameStatus()})
	}
	if m.blame.on {
		return m.blameUpdate(k)
	}
	if in := common.FirstIntent(k, m.draftIntents()); in != nil {
		return m, common.Emit(in)
	}
	return m.ownKey(k), nil
}

// blameUpdate handles a key while blame shows. Blame shows the live
// object, not the draft: a key that acts on the draft leaves blame first,
// so that the user sees what it did (d shows the draft's diff).
func (m Model) blameUpdate(k tea.KeyMsg) (Model, tea.Cmd) {
	if in := common.FirstIntent(k, m.draftIntents()); in != nil {
		m.ToggleBlame()
		return m, common.Emit(in)
	}
	if m.shown.draft != nil && key.Matches(k, m.keys.Diff) {
		m.blame.on, m.showDiff = false, true
		m.layout()
		return m, common.Emit(common.SayMsg{})
	}
	if key.Matches(k, m.keys.Docs) {
		return m, common.Emit(DocsMsg{Path: m.blame.fieldPath()})
	}
	m = m.ownKey(k)
	return m, common.Emit(common.SayMsg{Text: m.BlameStatus()})
}

// anywhereIntents are the keys that ask the app for something whatever
// the body shows, blame included.
func (m Model) anywhereIntents() []common.KeyIntent {
	k := m.keys
	return []common.KeyIntent{{Keys: k.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: k.Help, Intent: common.HelpMsg{}}, {Keys: k.Quit, Intent: common.QuitRequestedMsg{}},
		{Keys: k.Timeline, Intent: ShowTimelineMsg{}}, {Keys: k.Preview, Intent: PreviewMsg{}}, {Keys: k.DemoWrite, Intent: DemoWriteMsg{}},
		{Keys: k.DemoKubectlEdit, Intent: DemoKubectlEditMsg{}}, {Keys: k.DemoRace, Intent: DemoRaceMsg{}}}
}

// draftIntents are the keys that act on the draft, and esc back to the
// list.
func (m Model) draftIntents() []common.KeyIntent {
	k := m.keys
	intents := []common.KeyIntent{{Keys: k.Edit, Intent: common.EditMsg{}}, {Keys: k.EditInApp, Intent: common.EditMsg{InApp: true}}, {Keys: k.Save, Intent: SaveMsg{}},
		{Keys: k.SaveAsUpdate, Intent: SaveMsg{AsUpdate: true}}, {Keys: k.Rebase, Intent: RebaseMsg{}}, {Keys: k.Discard, Intent: DiscardMsg{}},
		{Keys: k.Conflicts, Intent: ShowConflictsMsg{}}}
	if m.backToList {
		intents = append([]common.KeyIntent{{Keys: k.BackToList, Intent: BackToListMsg{}}}, intents...)
	}
	return intents
}

// ownKey handles the view's own keys (f, R, d, n, N, home, end, sideways
// and the blame cursor), and scrolls with the others.
func (m Model) ownKey(msg tea.KeyMsg) Model {
	if m.sidewaysKey(msg) || m.blame.on && m.blameKey(msg) {
		return m
	}
	switch {
	case key.Matches(msg, m.keys.Fields):
		m.full = !m.full
		m.layout()
	case m.shown.secret && key.Matches(msg, m.keys.Reveal):
		m.revealed = !m.revealed
		m.layout()
	case key.Matches(msg, m.keys.Diff):
		if m.shown.draft != nil {
			m.showDiff = !m.showDiff
			m.layout()
		}
	case m.showDiff && key.Matches(msg, m.keys.NextHunk):
		m.nextHunk()
	case m.showDiff && key.Matches(msg, m.keys.PrevHunk):
		m.prevHunk()
	case key.Matches(msg, m.keys.Home):
		m.body.GotoTop()
	case key.Matches(msg, m.keys.End):
		m.body.GotoBottom()
	default:
		// The viewport answers a key with no command.
		m.body, _ = m.body.Update(msg)
		if m.blame.on {
			m.keepCursorInView()
		}
	}
	return m
}

// nextHunk scrolls the diff to the next hunk's first line.
func (m *Model) nextHunk() {
	for _, at := range m.hunkAt {
		if at > m.body.YOffset {
			m.body.SetYOffset(at)
			return
		}
	}
}

// prevHunk scrolls the diff to the previous hunk's first line.
func (m *Model) prevHunk() {
	for i := len(m.hunkAt) - 1; i >= 0; i-- {
		if m.hunkAt[i] < m.body.YOffset {
			m.body.SetYOffset(m.hunkAt[i])
			return
		}
	}
}

// ActsOnDraft reports whether k is a key that acts on the draft (or esc
// back to the list): one that leaves blame as it acts.
func (m Model) ActsOnDraft(k tea.KeyMsg) bool {
	return common.FirstIntent(k, m.draftIntents()) != nil
}
