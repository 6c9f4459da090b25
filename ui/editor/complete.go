package editor

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
)

// Schema is what the editor asks of the object's schema while the user
// types: the names of the fields of the object at a path, and the values a
// field may take (an enum's, a boolean's), paths as common.FieldContext
// names them. The app hands it over (SetSchema); without one, completion
// offers nothing and says so.
type Schema interface {
	FieldNames(path []string) []string
	Values(path []string) []string
}

// DocsMsg asks for the docs of the field at the cursor (alt+k); Path
// names it from the object's root, empty for the object itself.
type DocsMsg struct{ Path []string }

// NoCompletionMsg says why ctrl+space offers nothing at the cursor: Why,
// or with NoSchema that the editor has no schema (the app says why: it is
// being read, or could not be).
type NoCompletionMsg struct {
	Why      string
	NoSchema bool
}

// completion is the list ctrl+space opened under the cursor's line: the
// candidates, the one selected, and how many bytes before the cursor the
// one taken replaces (what was typed of it).
type completion struct {
	items []string
	sel   int
	typed int
	// value: the items are a field's values, put as they are; else field
	// names, put with their colon.
	value bool
}

// maxShown is how many candidates the list shows at once.
const maxShown = 6

// SetSchema gives the editor the schema of the object it edits; nil for
// none.
func (m *Model) SetSchema(s Schema) { m.schema = s }

// candidates are what may go at the cursor: the field names its mapping
// does not have yet, or after `key: ` the field's values, each starting
// with what was typed of it.
func (m Model) candidates() completion {
	if m.schema == nil {
		return completion{}
	}
	cur := m.area.Cursor()
	c := common.FieldAt(m.area.Lines(), m.area.Line, cur.Line, cur.Col)
	var all []string
	typed := c.Typed
	if c.Value {
		all = m.schema.Values(c.Path())
		line := m.area.Line(cur.Line)
		colon := strings.Index(line, ":")
		typed = strings.TrimLeft(line[min(colon+1, cur.Col):cur.Col], " ")
	} else {
		for _, name := range m.schema.FieldNames(c.Parent) {
			if !slices.Contains(c.Present, name) {
				all = append(all, name)
			}
		}
	}
	out := completion{typed: len(typed), value: c.Value}
	for _, s := range all {
		if strings.HasPrefix(s, typed) && s != typed {
			out.items = append(out.items, s)
		}
	}
	return out
}

// take puts the selected candidate in place of what was typed of it.
func (m *Model) take(c completion) {
	s := c.items[c.sel]
	if !c.value {
		s += ": "
	}
	m.area.ReplaceBefore(c.typed, s)
}

// completeKey handles the keys of completion: ctrl+space opens the list
// (or takes the only candidate), tab takes the only candidate of what was
// typed, and while the list is open the arrows choose, enter and tab take
// and esc closes it. It reports whether k was completion's.
func (m *Model) completeKey(k tea.KeyMsg) (tea.Cmd, bool) {
	if c := m.completing; c != nil {
		switch {
		case k.Type == tea.KeyUp || k.Type == tea.KeyCtrlP:
			c.sel = (c.sel + len(c.items) - 1) % len(c.items)
			return nil, true
		case k.Type == tea.KeyDown || k.Type == tea.KeyCtrlN:
			c.sel = (c.sel + 1) % len(c.items)
			return nil, true
		case k.Type == tea.KeyEnter || k.Type == tea.KeyTab:
			m.completing = nil
			m.take(*c)
			return nil, true
		case k.Type == tea.KeyEsc:
			m.completing = nil
			return nil, true
		}
		m.completing = nil // any other key is the text's
	}
	switch {
	case key.Matches(k, m.keys.Complete):
		c := m.candidates()
		switch {
		case m.schema == nil:
			return common.Emit(NoCompletionMsg{NoSchema: true}), true
		case len(c.items) == 0:
			return common.Emit(NoCompletionMsg{Why: "nothing to complete here"}), true
		case len(c.items) == 1:
			m.take(c)
		default:
			m.completing = &c
		}
		return nil, true
	case key.Matches(k, m.keys.Docs):
		cur := m.area.Cursor()
		c := common.FieldAt(m.area.Lines(), m.area.Line, cur.Line, cur.Col)
		return common.Emit(DocsMsg{Path: c.Path()}), true
	case k.Type == tea.KeyTab && !m.area.Prompting():
		if c := m.candidates(); c.typed > 0 && len(c.items) == 1 {
			m.take(c)
			return nil, true
		}
	}
	return nil, false
}

// completionView draws the open list at the cursor: under its line (and
// the notes drawn under it) when it fits there, else above the line, else
// on the side with more room, as many candidates as fit around the
// selected one. It is never open unseen.
func (m Model) completionView(text string) string {
	c := m.completing
	if c == nil {
		return text
	}
	lines := strings.Split(text, "\n")
	row, notes := m.area.CursorRows()
	row = min(row, len(lines)-1)
	below, above := len(lines)-row-1-notes, row
	need := 1 + min(len(c.items), maxShown)
	var at, room int
	switch {
	case below >= need:
		at, room = row+1+notes, need
	case above >= need:
		at, room = row-need, need
	case below >= above && below > 0:
		at, room = row+1+notes, below
	case above > 0:
		at, room = 0, above
	default:
		// One row: the list is all that shows.
		at, room = 0, len(lines)
	}
	box := m.completionBox(c, room)
	copy(lines[at:], box)
	return strings.Join(lines, "\n")
}

// completionBox is the list in at most rows rows: its help line when
// there is room for it and a candidate, then the candidates around the
// selected one, marked.
func (m Model) completionBox(c *completion, rows int) []string {
	var box []string
	if rows >= 2 {
		box = append(box, m.styles.Muted.Render(ansi.Truncate("completion: ↑/↓ choose • enter or tab takes • esc closes", m.width, "…")))
	}
	shown := max(1, min(maxShown, rows-len(box)))
	first := max(0, min(c.sel-shown/2, len(c.items)-shown))
	for i, s := range c.items[first:min(len(c.items), first+shown)] {
		mark := "  "
		if first+i == c.sel {
			mark = "> "
		}
		row := ansi.Truncate(mark+s, m.width, "…")
		if first+i == c.sel {
			row = m.styles.Selected.Render(row)
		}
		box = append(box, row)
	}
	return box
}
