package conflict

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

// The intents of the lost updates' view (common.UndoOverwriteMsg it
// shares with the timeline).
type (
	// CloseLostMsg asks to go back from the lost updates to the timeline
	// (esc).
	CloseLostMsg struct{}
)

// Lost is the lost updates' view: the conflict view's drawing (a Model
// it holds, whose list and versions it fills) over a lost update's
// versions, in this package because it draws with the conflict view's
// insides. It shows the lost updates of one write from an audit log as the
// conflict view shows a conflict: base, the version its writer last read;
// theirs, the version holding the changes it lost; mine, what it stored.
// The lost fields are the open items. u asks to undo the overwrite, esc
// goes back to the timeline.
type Lost struct {
	keys  LostKeyMap
	view  Model
	h     *history.History
	write int
	// words are what the view says of the overwrite, fitted to the
	// screen (refit) whenever its size or layout changes.
	words lostWords
}

// NewLost returns a lost updates' view with nothing to show until
// Show.
func NewLost(keys LostKeyMap, styles *common.Styles) Lost {
	// The conflict view draws and moves; the keys that act are the view's.
	ck := KeyMap{Next: keys.Next, Prev: keys.Prev, Home: keys.Home, End: keys.End, PageDown: keys.PageDown,
		PageUp: keys.PageUp, Layout: keys.Layout, Reveal: keys.Reveal}
	return Lost{keys: keys, view: New(ck, styles)}
}

// SetFormat shows the values that are not strings in f, the session's
// format, from the next Show on.
func (m *Lost) SetFormat(f model.Format) { m.view.format = f }

// Show shows the lost updates of version write of h; false when it lost
// none. secret masks the values until R.
func (m *Lost) Show(h *history.History, write int, secret bool) bool {
	o, ok := h.Overwrite(write)
	if !ok {
		return false
	}
	m.h, m.write = h, write
	st, f := m.view.styles, m.view.format
	var rows []conflictRow
	for i, c := range o.Conflicts {
		setter := &h.Versions[o.Losses[i].LostAt]
		row := conflictRow{where: escape.Safe(c.Where()), base: common.DisplayValue(c.Base, st, f), theirs: common.DisplayValue(c.Theirs, st, f),
			mine: common.DisplayValue(c.Mine, st, f), note: escape.Textf("set by %s at %s, lost", setter.Who(), setter.Time.Local().Format("15:04:05"))}
		if secret && common.IsSecretValue(c.Path) {
			row.secret = true
			row.base, row.theirs, row.mine = secretValueText(c.Base, st), secretValueText(c.Theirs, st), secretValueText(c.Mine, st)
		}
		if o.Base < 0 {
			row.base = st.Muted.Render("(unknown)")
		}
		at := firstLineDiffering(common.RenderValue(c.Theirs, f), common.RenderValue(c.Mine, f))
		row.from, row.span = [3]int{at, at, at}, [3]int{1, 1, 1}
		rows = append(rows, row)
	}
	m.words = lostWordsOf(h, o)
	m.view.showLost(m.words.full, rows, secret)
	m.refit()
	return true
}

// lostWords is what the view says of an overwrite in full, and the short
// forms of its title and of the versions' titles for a screen too narrow
// for them: what the short forms leave out is said in the hint instead,
// which wraps, so that nothing is cut.
type lostWords struct {
	full lostHeading
	// shortTitle is the title without what, who lost what.
	shortTitle, what escape.Text
	// shortColumns name the versions by their resourceVersions only.
	shortColumns [3]escape.Text
}

// fit is the heading for a view width columns wide whose versions' titles
// have columnWidth columns each.
func (w lostWords) fit(width, columnWidth int) lostHeading {
	h := w.full
	if ansi.StringWidth(string(h.title)) > width {
		h.title, h.hint = w.shortTitle, w.what+". "+h.hint
	}
	for _, c := range w.full.columns {
		if ansi.StringWidth(string(c)) > columnWidth {
			h.columns = w.shortColumns
			h.hint += " The versions: " + escape.Join(w.full.columns[:], ", ") + "."
			break
		}
	}
	return h
}

// refit fits the heading to the view's width and layout: side by side,
// each version's title has a third of the width.
func (m *Lost) refit() {
	if m.view.lost == nil {
		return
	}
	v := &m.view
	columnWidth := v.width
	if v.Wide() {
		columnWidth = (v.width-2)/3 - 1
	}
	h := m.words.fit(v.width, columnWidth)
	v.lost = &h
}

