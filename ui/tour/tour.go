// Package tour is kedit demo --tour's line over every view: what to do
// next, in words a reader (or a test) follows literally, and what the last
// step did on the wire. A step is done when the session's state says so
// (Facts, built by the app), never by the keys pressed.
package tour

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

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
// "Try it in two minutes" numbers them, what the writer writes next, and
// whether the demo writer sets foo back to "1" first (Reset): the step
// then starts once the live object shows it.
type Step struct {
	Title, Do string
	Writes    Writes
	Reset     bool
	// quiet is what the step did on the wire when it sent nothing.
	quiet string
	done  func(start, now Facts, seen seen) bool
	// off says how the session left the step's path (keys pressed out
	// of its order spent what it prepared), "" while it is on it.
	off func(now Facts) string
	// first says what to do before Do when the session is not where the
	// step starts (a step before it was skipped, or left half done), in
	// the same words as Do; "" when it is. firstWrites is then what the
	// writer writes next, as first's w needs it.
	first       func(now Facts) string
	firstWrites Writes
	// SkipDraftFoo, when set, is the draft a skip of the step makes, as
	// the step's own keys would have: foo changed to it.
	SkipDraftFoo string
}

// offText is how the tour says that the session left a step's path, and
// the ways back.
const offText = "off the step's path: %s; alt+n skips to the next step, prepared, or finish this one the way it goes (resolve, save) and redo it"

// seen is what showed while the step was under way: a clean rebase, the
// timeline, a lost update (lostSaved: the save there was then).
type seen struct {
	clean, timeline, lost bool
	lostSaved             string
}

// ResetFoo is what a step that resets starts from: the demo's first
// value of foo.
const ResetFoo = "1"

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
	// Timeline: the timeline shows; Blame: blame shows; Lost: a lost
	// update shows (the audit log's, enter on a LOST row).
	Timeline, Blame, Lost bool
	// LiveFoo is .data.foo in the live object.
	LiveFoo string
	// Races counts the demo's races answered.
	Races int
	// Object: the object view shows (not the conflict view, the
	// timeline, a page over it). Stale: there is a draft, and the live
	// object is a newer version than its base.
	Object, Stale bool
}

// draftsFoo: the draft changes foo, as the first step makes it.
func (f Facts) draftsFoo() bool { return f.Draft && f.DraftFoo != f.BaseFoo }

// reset: foo is as a step that resets starts from it, or the object has
// no foo to reset (another object than testmap).
func (f Facts) reset() bool { return f.LiveFoo == ResetFoo || f.LiveFoo == "" }

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
	// Read says why kedit sent a request that writes nothing of the
	// object: ReadSchema, ReadAccess; "" for a write. Path is then the
	// request's path.
	Read Read
	Path escape.Text
	// Sent is when kedit sent it and Latency how long its answer took,
	// as the request log timed them.
	Sent    time.Time
	Latency time.Duration
}

// Read is why kedit read something for the object: its schema, to check
// the draft as the server will; the access review, to say whether the
// user may save it.
type Read string

const (
	ReadSchema Read = "schema"
	ReadAccess Read = "access"
)

// Content is what the app hands over after each event.
type Content struct {
	Facts Facts
	// Requests are the writes kedit sent, oldest first.
	Requests []Request
}

// KeyMap is the tour's keys: Skip alone; the steps move on by the
// session's state, and the views keep every other key.
type KeyMap struct {
	// Skip moves to the next step, preparing its state as the step's
	// own start does.
	Skip key.Binding
}

// DefaultKeyMap is the tour's KeyMap: alt+n, which no view takes and
// the in-app editor does not type.
func DefaultKeyMap() KeyMap {
	return KeyMap{Skip: common.Binding("tour: skip the step", "alt+n")}
}

// ShortHelp is the skip key.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Skip} }

// FullHelp is the skip key.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Skip}} }

// SkipMsg asks to skip the step under way (the app then calls Skip with
// the session's state and prepares the next step).
type SkipMsg struct{}

// Model is the tour: the step under way and what the last one did.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	// width is the screen's, which the lines wrap at (SetSize).
	width int
	// step is the index in Steps of the step under way, len(Steps) at
	// the end; ready whether its reset showed (always, without one);
	// start are the facts when it was ready, seen what showed since,
	// lastSeq the newest request when it started.
	step    int
	ready   bool
	start   Facts
	seen    seen
	lastSeq uint64
	started bool
	// explained is what the step done last did on the wire.
	explained string
	// off is how the session left the step under way's path, "" while
	// it has not.
	off string
	// now are the facts of the last event; firstDone: the step under way
	// has had nothing to do first since it started (Step.first), which
	// from then on is the step's own path, and Step.off's to judge.
	now       Facts
	firstDone bool
}

// New is the tour at its first step.
func New(keys KeyMap, styles *common.Styles) Model {
	m := Model{keys: keys, styles: styles}
	m.SetSize(80, 2)
	return m
}

// SetSize sets the width the lines wrap at.
func (m *Model) SetSize(width, _ int) { m.width = max(width, 20) }

