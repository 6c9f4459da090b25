// Package tour is kedit demo --tour's line over every view: what to do
// next, in words a reader (or a test) follows literally, and what the last
// step did on the wire. A step is done when the session's state says so
// (Facts, built by the app), never by the keys pressed.
package tour

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// Writes is what the demo writer writes next when a step starts, so that
// a step never depends on what was done before it.
type Writes int

const (
	// WritesAny leaves the writer as it is.
	WritesAny Writes = iota
	// WritesMine makes its next write the field the user edits (foo).
	WritesMine
	// WritesOther makes its next write another field (bar).
	WritesOther
)

// Step is one step of the tour: its title and instruction as README's
// "Try it in two minutes" numbers them, and what the writer writes next.
type Step struct {
	Title, Do string
	Writes    Writes
	done      func(start, now Facts, sawClean bool) bool
}

// Steps are the tour's steps in order; README's tutorial lists each
// Title and Do (TestREADMETutorialIsTheTour).
var Steps = []Step{
	{Title: "Make a draft.", Do: "press e, change foo to mine, save and quit your editor",
		done: func(_, now Facts, _ bool) bool { return now.Draft && now.DraftFoo != now.BaseFoo }},
	{Title: "Make a same-field conflict.", Do: "press w, wait for \"changed on server\", then press s", Writes: WritesMine,
		done: func(_, now Facts, _ bool) bool { return now.OpenConflicts > 0 }},
	{Title: "Resolve it.", Do: "press m, then press s",
		done: func(start, now Facts, _ bool) bool { return saved(start, now) }},
	{Title: "Make a clean rebase.", Do: "press e, change foo to mine again, save and quit your editor; then press w, wait for \"changed on server\", press s, wait for \"clean rebase\", press s", Writes: WritesOther,
		done: func(start, now Facts, sawClean bool) bool { return sawClean && saved(start, now) }},
	{Title: "Read the timeline.", Do: "press t",
		done: func(_, now Facts, _ bool) bool { return now.Timeline }},
}

// saved: a save the server took since the step started, nothing left to
// save or resolve.
func saved(start, now Facts) bool {
	return now.SavedRV != "" && now.SavedRV != start.SavedRV && !now.Draft && !now.Rebasing
}

// Facts are what the app tells of the session after each event.
type Facts struct {
	// Draft: there is a draft; DraftFoo and BaseFoo are .data.foo in it
	// and in its base.
	Draft             bool
	DraftFoo, BaseFoo string
	BaseRV            escape.Text
	// Rebasing: a rebase shows; Conflicts are its conflicts, OpenConflicts
	// those not resolved, Merged the changes it merged without one.
	// TheirsRV is the rebase's theirs: the version the server held.
	Rebasing                         bool
	TheirsRV                         escape.Text
	Conflicts, OpenConflicts, Merged int
	// SavedRV is the version the last save stored, "" before one.
	SavedRV string
	// Timeline: the timeline shows.
	Timeline bool
}

// clean is a rebase without a conflict that merged something.
func (f Facts) clean() bool { return f.Rebasing && f.Conflicts == 0 && f.Merged > 0 }

// Request is one write kedit sent, from the request log.
type Request struct {
	Seq uint64
	// Who sent it: kedit, or the demo's writer.
	Who escape.Text
	// Method, SentRV, ServerRV, ReturnedRV and Status (its text: 200,
	// 409 Conflict) as the request pane shows them.
	Method, SentRV, ServerRV, ReturnedRV, Status escape.Text
	Conflict                                     bool
}

// Content is what the app hands over after each event.
type Content struct {
	Facts Facts
	// Requests are the writes kedit sent, oldest first.
	Requests []Request
}

// KeyMap is the tour's keys: none; the steps move on by the session's
// state, and the views keep every key.
type KeyMap struct{}

// DefaultKeyMap is the tour's KeyMap.
func DefaultKeyMap() KeyMap { return KeyMap{} }

