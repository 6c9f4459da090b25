package timeline

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

// The timeline's audit log: the object's history read from it each time
// the timeline opens (ReadHistory), and what enter and u do on its rows.

// HistoryReader reads the object's history from the audit logs kedit was
// given (Object.History); it is called inside a command.
type HistoryReader func(ctx context.Context) (*history.History, error)

// historySource is where one timeline reads its history: the app's
// context and the object's reader. Reads of another timeline's source
// (an object left for the browser) are dropped.
type historySource struct {
	ctx  context.Context
	read HistoryReader
}

type (
	// HistoryReadMsg is the outcome of a read of src.
	HistoryReadMsg struct {
		src *historySource
		h   *history.History
		err error
	}
	// HistoryDueMsg says it is time to read src again: the log was behind
	// the versions kedit saw (the server writes a request's audit event
	// as the request ends, after the watch has told of it).
	HistoryDueMsg struct{ src *historySource }
)

// readHistoryCmd reads the history from src.
func readHistoryCmd(src *historySource) tea.Cmd {
	return func() tea.Msg {
		h, err := src.read(src.ctx)
		return HistoryReadMsg{src: src, h: h, err: err}
	}
}

// logBehindTries bounds the reads again, a second apart, while the log is
// behind the versions kedit saw.
const logBehindTries = 10

// auditLog is what the timeline keeps of the audit log: where it reads
// it, the history last read, a read on its way (again: one more is due
// after it), why the last read failed, and how many reads in a row found
// the log behind.
type auditLog struct {
	src     *historySource
	h       *history.History
	reading bool
	again   bool
	logErr  error
	tries   int
}

// ReadHistory reads the object's history from the audit log through read
// (nil: kedit was given no log), as the timeline opens: a write logged
// since the last read is in it.
func (m *Model) ReadHistory(ctx context.Context, read HistoryReader) tea.Cmd {
	if read == nil {
		return nil
	}
	if m.src == nil {
		m.src = &historySource{ctx: ctx, read: read}
	}
	m.tries = 0
	if m.reading {
		m.again = true
		return nil
	}
	m.reading = true
	return readHistoryCmd(m.src)
}

// logUpdate takes the reads' outcomes; false for any other message.
func (m *Model) logUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case HistoryReadMsg:
		if msg.src != m.src {
			return nil, true
		}
		m.reading = false
		if m.logErr = msg.err; msg.err == nil {
			m.h = msg.h
		}
		m.fillRows()
		switch {
		case m.again:
			m.again, m.reading = false, true
			return readHistoryCmd(m.src), true
		case msg.err == nil && m.logBehind() && m.tries < logBehindTries:
			m.tries++
			src := m.src
			return tea.Tick(time.Second, func(time.Time) tea.Msg { return HistoryDueMsg{src} }), true
		}
		return nil, true
	case HistoryDueMsg:
		if msg.src != m.src || m.reading {
			return nil, true
		}
		m.reading = true
		return readHistoryCmd(m.src), true
	}
	return nil, false
}

// logBehind reports whether kedit saw a version newer than every version
// the log holds.
func (m Model) logBehind() bool {
	if m.h == nil || len(m.live) == 0 {
		return false
	}
	newest := m.live[len(m.live)-1]
	for _, v := range m.h.Versions {
		if v.ResourceVersion == newest.ResourceVersion || model.NewerResourceVersion(v.ResourceVersion, newest.ResourceVersion) {
			return false
		}
	}
	return !newest.Deleted
}

