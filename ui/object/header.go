package object

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// The lines above the body: the object's title, what the body shows, the
// demo's keys, the GitOps owner, the source, a fight and the banner of a
// change on the server, each wrapped at words, never cut.

// header returns the lines above the body, each wrapped at words.
func (m Model) header() []string {
	st := m.styles
	lines := append([]string{ansi.Truncate(m.titleLine(), m.width, "…")}, m.stateLines()...)
	if m.demo && m.shown.draft == nil && !m.blame.on {
		lines = append(lines, m.wrapped(st.Muted, m.demoLine())...)
	}
	if m.shown.gitOps != "" {
		lines = append(lines, m.wrapped(st.Error, m.shown.gitOps)...)
	}
	if m.source != "" {
		lines = append(lines, m.wrapped(st.Muted, m.source)...)
	}
	if m.shown.fight != "" {
		lines = append(lines, m.wrapped(st.Banner, m.shown.fight)...)
	}
	if m.shown.banner != "" {
		// A deleted object has nothing to rebase onto: its banner says
		// what s does instead.
		text := m.shown.banner
		if !m.shown.deleted {
			text += "  (r: rebase now)"
		}
		// Wrapped, a long list of paths is not cut off.
		lines = append(lines, m.wrapped(st.Banner, text)...)
	}
	return lines
}

// wrapped is text in style, wrapped at words to the width.
func (m Model) wrapped(style lipgloss.Style, text escape.Text) []string {
	lines := common.WrapWords(string(text), m.width)
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// demoLine says, in kedit demo while no draft is open, that this is the
// demo and what its own keys do, which otherwise only ? lists: the
// second writer, the colleague's kubectl edit, the race, the requests,
// and where a second terminal finds how it joins.
func (m Model) demoLine() escape.Text {
	k := m.keys
	// L is the request pane's, which the app matches over every view.
	return escape.Textf("kedit demo (a cluster of its own): %s demo-writer writes, %s alice's kubectl edit, %s race of kedit set --if, L requests; %s how a second terminal joins",
		k.DemoWrite.Help().Key, k.DemoKubectlEdit.Help().Key, k.DemoRace.Help().Key, k.Help.Help().Key)
}

// titleLine names the object, its live resourceVersion and the
// connection's state.
func (m Model) titleLine() string {
	st := m.styles
	parts := []escape.Text{common.ObjectTitle(m.shown.ref)}
	if m.shown.ref.Namespace != "" {
		parts = append(parts, "namespace "+escape.Safe(m.shown.ref.Namespace))
	}
	if m.shown.ref.Context != "" {
		parts = append(parts, "context "+escape.Safe(m.shown.ref.Context))
	}
	rv := "rv " + m.shown.liveRV
	if m.shown.deleted {
		rv += " (deleted)"
	}
	// The live resourceVersion and the connection state matter most while
	// editing: on a narrow terminal the namespace and context give way,
	// but not the object's name (up to half the width), which a long
	// connection state then shares the line with.
	right := ansi.StringWidth(string(rv + "  " + m.conn))
	name := ansi.StringWidth(string(parts[0]))
	// One more cell than the name: the "…" of the parts that gave way.
	avail := max(m.width-right-2, min(name+1, m.width/2), 1)
	left := ansi.Truncate(string(escape.Join(parts, "  ")), avail, "…")
	return st.Header.Render(left+"  "+string(rv)) + "  " + st.Muted.Render(string(m.conn))
}

// stateLine says what the body shows (the live object, the draft, its
// diff or blame) and what else holds: a Secret's mask, a draft that does
// not parse, a rebase under way, the fields hidden. Its parts go on a
// line of their own where the width ends (stateLines), never cut.
func (m Model) stateLine() []string {
	st := m.styles
	var parts []string
	switch {
	case m.blame.on:
		parts = append(parts, st.Draft.Render("blame")+st.Muted.Render(string(" of live rv "+m.shown.liveRV+": who owns each line's field, and when (b hides)")))
	case m.shown.draft == nil && m.shown.liveBy != "":
		parts = append(parts, st.Muted.Render(string("live object by "+m.shown.liveBy+"; e edits a draft")))
	case m.shown.draft == nil:
		parts = append(parts, st.Muted.Render("live object; e edits a draft"))
	case m.showDiff:
		parts = append(parts, st.Draft.Render("unsaved draft")+"  "+st.Muted.Render(string("diff against base rv "+m.shown.baseRV+" (d: the draft, n/N: next/previous hunk)")))
	default:
		parts = append(parts, st.Draft.Render("unsaved draft")+"  "+st.Muted.Render(string("based on rv "+m.shown.baseRV+" (d: diff against base)")))
	}
	switch {
	case m.shown.secret && m.revealed:
		parts = append(parts, st.Muted.Render("values shown (R hides)"))
	case m.shown.secret:
		parts = append(parts, st.Muted.Render("values hidden (R reveals)"))
	}
	if m.shown.draft != nil && m.shown.draft.Err != nil {
		parts = append(parts, st.Error.Render(string("cannot be saved: "+common.ErrorText(m.shown.draft.Err))))
	}
	if m.shown.rebasing {
		parts = append(parts, st.Muted.Render("rebase in progress (c: conflict view)"))
	}
	return append(parts, m.renders.TF.Notes(st, m.full)...)
}

// stateLines lays the state line's parts out at the width: as many as
// fit on a line, two spaces apart, the next on the line below; a part
// wider than the width is wrapped at words.
func (m Model) stateLines() []string {
	var lines []string
	cur := ""
	for _, p := range m.stateLine() {
		w := ansi.StringWidth(p)
		switch {
		case cur == "" && w <= m.width:
			cur = p
			continue
		case cur != "" && ansi.StringWidth(cur)+2+w <= m.width:
			cur += "  " + p
			continue
		case cur != "":
			lines = append(lines, cur)
			cur = ""
		}
		if w <= m.width {
			cur = p
			continue
		}
		wrapped := common.WrapWords(p, m.width)
		lines = append(lines, wrapped[:len(wrapped)-1]...)
		cur = wrapped[len(wrapped)-1]
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
