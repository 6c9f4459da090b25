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

// diagnoseSet checks, in the background, the draft of each object the
// List file held (lines: each one's first line in it) against its
// kind's schema.
func (m *App) diagnoseSet(lines map[int]int) tea.Cmd {
	var checks []func() diagnosis
	for _, i := range slices.Sorted(maps.Keys(lines)) {
		st := m.member(i)
		d := st.sess.Draft()
		if d == nil || d.Err != nil {
			continue
		}
		if c, ok := st.check(m.ctx, d.Text, d.Object, lines[i]); ok {
			checks = append(checks, c)
		}
	}
	return diagnoseCmd(diagnosedMsg{set: true}, checks)
}

// setDiagnosed takes the schema's word on each object's draft, for its
// row, the status bar and the next s. A field the server would drop
// (--validate warn or ignore) holds no set's save: only refusals are said.
func (m App) setDiagnosed(msg diagnosedMsg) App {
	if m.set == nil {
		return m
	}
	var refused []int
	for _, d := range msg.drafts {
		i, ok := m.memberByID(d.of)
		if !ok {
			continue
		}
		if st := m.member(i); st.diagnosed(d) && st.schemaRefuses() {
			refused = append(refused, i)
		}
	}
	if len(refused) > 0 {
		m.status.Error(m.setDiagnosticsText(refused) + "; each row says why, p (enter) asks the server")
	}
	m.refreshSet()
	return m
}

// schemaRefusals are the diagnostics of the schema that refuse o's draft as it
// is now; none when its word is on another text, or said nothing.
func (o *objectState) schemaRefusals() []schemacheck.Diagnostic {
	d := o.sess.Draft()
	if d == nil || d.Err != nil || o.diag.text != d.Text {
		return nil
	}
	return refusedOf(o.diag.found)
}

// schemaRefuses reports whether the schema refuses the object's draft
// as it is now.
func (o *objectState) schemaRefuses() bool { return len(o.schemaRefusals()) > 0 }

// schemaHeld is the schema-hold rule, for one object and each object of
// a set alike: a save of the draft waits for a second asking when the
// schema refuses the draft as it is now and the save was not asked for
// since. It arms the second asking.
func (o *objectState) schemaHeld() bool {
	if !o.schemaRefuses() || o.diag.armed == o.sess.Draft().Text {
		return false
	}
	o.diag.armed = o.sess.Draft().Text
	return true
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
	found := st.schemaRefusals()
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
		n += len(m.member(i).schemaRefusals())
	}
	st := m.member(refused[0])
	first := st.schemaRefusals()[0]
	line, where := st.diagLine(first)
	t := escape.Textf("the schema refuses %s of %s: line %d%s: ", words.Count(n, "field"), m.setNames(refused), line, where)
	if len(refused) > 1 {
		t += objectName(keyOf(st.target)) + ": "
	}
	return t + st.schemaWord(first)
}

// setSchemaHold reports whether s on the set waits for a second asking
// for drafts of the set (objectState.schemaHeld), and says why and what
// sends them.
func (m *App) setSchemaHold() bool {
	var held []int
	for i, st := range m.set.states {
		if st.schemaHeld() {
			held = append(held, i)
		}
	}
	if len(held) == 0 {
		return false
	}
	// The server may take what its schema, as kedit read it, refuses:
	// the second asking sends them.
	m.status.Error(m.setDiagnosticsText(held) + "; " + escape.Safe(m.keys.Set.Save.Help().Key) + " again sends " +
		escape.Safe(words.Agree(len(held), "it", "them")) + " (each row says why)")
	m.refreshSet()
	return true
}
