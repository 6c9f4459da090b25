package browser

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Drawing the browser: header, table, bottom line and help.

// View draws the header, the table (or the picker) and the bottom line.
func (m Model) View() string {
	lines := []string{m.header()}
	if m.mode == modePicker {
		lines = append(lines, m.prompt.picker.view(m.styles, m.width, m.height-2)...)
	} else {
		lines = append(lines, m.table()...)
	}
	strip := m.strip()
	h := max(m.height-1-len(strip), 1)
	for len(lines) < h {
		lines = append(lines, "")
	}
	lines = append(append(lines[:h], strip...), m.bottomLine())
	return strings.Join(lines, "\n")
}

// header is the first line: what is listed, and how the link stands.
func (m Model) header() string {
	st := m.styles
	if m.coll == nil {
		return ""
	}
	parts := []escape.Text{escape.Safe(m.coll.Resource)}
	switch {
	case m.coll.Namespaced && m.coll.AllNamespaces:
		parts = append(parts, "all namespaces")
	case m.coll.Namespaced:
		parts = append(parts, "namespace "+escape.Safe(m.coll.Namespace))
	}
	if m.coll.Context != "" {
		parts = append(parts, "context "+escape.Safe(m.coll.Context))
	}
	count := model.Count(len(m.all), "object")
	if m.filter != "" {
		count = fmt.Sprintf("%d of %s", len(m.shown), model.Count(len(m.all), "object"))
	}
	if !m.synced {
		count = "listing ..."
	}
	// As in the object view, the count and the connection state matter
	// most: on a narrow terminal the names give way.
	conn := string(m.connText())
	right := count + "  " + conn
	avail := max(m.width-ansi.StringWidth(right)-2, 1)
	left := ansi.Truncate(string(escape.Join(parts, "  ")), avail, "…")
	return ansi.Truncate(st.Header.Render(left+"  "+count)+"  "+st.Muted.Render(conn), m.width, "…")
}

// connText says how the link to the API server stands.
func (m Model) connText() escape.Text {
	if m.closed {
		return "stopped"
	}
	return m.conn.Text
}

// columns lays the table out for the width. NAME, NAMESPACE and BY want
// their longest value; when that does not fit they give up width in
// turns, so that at 80 columns a name, its namespace and who changed it
// all stay readable: NAME down to 24 first (most names are shorter; a
// manager cut, kubectl-clie…, could be any of kubectl's), then BY down to
// 13, NAMESPACE down to 10, NAME down to 16, and then whatever is left. A
// row cut is said whole in the strip under the rows (strip.go).
func (m Model) columns() []common.Column {
	const gap = 2
	age := common.Column{Title: "AGE", Width: 6, Right: true}
	changed := common.Column{Title: "CHANGED", Width: 7, Right: true}
	draft := common.Column{Title: "DRAFT", Width: 6}
	name := common.Column{Title: "NAME", Width: max(m.nameWidth, 4)}
	by := common.Column{Title: "BY", Width: min(max(m.byWidth, 2), 26)}
	ns := common.Column{Title: "NAMESPACE", Width: min(max(m.nsWidth, 9), 24)}
	withNS := m.coll != nil && m.coll.Namespaced && m.coll.AllNamespaces
	// Two columns go to the selection marker.
	fixed := 2 + age.Width + changed.Width + draft.Width + 4*gap
	flex := []*common.Column{&name, &by}
	if withNS {
		fixed += gap
		flex = append(flex, &ns)
	}
	total := func() int {
		t := fixed
		for _, c := range flex {
			t += c.Width
		}
		return t
	}
	for _, step := range []struct {
		c     *common.Column
		floor int
	}{{&name, 24}, {&by, 13}, {&ns, 10}, {&name, 16}, {&by, 8}, {&ns, 6}, {&name, 4}} {
		if !withNS && step.c == &ns {
			continue
		}
		if over := total() - m.width; over > 0 {
			step.c.Width -= min(over, max(0, step.c.Width-step.floor))
		}
	}
	// Room to spare goes to NAME, so the table spans the screen.
	name.Width += max(0, m.width-total())
	cols := []common.Column{name, age, changed, by, draft}
	if withNS {
		cols = append([]common.Column{ns}, cols...)
	}
	return cols
}

