package preview

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/pager"
)

// Model shows the server's dry run of the draft (p): the draft's save
// sent with dryRun=All, and the diff between the draft and what the server
// would store (its defaults, mutating admission), or, when the server would
// refuse the save, why, each field cause under its line of the draft.
// Nothing is written; the header says so until esc.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int
	body   pager.Model

	baseRV escape.Text
	secret bool
	// tf is the session's text form.
	tf common.TextForm
	// waiting is set until the server answers.
	waiting bool
	// summary says what the body shows: the outcome in a line or two.
	summary []string
	// answered is the answer the body was rendered from, so that the
	// app's refresh after every event does not render it again; draft is
	// the draft it answers.
	answered *model.DryRunResult
	draft    *model.Draft
	// refusal is the app's words for why the server would refuse it.
	refusal escape.Text
}

// New returns a preview with nothing to show until SetContent.
func New(keys KeyMap, styles *common.Styles) Model {
	return Model{keys: keys, styles: styles, body: pager.New(keys.pager())}
}

// SetSize sets the view's size.
func (m *Model) SetSize(width, height int) {
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = width, height
	if m.answered != nil {
		m.render(*m.answered)
	}
	m.body.SetSize(width, height, len(m.header()))
}

// Content is what the preview draws of the session: the draft's base,
// and the server's answer to its dry run once it came.
type Content struct {
	// Secret is set for a Secret: its values are shown masked.
	Secret bool
	// TextForm is the session's text form.
	TextForm common.TextForm
	// BaseRV is the draft's base's resourceVersion.
	BaseRV string
	// Answered is set once the server answered (Session.Preview): Answer
	// is its answer, and Draft the draft it answers.
	Answered bool
	Answer   model.DryRunResult
	Draft    *model.Draft
	// Refusal says why the server would refuse the save when Answer.Err
	// is set, in the status bar's words for a save that failed.
	Refusal escape.Text
}

// SetContent shows c's answer, once it came; the same answer again is not
// drawn anew.
func (m *Model) SetContent(c Content) {
	m.secret = c.Secret
	m.tf = c.TextForm
	m.baseRV = escape.Safe(c.BaseRV)
	p, ok := c.Answer, c.Answered
	if !ok {
		m.waiting, m.answered = true, nil
		m.summary = []string{m.styles.Muted.Render("waiting for the server's dry run ...")}
		m.body.SetContent("")
		return
	}
	if m.answered != nil && m.answered.Object == p.Object && m.answered.Err == p.Err {
		return
	}
	m.waiting = false
	m.answered = &p
	m.draft = c.Draft
	m.refusal = c.Refusal
	m.render(p)
}

// render fills the summary and the body from the answer p.
func (m *Model) render(p model.DryRunResult) {
	st := m.styles
	var text string
	if p.Err != nil {
		m.summary = wrapLines(st.Error, "the server would refuse the save: "+m.refusal, m.width)
		draft := ""
		if m.draft != nil {
			draft = m.draft.Text
			if m.secret && m.draft.Object != nil {
				draft, _ = model.RenderYAML(common.MaskSecret(m.draft.Object))
			}
		}
		text = common.AnnotateCauses(st, st.EscapedYAML(strings.TrimSuffix(draft, "\n")), model.CausesOf(p.Err))
	} else {
		var mine *unstructured.Unstructured
		if m.draft != nil {
			mine = m.draft.Object
		}
		hunks := common.DiffHunks(common.RenderObject(mine, false, m.tf), common.RenderObject(p.Object, false, m.tf), m.secret)
		if len(hunks) == 0 {
			m.summary = wrapLines(st.OK, "the server would store the draft as it is", m.width)
			text = ""
		} else {
			m.summary = wrapLines(st.Muted, "- the draft, + what the server would store instead (its defaults, admission)", m.width)
			text, _ = common.HunkText(st, hunks)
		}
	}
	if m.secret {
		m.summary = append(m.summary, wrapLines(st.Muted, "a Secret: its values are shown as "+common.SecretMask, m.width)...)
	}
	m.body.SetSize(m.width, m.height, len(m.header()))
	m.body.SetContent(strings.TrimSuffix(text, "\n"))
	m.body.GotoTop()
}

// wrapLines wraps text to width and styles each line.
func wrapLines(st lipgloss.Style, text escape.Text, width int) []string {
	var out []string
	for _, l := range strings.Split(ansi.Wordwrap(string(text), width, ""), "\n") {
		out = append(out, st.Render(ansi.Truncate(l, width, "…")))
	}
	return out
}

// header is the title and the summary above the body.
func (m Model) header() []string {
	title := "preview (nothing saved): the server's dry run of the draft's save, base rv " + m.baseRV
	return append([]string{m.styles.Title.Render(ansi.Truncate(string(title), m.width, "…"))}, m.summary...)
}

// CloseMsg asks to go back to the object view (esc).
type CloseMsg struct{}

// Update scrolls the body; closing and the keys of every view come back
// as intents.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if in := common.FirstIntent(k, []common.KeyIntent{{Keys: m.keys.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: m.keys.Help, Intent: common.HelpMsg{}},
			{Keys: m.keys.Quit, Intent: common.QuitRequestedMsg{}}, {Keys: m.keys.Close, Intent: CloseMsg{}}}); in != nil {
			return m, common.Emit(in)
		}
	}
	var cmd tea.Cmd
	m.body, cmd = m.body.Update(msg)
	return m, cmd
}

// View draws the header and the body.
func (m Model) View() string {
	return strings.Join(m.header(), "\n") + "\n" + m.body.View()
}

// ShortHelp is the preview's keys for the help line.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Close, k.Up, k.Down, k.PageDown, k.Help, k.Quit}
}

// FullHelp is every key of the preview.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{{k.Close, k.Help, k.Quit, k.ForceQuit}, {k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End}}
}
