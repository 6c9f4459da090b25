package ui

import (
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube/schemacheck"
)

// The schema's word on each object of a set's List file, as on one
// draft back from $EDITOR: checked off the UI's goroutine once the file
// is back, each refused field said with its line in the List, on the
// object's row and in the status bar; s on a set with drafts the schema
// refuses asks first, as s on one object does.

// setDiagnosedMsg is the schema's word on the drafts a set's List file
// gave its objects.
type setDiagnosedMsg struct {
	drafts []memberDiagnosed
}

// memberDiagnosed is the schema's word on one object's draft, text,
// whose first line is line of the List file.
type memberDiagnosed struct {
	member int
	of     objectID
	text   string
	line   int
	found  []schemacheck.Diagnostic
	err    error
}

// diagnoseSet checks, in the background, the draft of each object the
// List file held (lines: each one's first line in it) against its
// kind's schema.
func (m *App) diagnoseSet(lines map[int]int) tea.Cmd {
	members := slices.Sorted(maps.Keys(lines))
	var jobs []func() memberDiagnosed
	for _, i := range members {
		line := lines[i]
		st := m.member(i)
		d := st.sess.Draft()
		if st.opened == nil || st.opened.Check == nil || d == nil || d.Err != nil || d.Object == nil {
			continue
		}
		check, ctx, text, obj, old := st.opened.Check, m.ctx, d.Text, d.Object, st.sess.Base().Object
		md := memberDiagnosed{member: i, of: st.id, text: text, line: line}
		jobs = append(jobs, func() memberDiagnosed {
			// A field the server would drop (--validate warn or
			// ignore) holds no set's save: only refusals are said.
			found, err := check(ctx, text, obj, old)
			md.found, md.err = refusedOf(found), err
			return md
		})
	}
	if len(jobs) == 0 {
		return nil
	}
	return func() tea.Msg {
		var msg setDiagnosedMsg
		for _, j := range jobs {
			msg.drafts = append(msg.drafts, j())
		}
		return msg
	}
}

// setDiagnosed takes the schema's word on each object's draft, for its
// row, the status bar and the next s.
func (m App) setDiagnosed(msg setDiagnosedMsg) App {
	var refused []int
	for _, md := range msg.drafts {
		if md.member >= len(m.set.states) {
			continue
		}
		st := m.member(md.member)
		if st.id != md.of || md.err != nil {
			continue
		}
		st.diag.text, st.diag.found, st.diag.listLine = md.text, md.found, md.line
		if st.schemaRefuses() {
			refused = append(refused, md.member)
		}
	}
	if len(refused) > 0 {
		m.status.Error(m.setDiagnosticsText(refused) + "; each row says why, p (enter) asks the server")
	}
	m.refreshSet()
	return m
}

// schemaRefuses reports whether the schema refuses the object's draft
// as it is now.
func (st *objectState) schemaRefuses() bool {
	d := st.sess.Draft()
	return d != nil && d.Err == nil && len(st.diag.found) > 0 && st.diag.text == d.Text
}

// diagLine is the line of d to say: in the List file the draft came
// back in, when it did.
func (st *objectState) diagLine(d schemacheck.Diagnostic) (int, escape.Text) {
	if st.diag.listLine > 0 && d.Line > 0 {
		return st.diag.listLine + d.Line - 1, " of the List"
	}
	return d.Line, ""
}

// memberDiagnosticsText sums up the schema's word on object i's draft
// for its row.
func (m App) memberDiagnosticsText(i int) escape.Text {
	st := m.member(i)
	found := st.diag.found
	line, where := st.diagLine(found[0])
	t := escape.Textf("the schema refuses %s: line %d%s: %s", words.Count(len(found), "field"), line, where, st.schemaWord(found[0]))
	if len(found) > 1 {
		t += escape.Textf(" (and %d more)", len(found)-1)
	}
	return t
}

// setDiagnosticsText sums up the schema's word on the drafts of refused
// for the status bar: how many fields of which objects, and the first.
func (m App) setDiagnosticsText(refused []int) escape.Text {
	n := 0
	for _, i := range refused {
		n += len(m.member(i).diag.found)
	}
	st := m.member(refused[0])
	line, where := st.diagLine(st.diag.found[0])
	t := escape.Textf("the schema refuses %s of %s: line %d%s: ", words.Count(n, "field"), m.setNames(refused), line, where)
	if len(refused) > 1 {
		t += objectName(keyOf(st.target)) + ": "
	}
	return t + st.schemaWord(st.diag.found[0])
}

// setSchemaHold reports whether s on the set waits for a second asking:
// the schema refuses drafts of the set as they are, and s was not asked
// for since. It says why, and what sends them.
func (m *App) setSchemaHold() bool {
	var held []int
	for i, st := range m.set.states {
		if st.schemaRefuses() && st.diag.armed != st.sess.Draft().Text {
			held = append(held, i)
		}
	}
	if len(held) == 0 {
		return false
	}
	for _, i := range held {
		st := m.member(i)
		st.diag.armed = st.sess.Draft().Text
	}
	// The server may take what its schema, as kedit read it, refuses:
	// the second asking sends them.
	m.status.Error(m.setDiagnosticsText(held) + "; " + escape.Safe(m.keys.Set.Save.Help().Key) + " again sends " +
		escape.Safe(words.Agree(len(held), "it", "them")) + " (each row says why)")
	m.refreshSet()
	return true
}