// table is the column titles and the rows on the screen, or why there are
// none.
func (m Model) table() []string {
	st := m.styles
	cols := m.columns()
	titles := make([]escape.Text, len(cols))
	for i, c := range cols {
		titles[i] = c.Title
	}
	lines := []string{"  " + st.ColumnTitle.Render(strings.TrimRight(common.Cells(cols, titles), " "))}
	if len(m.shown) == 0 {
		return append(lines, m.emptyText()...)
	}
	now := m.now()
	withNS := len(cols) == 6
	end := min(m.offset+m.tableHeight(), len(m.shown))
	for i := m.offset; i < end; i++ {
		r := m.all[m.shown[i]]
		changed := "-"
		if !r.Changed.IsZero() {
			changed = duration.HumanDuration(now.Sub(r.Changed))
		}
		mark := m.DraftMark(r.Namespace, r.Name).String()
		texts := []escape.Text{r.name, escape.Safe(duration.HumanDuration(now.Sub(r.Created))), escape.Safe(changed), r.by, escape.Safe(mark)}
		if withNS {
			texts = append([]escape.Text{r.ns}, texts...)
		}
		line := common.Cells(cols, texts)
		if i == m.selected {
			// The marker shows the selection without colour too (NO_COLOR,
			// a screen reader), as the conflict view's list does.
			line = st.Selected.Render("> " + line + strings.Repeat(" ", max(0, m.width-2-ansi.StringWidth(line))))
		} else {
			line = strings.TrimRight("  "+line, " ")
		}
		lines = append(lines, line)
	}
	return lines
}

// emptyText says why no row is shown.
func (m Model) emptyText() []string {
	st := m.styles
	if m.coll == nil {
		return nil
	}
	what := m.coll.Resource
	if where := m.coll.Where; where != "" {
		what += " " + where
	}
	var text escape.Text
	switch {
	case m.conn.Refused != nil:
		return strings.Split(st.Error.Render(ansi.Wrap(string(common.ErrorText(m.conn.Refused)), m.width, "")), "\n")
	case !m.synced && m.conn.Lost != nil:
		text = escape.Textf("listing %s: %s", what, m.conn.Lost)
	case !m.synced:
		text = escape.Textf("listing %s ...", what)
	case len(m.all) == 0:
		text = escape.Textf("no %s", what)
	default:
		text = escape.Textf("no name contains %q (esc clears the filter)", m.filter)
	}
	return strings.Split(st.Muted.Render(ansi.Wrap(string(text), m.width, "")), "\n")
}

// bottomLine is the filter or the command being typed, or the order and
// the filter in force.
func (m Model) bottomLine() string {
	st := m.styles
	cursor := st.Selected.Render(" ")
	var s string
	switch m.mode {
	case modeFilter:
		s = "/" + escape.String(m.filter) + cursor
	case modePrompt:
		s = ":" + escape.String(m.prompt.line) + cursor
		if hint := m.prompt.hint(); hint != "" {
			s += "  " + st.Muted.Render(string(hint))
		}
	default:
		s = st.Muted.Render("order: " + m.order.String())
		if m.filter != "" {
			s += st.Muted.Render("  filter: ") + escape.String(m.filter)
		}
	}
	return ansi.Truncate(s, m.width, "…")
}

// ShortHelp is the browser's keys for the help line, by what keys do now.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	switch m.mode {
	case modeFilter:
		return []key.Binding{k.Accept, k.ClearFilter}
	case modePrompt:
		return []key.Binding{k.Complete, k.Accept, k.Back}
	case modePicker:
		return []key.Binding{k.Accept, k.Back}
	}
	return []key.Binding{k.Open, k.Filter, k.Order, k.Command, k.Help, k.Quit}
}

// FullHelp is every key of the browser, in groups.
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Open, k.Filter, k.ClearFilter, k.Order},
		{k.Command, k.Complete, k.Accept, k.Back, k.Help, k.Quit, k.ForceQuit},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
	}
}
