package ui

import (
	"errors"
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/editfile"
	"github.com/kedit/kedit/ui/internal/effect"
)

// The edit of several objects in one $EDITOR file: the file in the set's
// format, the objects it leaves out, and the text split back into drafts.

// editSet opens the objects (all when none is given) in one $EDITOR file,
// in the set's format. An object whose stored drafts wait for an answer
// stays out, so that no edit overtakes them, and so does one whose text is
// in another format (model.SetEdit.Apart); an edit the set refused before
// is opened again.
func (m *App) editSet(members []int) tea.Cmd {
	s := m.set
	var left []escape.Text
	if !s.model.Edited() {
		if len(members) == 0 {
			for i := range s.states {
				members = append(members, i)
			}
		}
		var take, waiting []int
		for _, i := range members {
			if len(m.member(i).stored) > 0 {
				waiting = append(waiting, i)
			} else {
				take = append(take, i)
			}
		}
		if len(take) == 0 {
			m.status.Info("stored drafts of " + m.setNames(waiting) + " wait for an answer: enter one to recover or discard them")
			return nil
		}
		members = take
		if len(waiting) > 0 {
			left = append(left, "left out, their stored drafts waiting for an answer (enter): "+m.setNames(waiting))
		}
	}
	e, err := s.model.Edit(members)
	if err != nil {
		m.status.Error(common.ErrorText(err))
		return nil
	}
	if len(e.Apart) > 0 {
		left = append(left, m.apartText(e))
	}
	s.editLeft = escape.Join(left, "; ")
	if len(left) > 0 {
		m.status.Info(s.editLeft)
	}
	if len(e.Members) == 0 {
		return nil
	}
	s.edit, m.life.editorOpen = e, true
	return effect.Edit(editfile.Head{Refused: m.setRefusedHead(e)}, e.Text, false, e.Format)
}

// apartText says which objects an edit left out for their format, and
// why: "left out of the JSON file, its text in another format: secrets/db
// (a Secret stays YAML); enter edits it".
func (m App) apartText(e *model.SetEdit) escape.Text {
	var names []escape.Text
	for k, i := range e.Apart {
		if k == 3 {
			names = append(names, escape.Textf("%d more", len(e.Apart)-3))
			break
		}
		sess := m.set.model.Session(i)
		why := escape.Textf("edited in %s", sess.Format().String())
		if sess.Ref().IsSecret() {
			why = "a Secret stays YAML"
		}
		names = append(names, objectName(keyOf(m.member(i).target))+" ("+why+")")
	}
	var verb escape.Text = "enter edits it"
	if len(e.Apart) > 1 {
		verb = "enter edits each"
	}
	return escape.Textf("left out of the %s file, %s in another format: %s; %s", e.Format.String(),
		words.Agree(len(e.Apart), "its text", "their texts"), escape.Join(names, ", "), verb)
}

// setEditorFinished splits what $EDITOR left back into the objects'
// drafts.
func (m App) setEditorFinished(msg effect.EditorFinished) (App, tea.Cmd) {
	s := m.set
	e, left := s.edit, s.editLeft
	s.edit, s.editLeft = nil, ""
	switch {
	case msg.Err != nil:
		m.status.Error("editor: " + common.ErrorText(msg.Err) + " (every draft is unchanged)")
		return m, nil
	case msg.Text == msg.Original && !s.model.Edited():
		m.status.Info(withLeft("no change", left))
		return m, nil
	}
	effects, rep, err := s.model.TakeEdit(e, msg.Text)
	cmd := m.runSetEffects(effects)
	var te *model.SetTextError
	var added *model.AddedError
	switch {
	case errors.Is(err, model.ErrEmptySetText):
		m.status.Info("the file was left empty: nothing changed")
	case errors.As(err, &te), errors.As(err, &added):
		m.status.Error(common.ErrorText(err) + "; every draft is kept, and e opens your text again")
	case err != nil:
		m.status.Error(common.ErrorText(err) + " (every draft is unchanged)")
	default:
		m.status.Info(withLeft(editReport(m, rep), left))
		cmd = tea.Batch(cmd, m.diagnoseSet(rep.Lines))
	}
	m.refreshSet()
	return m, cmd
}

// withLeft is what an edit did, then which objects it left out, if any.
func withLeft(did, left escape.Text) escape.Text {
	if left == "" {
		return did
	}
	return did + "; " + left
}

// editReport says what an edit of several objects changed.
func editReport(m App, rep model.SetEditReport) escape.Text {
	var parts []escape.Text
	if n := len(rep.Edited); n > 0 {
		parts = append(parts, escape.Textf("%s edited (%s)", words.Count(n, "draft"), m.setNames(rep.Edited)))
	}
	if n := len(rep.Removed); n > 0 {
		parts = append(parts, m.setNames(rep.Removed)+" removed from the text: no draft")
	}
	for i, err := range rep.Kept {
		parts = append(parts, objectName(keyOf(m.member(i).target))+" keeps its draft: "+common.ErrorText(err))
	}
	if len(parts) == 0 {
		return "no change"
	}
	return escape.Join(parts, "; ")
}

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
	t := escape.Textf("%s %s: line %d%s: %s", whoseRefusal(found), words.Count(len(found), "field"), line, where, st.schemaWord(found[0]))
	if len(found) > 1 {
		t += escape.Textf(" (and %d more)", len(found)-1)
	}
	return t
}

// setDiagnosticsText sums up the schema's word on the drafts of refused
// for the status bar: how many fields of which objects, and the first.
func (m App) setDiagnosticsText(refused []int) escape.Text {
	var all []schemacheck.Diagnostic
	for _, i := range refused {
		all = append(all, m.member(i).schemaRefusals()...)
	}
	st := m.member(refused[0])
	first := st.schemaRefusals()[0]
	line, where := st.diagLine(first)
	t := escape.Textf("%s %s of %s: line %d%s: ", whoseRefusal(all), words.Count(len(all), "field"), m.setNames(refused), line, where)
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
