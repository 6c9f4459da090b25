package conflict

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Drawing the conflict view: title, hint, list and the selected entry's
// versions.

// choiceText names a resolution in the list; for an apply's conflict,
// what it does.
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

// title is the view's first line: the object's name when the view was
// given one, then what the conflict is.
func (m Model) title() escape.Text {
	if m.lost != nil {
		return m.lost.title
	}
	if m.object != "" {
		return m.object + " · " + m.what()
	}
	return m.what()
}

// what says what the conflict is: its versions and its counts.
func (m Model) what() escape.Text {
	if m.waiting {
		return "conflict: base rv " + m.baseRV + ": reading theirs from the server ..."
	}
	merged := escape.Textf("%s merged", model.Count(len(m.merged), "change"))
	if len(m.rows) == 0 && !m.ownership {
		// Nothing collided: a clean rebase, not a conflict, whatever led
		// to it (a save's 409, or r).
		if m.createdAgain != "" {
			// First, as below.
			return "clean rebase: theirs is a new object (created again at rv " + m.createdAgain + "), base rv " + m.baseRV + ": " + merged
		}
		return "clean rebase: " + merged + " onto theirs rv " + m.theirsRV + " (base rv " + m.baseRV + ")"
	}
	counts := escape.Textf("%s, %s (%d open)", model.Count(len(m.rows), "conflict"), merged, m.open)
	if m.ownership {
		return "apply conflict at rv " + m.theirsRV + ": " + counts
	}
	if m.createdAgain != "" {
		// First, so that a narrow terminal cuts the counts rather than
		// this.
		return "conflict: theirs is a new object (created again at rv " + m.createdAgain + "), base rv " + m.baseRV + ": " + counts
	}
	return "conflict: base rv " + m.baseRV + ", theirs rv " + m.theirsRV + ": " + counts
}

// hint says what the keys do in an apply's conflict, and what s will do.
func (m Model) hint() escape.Text {
	if m.lost != nil {
		return m.lost.hint
	}
	if !m.ownership {
		return ""
	}
	if m.open > 0 {
		return "fields other managers own: m takes one (kedit forces it), t leaves it to its owner"
	}
	var taken, left []escape.Text
	for _, r := range m.rows {
		switch r.resolution {
		case diff.TakeMine:
			taken = append(taken, r.where+" from "+r.manager)
		case diff.TakeTheirs:
			left = append(left, r.where)
		}
	}
	var s escape.Text = "s applies"
	if len(taken) > 0 {
		s += " with force, taking " + escape.Join(taken, ", ")
	}
	if len(left) > 0 {
		if len(taken) > 0 {
			s += ", and"
		}
		s += " without " + escape.Join(left, ", ") + " (left to its owner)"
	}
	return s
}

// listLines are the list's lines, each with the entry it shows (-1 for a
// heading).
func (m Model) listLines() ([]escape.Text, []int) {
	var lines []escape.Text
	var at []int
	for i, r := range m.rows {
		text := escape.Textf("%-7s %s", choiceText(r.resolution), r.where)
		switch {
		case r.note != "":
			text += "  " + r.note
		case m.ownership:
			text += "  owned by " + r.manager
		case r.manager != "":
			text += "  theirs by " + r.manager
		}
		lines, at = append(lines, text), append(at, i)
	}
	if m.lost != nil {
		return lines, at
	}
	if len(m.merged) == 0 {
		return append(lines, "merged without conflict: none"), append(at, -1)
	}
	lines, at = append(lines, "merged without conflict:"), append(at, -1)
	for i, r := range m.merged {
		summary := r.summary
		if r.secret && !m.revealed {
			summary = common.SecretMask + " -> " + common.SecretMask
		}
		lines = append(lines, escape.Textf("%-7s %s  %s", r.side, r.where, summary))
		at = append(at, len(m.rows)+i)
	}
	return lines, at
}

// listHeight is how many lines the list may take: all it needs, up to a
// third of the view, so that the versions keep room.
func (m Model) listHeight(n int) int {
	return min(n, max(4, (m.height-2)/3))
}

// View draws the title, the list of conflicts and merged changes, and the
// selected entry's versions.
func (m Model) View() string {
	lines := m.topLines()
	if d := m.detail(m.height - len(lines)); d != "" {
		lines = append(lines, d)
	}
	return strings.Join(lines, "\n")
}

// topLines are the lines above the versions: the title, the list with its
// window kept on the selection (listWindow), and for a clean rebase what
// s does.
func (m Model) topLines() []string {
	st := m.styles
	lines := []string{st.Title.Render(ansi.Truncate(string(m.title()), m.width, "…"))}
	switch {
	case m.secret && m.revealed:
		lines = append(lines, st.Muted.Render(ansi.Truncate("a Secret: values shown (R hides)", m.width, "…")))
	case m.secret:
		lines = append(lines, st.Muted.Render(ansi.Truncate("a Secret: values hidden (R reveals)", m.width, "…")))
	}
	if h := m.hint(); h != "" {
		// Wrapped, not cut: it says what s will take from whom.
		for _, l := range strings.Split(ansi.Wrap(string(h), m.width, ""), "\n") {
			lines = append(lines, st.Muted.Render(ansi.Truncate(l, m.width, "…")))
		}
	}
	if m.waiting {
		return lines
	}
	lines = append(append(lines, m.listWindow()...), "")

	if len(m.rows) == 0 && m.lost == nil {
		lines = append(lines, strings.Split(ansi.Wordwrap("nothing collided: s resubmits the merged draft, esc goes back to the draft.", m.width, ""), "\n")...)
	}
	return lines
}

// listWindow draws the list in a window that keeps the selection in view;
// what is above or below it is counted, and reached by moving the
// selection.
func (m Model) listWindow() []string {
	st := m.styles
	all, at := m.listLines()
	a, b := m.window(at)
	var lines []string
	if a > 0 {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("  ↑ %d more", a)))
	}
	for i := a; i < b; i++ {
		text := string(all[i])
		switch {
		case at[i] < 0:
			lines = append(lines, st.Muted.Render(ansi.Truncate(text, m.width, "…")))
		case at[i] == m.selected:
			lines = append(lines, st.Selected.Render("> "+ansi.Truncate(text, m.width-2, "…")))
		default:
			lines = append(lines, "  "+ansi.Truncate(text, m.width-2, "…"))
		}
	}
	if b < len(all) {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("  ↓ %d more", len(all)-b)))
	}
	return lines
}

// window is the lines [a, b) of the list in view, of the lines showing
// the entries at: all of them when they fit, else h-2 lines around the
// selection and a line above and below that counts what is out of view
// (at either end that line shows one more of the list instead).
func (m Model) window(at []int) (a, b int) {
	n := len(at)
	h := m.listHeight(n)
	if n <= h {
		return 0, n
	}
	sel := 0
	for i, e := range at {
		if e == m.selected {
			sel = i
		}
	}
	inner := max(1, h-2)
	a = max(0, min(sel-inner/2, n-inner))
	b = a + inner
	if a == 0 {
		b++
	}
	if b >= n {
		b, a = n, n-(h-1)
	}
	return a, b
}

// sideTitle heads the version a merged change took.
func (m Model) sideTitle(r mergedRow) escape.Text {
	return map[diff.Side]escape.Text{diff.SideMine: "mine", diff.SideTheirs: "theirs (rv " + m.theirsRV + ")", diff.SideBoth: "mine and theirs"}[r.side]
}
