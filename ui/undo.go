package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/timeline"
)

// The app's side of the audit log's lost updates: the intents of the
// timeline's rows from the log and of the lost updates' view, and the
// draft that undoes an overwrite.

// auditIntent acts on what the timeline's audit log rows and the lost
// updates' view asked for; false for any other message.
func (m App) auditIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case timeline.ShowLostMsg:
		m.lost.SetFormat(m.sess.Format())
		if m.lost.Show(msg.History, msg.Write, m.sess.Ref().IsSecret()) {
			m.screen = screenLost
		}
	case conflict.CloseLostMsg:
		m.screen = screenTimeline
	case common.UndoOverwriteMsg:
		if m.sess.Draft() != nil {
			// The undo is a draft of its own: the one there is goes only
			// when the user says so.
			m.oncall.undo = &msg
			m.ask(confirmUndo)
			break
		}
		next, cmd := m.undoOverwrite(msg)
		return next, cmd, true
	default:
		return m, nil, false
	}
	return m, nil, true
}

// undoOverwrite makes the draft that undoes an overwrite: the object as it
// is now with the lost values put back (history.Undo), a field changed
// again since keeping its newer value. The object view shows it as any
// draft, and s saves it as any draft: with the live resourceVersion, a
// change made meanwhile still a conflict.
func (m App) undoOverwrite(u common.UndoOverwriteMsg) (App, tea.Cmd) {
	live, deleted := m.sess.Live()
	if deleted || live.Object == nil {
		m.status.Error("the object is deleted: there is nothing to put the lost values back onto")
		return m, nil
	}
	o, ok := u.History.Overwrite(u.Write)
	if !ok {
		return m, nil
	}
	draft, notes := u.History.Undo(live.Object, o.Losses)
	text, err := m.sess.Format().Render(draft)
	if err != nil {
		m.status.Error(common.ErrorText(err))
		return m, nil
	}
	cmd := m.draftFromTimeline(text)
	said := undoText(u.History, o, notes, m.sess.Ref().IsSecret())
	if d := m.sess.Draft(); d == nil || d.Err == nil {
		// With nothing put back the session took the text as no change,
		// and the words say so.
		m.status.Info(said)
	}
	return m, cmd
}

// draftFromTimeline makes text the draft, as the timeline's y and u do,
// and shows it in the object view.
func (m *App) draftFromTimeline(text string) tea.Cmd {
	cmd := m.handle(model.DraftEdited{Text: text})
	m.timeline.HideChange()
	m.screen = screenObject
	return cmd
}

// takeText is the text y makes the draft of: the timeline's entry, or
// the audit log's version.
func (m App) takeText() (string, error) {
	if obj := m.oncall.takeObj; obj != nil {
		return m.sess.DraftTextOf(obj)
	}
	return m.sess.TimelineDraftText(m.oncall.takeID)
}

// undoText says what the draft that undoes an overwrite put back, and
// what it kept: `the draft puts back .data.foo = "bob", lost by alice's
// patch; s saves it`.
func undoText(h *history.History, o history.Overwrite, notes []history.UndoNote, secret bool) escape.Text {
	e := escape.Safe
	w := &h.Versions[o.Write]
	var back, kept, failed []escape.Text
	for i, n := range notes {
		switch {
		case n.Restored:
			back = append(back, e(n.Path)+" = "+undoValue(o.Losses[i].Value, secret))
		case n.Kept:
			kept = append(kept, e(n.Path))
		default:
			failed = append(failed, e(n.Path))
		}
	}
	var parts []escape.Text
	if len(back) > 0 {
		parts = append(parts, escape.Textf("the draft puts back %s, lost by %s's %s; s saves it", escape.Join(back, ", "),
			w.Client.User, w.Verb))
	}
	switch {
	case len(kept) > 0 && len(back) == 0:
		parts = append(parts, "nothing to put back: "+escape.Join(kept, ", ")+" changed again since the overwrite, and keeps the newer value")
	case len(kept) > 0:
		parts = append(parts, escape.Join(kept, ", ")+" changed again since: the draft keeps the newer value")
	}
	if len(failed) > 0 {
		parts = append(parts, escape.Join(failed, ", ")+" cannot be put back: its place in the object is gone")
	}
	return escape.Join(parts, "; ")
}

// undoValue says a field's value in a status line; a Secret's never.
func undoValue(v diff.FieldValue, secret bool) escape.Text {
	if secret {
		return common.SecretMask
	}
	if !v.Present {
		return "(absent)"
	}
	return common.ShortValue(v)
}