// ShortHelp is empty: the tour has no keys.
func (KeyMap) ShortHelp() []key.Binding { return nil }

// FullHelp is empty: the tour has no keys.
func (KeyMap) FullHelp() [][]key.Binding { return nil }

// Model is the tour: the step under way and what the last one did.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	// wrap wraps the lines at the screen's width (SetSize).
	wrap lipgloss.Style
	// step is the index in Steps of the step under way, len(Steps) at
	// the end; start are the facts when it started, sawClean whether a
	// clean rebase showed since, lastSeq the newest request then.
	step     int
	start    Facts
	sawClean bool
	lastSeq  uint64
	started  bool
	// explained is what the step done last did on the wire.
	explained string
}

// New is the tour at its first step.
func New(keys KeyMap, styles *common.Styles) Model {
	m := Model{keys: keys, styles: styles}
	m.SetSize(80, 2)
	return m
}

// SetSize sets the width the lines wrap at.
func (m *Model) SetSize(width, _ int) { m.wrap = lipgloss.NewStyle().Width(max(width, 20)) }

// Step is the index of the step under way, len(Steps) once all are done.
func (m Model) Step() int { return m.step }

// SetContent takes the session's state after an event and moves on while
// the step under way is done. It returns whether a step started (the app
// then prepares its writer: Steps[Step()].Writes).
func (m *Model) SetContent(c Content) bool {
	if !m.started {
		m.started = true
		m.begin(c)
		return true
	}
	moved := false
	for m.step < len(Steps) {
		if c.Facts.clean() {
			m.sawClean = true
		}
		if !Steps[m.step].done(m.start, c.Facts, m.sawClean) {
			break
		}
		m.explained = explain(m.step, c, m.lastSeq)
		m.step++
		m.begin(c)
		moved = true
	}
	return moved
}

// begin starts the step under way on c.
func (m *Model) begin(c Content) {
	m.start, m.sawClean = c.Facts, false
	if n := len(c.Requests); n > 0 {
		m.lastSeq = c.Requests[n-1].Seq
	}
}

// explain says what step i did on the wire: the writes sent since it
// started, each with its answer.
func explain(i int, c Content, since uint64) string {
	var said []string
	for _, r := range c.Requests {
		if r.Seq <= since {
			continue
		}
		if r.Conflict {
			// The log learns the server's version once kedit read
			// theirs, which may come after the rebase showed.
			server := "a newer version"
			switch {
			case r.ServerRV != "":
				server = "rv " + string(r.ServerRV)
			case c.Facts.TheirsRV != "":
				server = "rv " + string(c.Facts.TheirsRV)
			}
			said = append(said, fmt.Sprintf("%s sent %s with rv %s; the server holds %s; %s: nothing was overwritten",
				r.Who, r.Method, orNone(r.SentRV), server, r.Status))
			continue
		}
		said = append(said, fmt.Sprintf("%s sent %s with rv %s; %s: stored as rv %s", r.Who, r.Method, orNone(r.SentRV), r.Status, orNone(r.ReturnedRV)))
	}
	switch {
	case len(said) > 0:
		return strings.Join(said, "; then ")
	case i == 0:
		return fmt.Sprintf("nothing was sent: the draft is on your disk, based on rv %s", c.Facts.BaseRV)
	}
	return "nothing was sent: the timeline shows the versions the watch brought"
}

func orNone(t escape.Text) string {
	if t == "" {
		return "none"
	}
	return string(t)
}

// View is the instruction, and under it what the last step did.
func (m Model) View() string {
	var do string
	if m.step < len(Steps) {
		do = fmt.Sprintf("tour %d/%d: %s", m.step+1, len(Steps), Steps[m.step].Do)
	} else {
		do = "tour done: every step is in README's Try it in two minutes; q quits"
	}
	lines := []string{m.styles.Title.Render(m.wrap.Render(do))}
	if m.explained != "" {
		lines = append(lines, m.wrap.Render("on the wire: "+m.explained))
	}
	return strings.Join(lines, "\n")
}
