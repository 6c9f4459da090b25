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
	// err says why the path last entered is none, under the path typed,
	// until enter is pressed again: never on the status line, where it
	// would outlive the prompt.
	err  escape.Text
	path history.Path
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
		p.typing, p.err = false, ""
	case key.Matches(k, m.keys.Diff):
		if strings.TrimSpace(p.text) == "" {
			p.typing = false
			return m.stopFollowing()
		}
		path, err := history.ParsePath(p.text)
		if err != nil {
			p.err = common.ErrorText(err)
			return m, nil
		}
		p.typing, p.path, p.err = false, path, ""
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

// pathLines are the lines under the title while a path is typed: the
// path, with examples of this object's own fields, and why the path last
// entered is none; wrapped at words, never cut.
func (m Model) pathLines() []string {
	text := "follow the value of: " + escape.String(m.pathInput.text) + "█"
	hint := "(such as " + strings.Join(m.examplePaths(), ", ") + "; enter follows it, esc cancels)"
	var lines []string
	for i, l := range common.WrapWords(text+"  "+hint, m.width) {
		if i == 0 && strings.HasPrefix(l, text) {
			l = m.styles.Title.Render(text) + m.styles.Muted.Render(strings.TrimPrefix(l, text))
		} else {
			l = m.styles.Muted.Render(l)
		}
		lines = append(lines, l)
	}
	if m.pathInput.err != "" {
		for _, l := range common.WrapWords(string(m.pathInput.err), m.width) {
			lines = append(lines, m.styles.Error.Render(l))
		}
	}
	return lines
}

// examplePaths are two fields this object's versions changed, written as
// a path is typed (.data.foo), newest first: what the object has, not
// what some other object might; .metadata.name when its versions show
// none. Only paths of two keys are taken: a changed field's path names a
// key with a dot as if it were two keys.
func (m Model) examplePaths() []string {
	var out []string
	seen := map[string]bool{}
	for i := len(m.live) - 1; i >= 0 && len(out) < 2; i-- {
		for _, c := range m.live[i].Changes {
			if strings.Count(c.Path, ".") != 2 || strings.ContainsAny(c.Path, "[]\"") || seen[c.Path] || len(out) == 2 {
				continue
			}
			if _, err := history.ParsePath(c.Path); err == nil {
				seen[c.Path] = true
				out = append(out, escape.String(c.Path))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, ".metadata.name")
	}
	return out
}
