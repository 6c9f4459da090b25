package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// PreviewView shows the server's dry run of the draft (p): the draft's save
// sent with dryRun=All, and the diff between the draft and what the server
// would store (its defaults, mutating admission), or, when the server would
// refuse the save, why, each field cause under its line of the draft.
// Nothing is written; the header says so until esc.
type PreviewView struct {
	keys   PreviewKeyMap
	styles *common.Styles
	width  int
	height int
	body   viewport.Model

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
}

// NewPreviewView returns a preview with nothing to show until SetSession.
func NewPreviewView(keys PreviewKeyMap, styles *common.Styles) PreviewView {
	vp := viewport.New(0, 0)
	vp.KeyMap = keys.viewport()
	vp.MouseWheelEnabled = true
	return PreviewView{keys: keys, styles: styles, body: vp}
}

// SetSize sets the view's size.
func (m *PreviewView) SetSize(width, height int) {
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = width, height
	if m.answered != nil {
		m.render(*m.answered)
	}
	m.body.Width, m.body.Height = width, max(1, height-len(m.header()))
}

// SetSession copies the dry run's answer from the session, once it came.
func (m *PreviewView) SetSession(s *model.Session) {
	m.secret = s.Ref().IsSecret()
	m.tf = common.TextFormOf(s)
	m.baseRV = escape.Safe(s.Base().ResourceVersion)
	p, ok := s.Preview()
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
	m.draft = s.Draft()
	m.render(p)
}

// render fills the summary and the body from the answer p.
func (m *PreviewView) render(p model.DryRunResult) {
	st := m.styles
	var text string
	if p.Err != nil {
		kind := model.KindOf(p.Err)
		m.summary = wrapLines(st.Error, "the server would refuse the save: "+refusalText(kind, p.Err), m.width)
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
		hunks := diffHunks(common.RenderObject(mine, false, m.tf), common.RenderObject(p.Object, false, m.tf), m.secret)
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
	m.body.Width, m.body.Height = m.width, max(1, m.height-len(m.header()))
	m.body.SetContent(strings.TrimSuffix(text, "\n"))
	m.body.GotoTop()
}

// refusalText says why the server would refuse the save, in the status
// bar's words for a save that failed.
func refusalText(kind model.ErrorKind, err error) escape.Text {
	switch kind {
	case model.ErrorConflict:
		return "the object changed on the server since the draft's base (a save would conflict; r rebases)"
	case model.ErrorInvalid:
		return "invalid (422): each cause is under its line"
	}
	f := &model.Failure{Kind: kind, Err: err}
	if retrying(f) {
		return retryText(f, 0)
	}
	return failureWhy(f)
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
func (m PreviewView) header() []string {
	title := "preview (nothing saved): the server's dry run of the draft's save, base rv " + m.baseRV
	return append([]string{m.styles.Title.Render(ansi.Truncate(string(title), m.width, "…"))}, m.summary...)
}

// ClosePreviewMsg asks to go back to the object view (esc).
type ClosePreviewMsg struct{}

// Update scrolls the body; closing and the keys of every view come back
// as intents.
func (m PreviewView) Update(msg tea.Msg) (PreviewView, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if in := firstIntent(k, []keyIntent{{m.keys.ForceQuit, common.ForceQuitMsg{}}, {m.keys.Help, common.HelpMsg{}},
			{m.keys.Quit, common.QuitRequestedMsg{}}, {m.keys.Close, ClosePreviewMsg{}}}); in != nil {
			return m, common.Emit(in)
		}
	}
	var cmd tea.Cmd
	m.body, cmd = scrollBody(m.body, msg, m.keys.Home, m.keys.End)
	return m, cmd
}

// View draws the header and the body.
func (m PreviewView) View() string {
	return strings.Join(m.header(), "\n") + "\n" + m.body.View()
}

// ShortHelp is the preview's keys for the help line.
func (m PreviewView) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Close, k.Up, k.Down, k.PageDown, k.Help, k.Quit}
}

// FullHelp is every key of the preview.
func (m PreviewView) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{{k.Close, k.Help, k.Quit, k.ForceQuit}, {k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End}}
}

// scrollBody is common.ScrollBody.
func scrollBody(body viewport.Model, msg tea.Msg, home, end key.Binding) (viewport.Model, tea.Cmd) {
	return common.ScrollBody(body, msg, home, end)
}