// lostWordsOf is what the view says of overwrite o of h: who lost how
// many changes, what its writer had read, and the versions' titles.
func lostWordsOf(h *history.History, o history.Overwrite) lostWords {
	vs := h.Versions
	w := &vs[o.Write]
	what := escape.Textf("%s's %s replaced %s it had not read", w.Client.User, w.Command(), words.Count(len(o.Losses), "change"))
	heading := lostHeading{
		title: escape.Textf("LOST at rv %s: %s (%d open)", w.ResourceVersion, what, len(o.Losses)),
	}
	var read escape.Text = "before the log begins"
	if o.Base >= 0 {
		read = "rv " + escape.Safe(vs[o.Base].ResourceVersion)
		if !o.BaseRead.IsZero() {
			read += escape.Textf(" at %s", o.BaseRead.Local().Format("15:04:05"))
		}
	}
	if o.Base >= 0 && vs[o.Base].UID != "" && w.UID != "" && vs[o.Base].UID != w.UID {
		// The read was of an object deleted since, and the write landed on
		// the one created again under its name.
		read += escape.Textf(", of the deleted object (uid %s), created again since (uid %s)", vs[o.Base].UID, w.UID)
	}
	heading.hint = escape.Textf("%s's %s carried no resourceVersion; %s last read %s. u puts the lost values back, as a draft.",
		w.Client.User, w.Command(), w.Client.User, read)
	// Short: three of them share a line at 120 columns.
	var base escape.Text = "base (unknown: read before the log)"
	if o.Base >= 0 {
		base = escape.Textf("base (rv %s: %s's last read)", vs[o.Base].ResourceVersion, w.Client.User)
	}
	theirs := escape.Textf("theirs (rv %s: the changes lost)", vs[o.Theirs].ResourceVersion)
	if lostBy := lostWriters(h, o); len(lostBy) == 1 {
		theirs = escape.Textf("theirs (rv %s by %s)", vs[o.Theirs].ResourceVersion, lostBy[0])
	}
	heading.columns = [3]escape.Text{base, theirs, escape.Textf("mine (rv %s by %s)", w.ResourceVersion, w.Who())}
	var shortBase escape.Text = "base (unknown)"
	if o.Base >= 0 {
		shortBase = escape.Textf("base (rv %s)", vs[o.Base].ResourceVersion)
	}
	return lostWords{full: heading, what: what,
		shortTitle: escape.Textf("LOST at rv %s (%d open)", w.ResourceVersion, len(o.Losses)),
		shortColumns: [3]escape.Text{shortBase, escape.Textf("theirs (rv %s)", vs[o.Theirs].ResourceVersion),
			escape.Textf("mine (rv %s)", w.ResourceVersion)}}
}

// lostWriters names the writers of the changes o lost, each once.
func lostWriters(h *history.History, o history.Overwrite) []string {
	var out []string
	for _, l := range o.Losses {
		if who := h.Versions[l.LostAt].Who(); !slices.Contains(out, who) {
			out = append(out, who)
		}
	}
	return out
}

// firstLineDiffering is the first line where two texts differ, so that
// the versions of a long config file start at the lost line.
func firstLineDiffering(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i
		}
	}
	return min(len(al), len(bl))
}

// SetSize sets the view's size.
func (m *Lost) SetSize(width, height int) {
	m.view.SetSize(width, height)
	m.refit()
}

// Update answers the view's keys: u and esc are intents for the app (and
// ?, q and ctrl+c, as in every view), the others move and scroll.
func (m Lost) Update(msg tea.Msg) (Lost, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		in := common.FirstIntent(k, []common.KeyIntent{{Keys: m.keys.ForceQuit, Intent: common.ForceQuitMsg{}}, {Keys: m.keys.Help, Intent: common.HelpMsg{}}, {Keys: m.keys.Quit, Intent: common.QuitRequestedMsg{}},
			{Keys: m.keys.Undo, Intent: common.UndoOverwriteMsg{History: m.h, Write: m.write}}, {Keys: m.keys.Back, Intent: CloseLostMsg{}}})
		if in != nil {
			return m, common.Emit(in)
		}
	}
	var cmd tea.Cmd
	m.view, cmd = m.view.Update(msg)
	m.refit() // v switches between columns and stacked
	return m, cmd
}

// View draws the lost fields and the selected one's versions.
func (m Lost) View() string { return m.view.View() }

// ShortHelp is the view's keys for the footer; R first for a Secret, and
// pgdn when the versions do not fit the screen.
func (m Lost) ShortHelp() []key.Binding {
	k := m.keys
	bindings := m.secretKeys(k.Undo, k.Next, k.Back)
	if m.view.detailCut() {
		bindings = append(bindings, k.PageDown, k.PageUp)
	}
	return append(bindings, k.Help)
}

func (m Lost) secretKeys(bindings ...key.Binding) []key.Binding {
	if m.view.secret {
		bindings = append(bindings, common.RevealHelp(m.keys.Reveal, m.view.revealed))
	}
	return bindings
}

// FullHelp is every key of the view, in groups.
func (m Lost) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Undo, k.Back},
		m.secretKeys(k.Next, k.Prev, k.Home, k.End, k.Layout, k.PageDown, k.PageUp),
		{k.Help, k.Quit, k.ForceQuit},
	}
}