// logLine says what the audit log holds, under the title: its lost
// updates and fights, what of it could not be judged (never "0 lost
// updates" then), that it is being read, or why it cannot be.
func (m Model) logLine() string {
	st := m.styles
	var text string
	switch {
	case m.src == nil:
		return ""
	case m.logErr != nil:
		return strings.Join(m.wrapped(st.Error, "audit log: "+string(common.ErrorText(m.logErr))), "\n")
	case m.h == nil:
		text = "reading the audit log ..."
	default:
		// The counts are of what the rows mark: the fights are the log's
		// and those kedit saw live, each field once.
		lost, fights := 0, map[string]bool{}
		for _, r := range m.rows {
			if r.lost {
				lost++
			}
			for _, f := range r.fights {
				fights[f] = true
			}
		}
		counts := words.Count(len(m.h.LostUpdates), "lost update") + ", "
		if n := len(m.h.Reverted); n > 0 {
			counts += words.Count(n, "reverted value") + ", "
		}
		if n := len(m.h.BlindWrites); n > 0 {
			counts += words.Count(n, "blind write") + ", "
		}
		counts += words.Count(len(fights), "fight")
		text = "audit log: " + counts
		if short := m.h.Coverage.Short(); short != "" {
			// What was not judged is no count of zero: it comes first,
			// and a count of none found is not said.
			text = "audit log: " + short
			if len(m.h.LostUpdates)+len(m.h.Reverted)+len(m.h.BlindWrites)+len(fights) > 0 {
				text += "; " + counts
			}
		}
		if lost > 0 {
			text += "; LOST: enter shows it, u undoes it"
		}
		if m.reading {
			text += "; reading it again ..."
		}
	}
	return strings.Join(m.wrapped(st.Muted, text), "\n")
}

// enter shows the selected version: a LOST row's lost updates
// (ShowLostMsg), a version only the log holds against the log's version
// before it, a live version against the live one before it
// (ShowVersionMsg).
func (m *Model) enter() tea.Cmd {
	if len(m.rows) == 0 {
		return nil
	}
	r := m.rows[m.cur.Selected]
	switch {
	case r.lost:
		return common.Emit(ShowLostMsg{History: m.h, Write: r.version})
	case (r.reverted || r.blind) && r.version >= 0:
		// The diff, and above it what the write set back or replaced and
		// why it is not called lost.
		m.showChange(m.h.Change(r.version), r, "")
		m.shown.finding = findingNote(m.h, r.version)
		m.change = m.shown.lines(m.styles, m.width)
		m.body.SetSize(m.width, m.height, len(m.change))
		return nil
	case r.id < 0:
		note := ""
		if !m.h.Versions[r.version].Recorded {
			note = "the audit log holds no object of this write (it was logged below RequestResponse level): what it changed is unknown"
		}
		m.showChange(m.h.Change(r.version), r, note)
		return nil
	}
	return common.Emit(ShowVersionMsg{ID: r.id})
}

// undo asks to undo a LOST row's overwrite.
func (m Model) undo() tea.Cmd {
	if len(m.rows) == 0 || !m.rows[m.cur.Selected].lost {
		return common.Emit(common.SayMsg{Text: "u undoes the overwrite of a row marked LOST: this version lost nothing"})
	}
	return common.Emit(common.UndoOverwriteMsg{History: m.h, Write: m.rows[m.cur.Selected].version})
}

// SelectedLogObject returns the object of the selected version when only
// the audit log holds it (y makes it the draft); false for any other.
func (m Model) SelectedLogObject() (*unstructured.Unstructured, bool) {
	if len(m.rows) == 0 || m.rows[m.cur.Selected].id >= 0 || m.h == nil {
		return nil, false
	}
	obj := m.h.Versions[m.rows[m.cur.Selected].version].Object
	return obj, obj != nil
}

// findingNote says what write i of h set back or replaced blind, in the
// words of the evidence: one line per field.
func findingNote(h *history.History, i int) escape.Text {
	var out escape.Text
	for _, f := range []struct {
		mark escape.Text
		ls   []history.Loss
	}{{"REVERTED: ", h.Reverted}, {"BLIND: ", h.BlindWrites}} {
		for _, l := range f.ls {
			if l.OverwrittenBy == i {
				if out != "" {
					out += "\n"
				}
				out += f.mark + escape.Safe(l.Evidence)
			}
		}
	}
	return out
}
