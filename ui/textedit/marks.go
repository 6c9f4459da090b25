package textedit

import (
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
)

// mark is what the gutter says about a line against base.
type mark uint8

const (
	markAdded        mark = 1 << iota // the line is not in base
	markChanged                       // the line replaces one of base
	markDeleted                       // lines of base were deleted just above the line
	markDeletedBelow                  // ... just below it (the last line only)
)

// marksDelay is how long typing must pause before the gutter's marks are
// computed again against base, in the background.
const marksDelay = 250 * time.Millisecond

type (
	// marksDueMsg says that marksDelay has passed since the text was at
	// version.
	marksDueMsg struct {
		id      int64
		version uint64
	}
	// marksMsg carries the marks of the text at version against base.
	marksMsg struct {
		id      int64
		seq     uint64
		version uint64
		marks   []mark
	}
)

// SetBase sets the text the gutter compares with (what the draft started
// from) and returns the command that computes the marks in the background.
// A diff of the whole text is too slow to run per keystroke on a large
// document, so the marks follow edits at once line by line (an edited line
// shows as changed), and a diff corrects them once typing pauses.
func (m *Model) SetBase(base string) tea.Cmd {
	m.base = base
	return m.diffNow()
}

// diffNow starts the diff of the text against base, unless they are the
// same text.
func (m *Model) diffNow() tea.Cmd {
	m.diffSeq++
	text := m.Text()
	if text == m.base {
		m.diffing = false
		clear(m.marks)
		m.marksVersion = m.version
		return nil
	}
	m.diffing = true
	id, seq, v, base := m.id, m.diffSeq, m.version, m.base
	return func() tea.Msg {
		return marksMsg{id: id, seq: seq, version: v, marks: computeMarks(base, text)}
	}
}

// scheduleMarks asks for a marksDueMsg unless one is on its way.
func (m *Model) scheduleMarks() tea.Cmd {
	if m.marksTick {
		return nil
	}
	m.marksTick = true
	id, v := m.id, m.version
	return tea.Tick(marksDelay, func(time.Time) tea.Msg { return marksDueMsg{id: id, version: v} })
}

// marksDue starts the diff once the text has stayed the same for
// marksDelay; while typing goes on, it waits again.
func (m Model) marksDue(msg marksDueMsg) (Model, tea.Cmd) {
	if msg.id != m.id {
		return m, nil
	}
	m.marksTick = false
	switch {
	case msg.version != m.version:
		cmd := m.scheduleMarks()
		return m, cmd
	case m.marksVersion == m.version:
		return m, nil
	case m.diffing:
		// The running diff's result, out of date, asks again.
		return m, nil
	}
	cmd := m.diffNow()
	return m, cmd
}

// marksDone takes a diff's marks if the text is still the one diffed.
func (m Model) marksDone(msg marksMsg) (Model, tea.Cmd) {
	if msg.id != m.id || msg.seq != m.diffSeq {
		return m, nil
	}
	m.diffing = false
	if msg.version != m.version {
		cmd := m.scheduleMarks()
		return m, cmd
	}
	m.marks, m.marksVersion = msg.marks, msg.version
	return m, nil
}

// computeMarks diffs text against base line by line (diff.LineDiff) and
// returns a mark for each of text's lines, as split on "\n".
func computeMarks(base, text string) []mark {
	marks := make([]mark, strings.Count(text, "\n")+1)
	edits := diff.LineDiff(base, text)
	deletedAt := func(l int) {
		if l < len(marks) {
			marks[l] |= markDeleted
		} else {
			marks[len(marks)-1] |= markDeletedBelow
		}
	}
	for i := 0; i < len(edits); i++ {
		e := edits[i]
		switch e.Op {
		case diff.LineInsert, diff.LineDelete:
			// A delete next to an insert is a change of as many lines as
			// they share; what is left over is added or deleted.
			del, ins := 0, e.B
			if e.Op == diff.LineDelete {
				del, ins = e.A.Len, diff.LineRange{Start: e.B.Start}
			}
			if i+1 < len(edits) && edits[i+1].Op != diff.LineEqual {
				n := edits[i+1]
				if n.Op == diff.LineDelete {
					del = n.A.Len
				} else {
					ins = n.B
				}
				i++
			}
			changed := min(del, ins.Len)
			for l := ins.Start; l < ins.Start+ins.Len; l++ {
				if l-ins.Start < changed {
					marks[l] |= markChanged
				} else {
					marks[l] |= markAdded
				}
			}
			if del > ins.Len {
				deletedAt(ins.Start + ins.Len)
			}
		}
	}
	return marks
}

// markChanged keeps the marks in step with an edit until the next diff:
// oldN lines from line r became newN lines; they show as changed, the
// lines beyond as added, and fewer lines as a deletion.
func (m *Model) markChanged(r, oldN, newN int) {
	touched := func(mk mark) mark {
		if mk&markAdded != 0 {
			return mk
		}
		return mk | markChanged
	}
	if oldN == newN {
		for i := r; i < r+newN; i++ {
			m.marks[i] = touched(m.marks[i])
		}
		return
	}
	repl := make([]mark, newN)
	for i := range repl {
		if i < oldN {
			repl[i] = touched(m.marks[r+i])
		} else {
			repl[i] = markAdded
		}
	}
	m.marks = slices.Replace(m.marks, r, r+oldN, repl...)
	if newN < oldN {
		if r+newN < len(m.marks) {
			m.marks[r+newN] |= markDeleted
		} else {
			m.marks[len(m.marks)-1] |= markDeletedBelow
		}
	}
}
