package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// wideWidth is the narrowest terminal that shows base, theirs and mine side
// by side; below it they are stacked.
const wideWidth = 120

// conflictRow is one conflict as the list shows it.
type conflictRow struct {
	path       string
	manager    string
	resolution diff.Choice
	base       string
	theirs     string
	mine       string
	// from is the first colliding line of a multi-line value in each
	// column (base, theirs, mine): the columns start there, so that a long
	// config file shows its conflict rather than its first lines.
	from [3]int
}

// contextLines is how many lines the columns show above a colliding hunk
// when there is room.
const contextLines = 2

// ConflictView is the heart of kedit: a rebase's conflicts, base, theirs and
// mine of the selected one, and the changes merged without conflict. It shows
// a clean rebase too (0 conflicts), so the user sees what is merged before
// resubmitting.
type ConflictView struct {
	keys   KeyMap
	styles *Styles
	width  int
	height int

	selected int
	// flipped swaps the layout the width chose (v).
	flipped bool

	baseRV, theirsRV string
	waiting          bool
	rows             []conflictRow
	merged           []string
	open             int
}

// NewConflictView returns a conflict view with nothing to show until SetSession.
func NewConflictView(keys KeyMap, styles *Styles) ConflictView {
	return ConflictView{keys: keys, styles: styles}
}

// SetSize sets the view's size; the layout follows the width unless v flipped it.
func (m *ConflictView) SetSize(width, height int) { m.width, m.height = width, height }

// SetSession copies the rebase from the session, keeping the selection.
func (m *ConflictView) SetSession(s *model.Session) {
	r := s.Rebase()
	m.rows, m.merged, m.open = nil, nil, s.OpenConflicts()
	if r == nil {
		return
	}
	// Escaped once here: the columns' titles use them too.
	m.baseRV = kube.EscapeControl(r.Base.GetResourceVersion())
	m.theirsRV = kube.EscapeControl(r.Theirs.ResourceVersion)
	m.waiting = s.State() == model.StateWaitingTheirs
	resolutions := s.Resolutions()
	for i, c := range s.Conflicts() {
		row := conflictRow{
			path:   c.Path.String(),
			base:   renderValue(c.Base),
			theirs: renderValue(c.Theirs),
			mine:   renderValue(c.Mine),
		}
		if r.Theirs.Object != nil {
			row.manager = model.Writer(r.Theirs.Object, []model.FieldChange{{Path: row.path}}).Manager
		}
		if i < len(resolutions) {
			row.resolution = resolutions[i].Choice
		}
		for _, h := range c.Hunks {
			if h.Conflict {
				row.from = [3]int{h.Base.Start, h.Theirs.Start, h.Mine.Start}
				break
			}
		}
		m.rows = append(m.rows, row)
	}
	if r.Merge != nil {
		for _, c := range r.Merge.Changes {
			m.merged = append(m.merged, fmt.Sprintf("%s (%s, %s)", c.Path.String(), c.Side, c.Kind))
		}
	}
	m.selected = min(m.selected, max(0, len(m.rows)-1))
}

// Selected returns the index of the selected conflict in Session.Conflicts.
func (m ConflictView) Selected() int { return m.selected }

// Wide reports whether the three versions are drawn side by side.
func (m ConflictView) Wide() bool { return (m.width >= wideWidth) != m.flipped }

// Update moves the selection and switches the layout; the resolutions are
// the session's, so the app handles m, t, b, M, T and s.
func (m ConflictView) Update(msg tea.Msg) (ConflictView, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(km, m.keys.Next):
		if m.selected < len(m.rows)-1 {
			m.selected++
		}
	case key.Matches(km, m.keys.Prev):
		if m.selected > 0 {
			m.selected--
		}
	case key.Matches(km, m.keys.Layout):
		m.flipped = !m.flipped
	}
	return m, nil
}

// choiceText names a resolution in the list.
func choiceText(c diff.Choice) string {
	switch c {
	case diff.TakeMine:
		return "mine"
	case diff.TakeTheirs:
		return "theirs"
	case diff.TakeBase:
		return "base"
	case diff.TakeCustom:
		return "edited"
	}
	return "open"
}

