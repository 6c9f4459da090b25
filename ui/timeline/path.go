package timeline

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

// Following a field: / then a path (.data.foo) and enter shows the field's
// value in each version in a column of its own, so that one sees foo go
// "1" → "2" → "mine"; esc stops. The values of versions only the audit log
// holds the view reads from the log's objects; those of the versions kedit
// saw the app hands it (Content.PathValues), since the session keeps their
// objects.

// FollowPathMsg asks for the value of the path the timeline follows
// (Model.Path) in each version kedit saw, in Content.PathValues: sent
// when / then enter starts following a path, and when esc stops.
type FollowPathMsg struct{}

// pathInput is the path being typed after /, and the path followed.
type pathInput struct {
	typing bool
	text   string
	path   history.Path
	// live are the followed path's values in the versions kedit saw, by
	// their entry's ID (Content.PathValues).
	live map[int]history.PathValue
}

// Path is the path whose value the timeline shows in each version; the
// zero Path when it follows none.
func (m Model) Path() history.Path { return m.pathInput.path }

// Typing reports whether a path is being typed after /: every key but
// ctrl+c is text then.
func (m Model) Typing() bool { return m.pathInput.typing }

// pathKey handles a key while the path is typed: enter follows it (an
// empty one stops following), esc leaves the path followed as it was.
func (m Model) pathKey(k tea.KeyMsg) (Model, tea.Cmd) {
	p := &m.pathInput
	switch {
	case key.Matches(k, m.keys.Back):
		p.typing = false
	case key.Matches(k, m.keys.Diff):
		if strings.TrimSpace(p.text) == "" {
			p.typing = false
			return m.stopFollowing()
		}
		path, err := history.ParsePath(p.text)
		if err != nil {
			return m, common.Emit(common.SayMsg{Text: common.ErrorText(err)})
		}
		p.typing, p.path = false, path
		m.fillRows()
		return m, common.Emit(FollowPathMsg{})
	default:
		switch k.Type {
		case tea.KeyRunes, tea.KeySpace:
			p.text += string(k.Runes)
		case tea.KeyBackspace:
			if r := []rune(p.text); len(r) > 0 {
				p.text = string(r[:len(r)-1])
			}
		case tea.KeyCtrlU:
			p.text = ""
		}
	}
	return m, nil
}

// stopFollowing drops the path followed.
func (m Model) stopFollowing() (Model, tea.Cmd) {
	m.pathInput.path, m.pathInput.live = history.Path{}, nil
	m.fillRows()
	return m, common.Emit(FollowPathMsg{})
}

// pathValue is the followed path's value in row r of rows (history.Rows):
// from the app for a version kedit saw, from the log's object for one
// only the log holds.
func (m Model) pathValue(r history.Row) escape.Text {
	switch {
	case r.Entry != nil:
		if v, ok := m.pathInput.live[r.Entry.ID]; ok {
			return v.Text()
		}
		return "…" // the app has not said yet
	case r.Version >= 0 && m.h != nil:
		return m.h.PathValueOf(r.Version, m.pathInput.path).Text()
	}
	return ""
}

// maxValueWidth bounds the value column: the changed fields keep room.
const maxValueWidth = 40

// valueWidth is the value column's width: 0 when no path is followed.
func (m Model) valueWidth() int {
	if m.pathInput.path.IsZero() {
		return 0
	}
	w := ansi.StringWidth(string(m.pathHeader()))
	for _, r := range m.rows {
		w = max(w, ansi.StringWidth(string(r.value)))
	}
	return min(w, maxValueWidth)
}

// pathHeader is the value column's title: the path as typed, escaped.
func (m Model) pathHeader() escape.Text { return escape.Safe(m.pathInput.path.String()) }

// pathLine is the line under the title while a path is typed.
func (m Model) pathLine() string {
	text := "follow the value of: " + escape.String(m.pathInput.text) + "█"
	hint := "  (.data.foo, .data[\"nginx.conf\"]; enter follows it, esc cancels)"
	return m.styles.Title.Render(ansi.Truncate(text, m.width, "…")) + m.styles.Muted.Render(ansi.Truncate(hint, max(0, m.width-ansi.StringWidth(text)), "…"))
}