// Step is the index of the step under way, len(Steps) once all are done.
func (m Model) Step() int { return m.step }

// Ready says whether the step under way has started: its reset, if it
// has one, shows in the live object.
func (m Model) Ready() bool { return m.ready }

// Update answers the skip key with SkipMsg while a step is under way.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && m.step < len(Steps) && key.Matches(k, m.keys.Skip) {
		return m, common.Emit(SkipMsg{})
	}
	return m, nil
}

// Takes says whether msg is the tour's key.
func (m Model) Takes(msg tea.KeyMsg) bool { return key.Matches(msg, m.keys.Skip) }

// SetContent takes the session's state after an event and moves on while
// the step under way is done. It returns whether a step started (the app
// then prepares its writer: Steps[Step()]'s Writes and Reset).
func (m *Model) SetContent(c Content) bool {
	m.now = c.Facts
	if !m.started {
		m.started = true
		m.begin(c)
		return true
	}
	moved := false
	for m.step < len(Steps) {
		if !m.ready {
			if !c.Facts.reset() {
				break
			}
			m.ready, m.start = true, c.Facts
			m.checkFirst()
		}
		m.seen.clean = m.seen.clean || c.Facts.clean()
		m.seen.timeline = m.seen.timeline || c.Facts.Timeline
		if c.Facts.Lost && !m.seen.lost {
			m.seen.lost, m.seen.lostSaved = true, c.Facts.SavedRV
		}
		if !Steps[m.step].done(m.start, c.Facts, m.seen) {
			m.checkFirst()
			if f := Steps[m.step].off; f != nil && m.off == "" && m.first() == "" {
				m.off = f(c.Facts)
			}
			break
		}
		m.explained = explain(m.step, c, m.lastSeq)
		m.step++
		m.begin(c)
		moved = true
	}
	return moved
}

// Skip moves to the next step as if the one under way were done, and
// says so; it reports whether a step started (the app prepares it).
func (m *Model) Skip(c Content) bool {
	if m.step >= len(Steps) {
		return false
	}
	m.explained = fmt.Sprintf("step %d skipped", m.step+1)
	m.now = c.Facts
	m.step++
	m.begin(c)
	return m.step < len(Steps)
}

// SkippedWithDraft says that the skip made the skipped step's draft
// (SkipDraftFoo), as c shows it.
func (m *Model) SkippedWithDraft(c Content) {
	m.explained = fmt.Sprintf("step %d skipped: the tour made its draft, foo changed to %s; nothing was sent: the draft is on your disk, based on rv %s",
		m.step, c.Facts.DraftFoo, c.Facts.BaseRV)
}

// first is what to do before the step under way's Do, "" for nothing.
func (m Model) first() string {
	if m.step >= len(Steps) || !m.ready || m.firstDone || Steps[m.step].first == nil {
		return ""
	}
	return Steps[m.step].first(m.now)
}

// checkFirst notes when the step under way, ready, has nothing left to
// do first.
func (m *Model) checkFirst() {
	if m.ready && m.first() == "" {
		m.firstDone = true
	}
}

// Writes is what the writer writes next for the step under way: the
// step's, or what its first needs.
func (m Model) Writes() Writes {
	if m.step >= len(Steps) {
		return WritesAny
	}
	if w := Steps[m.step].firstWrites; w != WritesAny && m.first() != "" {
		return w
	}
	return Steps[m.step].Writes
}

// begin starts the step under way on c: at once, or once its reset
// shows.
func (m *Model) begin(c Content) {
	m.start, m.seen, m.off, m.now, m.firstDone = c.Facts, seen{}, "", c.Facts, false
	m.ready = m.step >= len(Steps) || !Steps[m.step].Reset || c.Facts.reset()
	m.checkFirst()
	if n := len(c.Requests); n > 0 {
		m.lastSeq = c.Requests[n-1].Seq
	}
}

// View is the instruction, and under it what the last step did.
func (m Model) View() string {
	var do string
	if m.step < len(Steps) {
		switch {
		case !m.ready:
			do = fmt.Sprintf("tour %d/%d (getting ready: demo-writer sets foo back to %q)", m.step+1, len(Steps), ResetFoo)
		case m.first() != "":
			do = fmt.Sprintf("tour %d/%d: first %s; then %s", m.step+1, len(Steps), m.first(), Steps[m.step].Do)
		default:
			do = fmt.Sprintf("tour %d/%d: %s", m.step+1, len(Steps), Steps[m.step].Do)
		}
	} else {
		do = "tour done: every step is in README's Try it in two minutes; q quits"
	}
	// Wrapped at words, never cut: a reader follows them word for word.
	var lines []string
	for _, l := range common.WrapWords(do, m.width) {
		lines = append(lines, m.styles.Title.Render(l))
	}
	if m.off != "" && m.step < len(Steps) {
		for _, l := range common.WrapWords(fmt.Sprintf(offText, m.off), m.width) {
			lines = append(lines, m.styles.Error.Render(l))
		}
	}
	if m.explained != "" {
		lines = append(lines, common.WrapWords("on the wire: "+m.explained, m.width)...)
	}
	return strings.Join(lines, "\n")
}