// View draws the title, the conflict list, the merged changes and the
// selected conflict's three versions.
func (m ConflictView) View() string {
	st := m.styles
	title := fmt.Sprintf("conflict: base rv %s, theirs rv %s: %d conflicts, %d changes merged", m.baseRV, m.theirsRV, len(m.rows), len(m.merged))
	if len(m.rows) > 0 {
		title += fmt.Sprintf(" (%d open)", m.open)
	}
	if m.waiting {
		title = "conflict: base rv " + m.baseRV + ": reading theirs from the server ..."
	}
	lines := []string{st.Title.Render(ansi.Truncate(kube.EscapeControl(title), m.width, "…"))}

	// The list shows a window around the selection, so that a rebase with
	// many conflicts still leaves room for the columns.
	const maxRows = 6
	first := max(0, min(m.selected-maxRows/2, len(m.rows)-maxRows))
	for i := first; i < len(m.rows) && i < first+maxRows; i++ {
		r := m.rows[i]
		text := fmt.Sprintf("%-7s %s", choiceText(r.resolution), r.path)
		if r.manager != "" {
			text += "  theirs by " + r.manager
		}
		text = ansi.Truncate(kube.EscapeControl(text), m.width-2, "…")
		if i == m.selected {
			lines = append(lines, st.Selected.Render("> "+text))
		} else {
			lines = append(lines, "  "+text)
		}
	}
	merged := "merged without conflict: none"
	if len(m.merged) > 0 {
		merged = "merged without conflict: " + strings.Join(m.merged, ", ")
	}
	lines = append(lines, ansi.Truncate(st.Muted.Render(kube.EscapeControl(merged)), m.width, "…"))
	lines = append(lines, "")

	avail := m.height - len(lines)
	if len(m.rows) == 0 {
		if !m.waiting {
			lines = append(lines, ansi.Wordwrap("clean rebase: 0 conflicts. s resubmits the merged draft, esc goes back to the draft.", m.width, ""))
		}
		return strings.Join(lines, "\n")
	}
	r := m.rows[m.selected]
	cols := []struct{ title, text string }{
		{"base (rv " + m.baseRV + ")", r.base},
		{"theirs (rv " + m.theirsRV + ")", r.theirs},
		{"mine", r.mine},
	}
	baseLines := map[string]bool{}
	for _, l := range strings.Split(kube.EscapeControl(r.base), "\n") {
		baseLines[l] = true
	}
	render := func(i int, width, height int) string {
		out := []string{st.ColumnTitle.Render(ansi.Truncate(cols[i].title, width, "…"))}
		all := strings.Split(kube.EscapeControl(cols[i].text), "\n")
		// Title, "lines above" and the closing "…" take three rows; the
		// colliding line needs one more, context gets what is left.
		context := min(contextLines, max(0, height-4))
		if skip := min(max(0, r.from[i]-context), len(all)); skip > 0 {
			out = append(out, st.Muted.Render(fmt.Sprintf("… %d lines above", skip)))
			all = all[skip:]
		}
		for _, l := range all {
			if len(out) >= height {
				out = append(out[:height-1], st.Muted.Render("…"))
				break
			}
			changed := i > 0 && !baseLines[l]
			l = ansi.Truncate(l, width, "…")
			if changed {
				l = st.Changed.Render(l)
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	if m.Wide() {
		w := (m.width - 2) / 3
		var parts []string
		for i := range cols {
			parts = append(parts, st.Column.Width(w).Render(render(i, w-1, max(2, avail))))
		}
		lines = append(lines, lipgloss.JoinHorizontal(lipgloss.Top, parts...))
	} else {
		h := max(2, avail/3-1)
		for i := range cols {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, render(i, m.width, h))
		}
	}
	return strings.Join(lines, "\n")
}

// ShortHelp is the conflict view's keys for the help line.
func (m ConflictView) ShortHelp() []key.Binding {
	k := m.keys
	return []key.Binding{k.Next, k.TakeMine, k.TakeTheirs, k.TakeBase, k.Save, k.Back, k.Help}
}

// FullHelp is every key of the conflict view, in groups.
func (m ConflictView) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Next, k.Prev, k.Layout},
		{k.TakeMine, k.TakeTheirs, k.TakeBase, k.AllMine, k.AllTheirs},
		{k.Edit, k.Save, k.Back, k.Help, k.Quit},
	}
}
