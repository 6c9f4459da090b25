package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/timeline"
)

// The on-call and teaching keys, wired into the app: the
// timeline (t), blame (b), the dry-run preview (p), the GitOps owner's
// confirmation before the first save, and the demo writer's w.

// DemoWriter is the demo's second writer as the app sees it
// (effect.DemoWriter, *demo.Writer).
type DemoWriter = effect.DemoWriter

// oncallState is what the app keeps for the on-call keys.
type oncallState struct {
	// takeID and takeRV are the timeline entry y asks about; takeObj is
	// the version's object when only the audit log holds it.
	takeID  int
	takeRV  escape.Text
	takeObj *unstructured.Unstructured
	// undo is the overwrite u asks to undo over the draft there is.
	undo *common.UndoOverwriteMsg
	// gitOpsSave is the save that waits for the confirmation, and
	// gitOpsOwner the owner's description the question names.
	gitOpsSave  model.Event
	gitOpsOwner escape.Text
	// demoWrite is the demo writer's last write that the watch has not
	// brought yet: said once it has (sayDemoWrite).
	demoWrite *demo.Write
}

// demoWrote says a demo writer's write in the status line, e.g.
// `demo-writer set .data.foo = "7" (rv 1043)`, and reads the next. The
// writer of an object left for the browser goes on writing unsaid.
func (m App) demoWrote(msg tea.Msg) (App, tea.Cmd) {
	w, ok := msg.(effect.DemoWrote)
	if !ok {
		// The writer stopped: nothing more to read.
		return m, nil
	}
	if w.From != m.demo || m.screen == screenBrowser {
		return m, effect.ReadDemo(w.From)
	}
	if w.Write.Err != nil {
		m.status.Error(w.Write.Text())
		return m, effect.ReadDemo(w.From)
	}
	if w.Write.Race != nil {
		m.tourRaces++
	}
	m.oncall.demoWrite = &w.Write
	m.sayDemoWrite()
	return m, effect.ReadDemo(w.From)
}

// sayDemoWrite says the demo writer's last write once the session has the
// version it made: said before, the line would describe a state the app
// does not show yet, and the banner the watch then brings would be a new
// state, which drops it.
func (m *App) sayDemoWrite() {
	w := m.oncall.demoWrite
	if w == nil || m.sess == nil {
		return
	}
	live, _ := m.sess.Live()
	if w.ResourceVersion != "" && w.ResourceVersion != live.ResourceVersion && model.NewerResourceVersion(w.ResourceVersion, live.ResourceVersion) {
		return // the watch has not brought it yet
	}
	m.oncall.demoWrite = nil
	m.status.Info(w.Text())
}

// oncallIntent acts on what the timeline and the preview asked for;
// false for any other message.
func (m App) oncallIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case timeline.TakeVersionMsg:
		m.oncall.takeID, m.oncall.takeRV, m.oncall.takeObj = msg.ID, msg.RV, msg.Object
		m.ask(confirmTimelineTake)
	case timeline.ShowVersionMsg:
		c, err := m.sess.TimelineDiff(msg.ID)
		if err != nil {
			m.status.Error(common.ErrorText(err))
			break
		}
		m.timeline.ShowChange(c)
	case timeline.FollowPathMsg:
		// The followed field's value in each version kedit saw.
		m.timeline.SetContent(timelineContent(m.sess, m.timeline.Path()))
	case timeline.CloseMsg, preview.CloseMsg:
		m.pop()
	default:
		return m, nil, false
	}
	return m, nil, true
}

// oncallQuestion is the pending question of the on-call keys.
func (m App) oncallQuestion() escape.Text {
	switch m.confirm.kind {
	case confirmTimelineTake:
		q := "make rv " + m.oncall.takeRV + " the draft?"
		if m.sess.Draft() != nil {
			q += " it replaces the draft you have;"
		}
		return q + " s then saves it over rv " + escape.Safe(m.sess.Base().ResourceVersion) + " (y/n)"
	case confirmGitOps:
		return m.oncall.gitOpsOwner + ". save anyway? (y/n; g writes it to the source instead, b does both)"
	case confirmUndo:
		return "put the lost values back onto the object as it is now, as the draft? it replaces the draft you have (y/n)"
	}
	return ""
}

// answerOncall takes y or n for the on-call keys' questions; the pending
// question c is already cleared.
func (m App) answerOncall(c confirmation, yes bool) (App, tea.Cmd) {
	switch c {
	case confirmTimelineTake:
		if !yes {
			m.status.Info("the draft is as it was")
			return m, nil
		}
		text, err := m.takeText()
		if err != nil {
			m.status.Error(common.ErrorText(err))
			return m, nil
		}
		cmd := m.draftFromTimeline(text)
		switch {
		case m.sess.Draft() == nil:
			// The session drops a draft with base's content.
			m.status.Info("rv " + m.oncall.takeRV + " has what base has: no draft to make")
		case m.sess.Draft().Err == nil:
			m.status.Info("rv " + m.oncall.takeRV + " is the draft, based on rv " + escape.Safe(m.sess.Base().ResourceVersion) +
				": s saves it (a change made on the server meanwhile is still a conflict)")
		}
		return m, cmd
	case confirmUndo:
		u := m.oncall.undo
		m.oncall.undo = nil
		if !yes || u == nil {
			m.status.Info("the draft is as it was")
			return m, nil
		}
		return m.undoOverwrite(*u)
	case confirmGitOps:
		ev := m.oncall.gitOpsSave
		m.oncall.gitOpsSave = nil
		if !yes {
			m.status.Info("not saved; the draft is kept")
			return m, nil
		}
		m.sess.ConfirmGitOps()
		cmd := m.handle(ev)
		return m, cmd
	}
	return m, nil
}

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
			m.push(screenLost)
		}
	case conflict.CloseLostMsg:
		m.pop()
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
	m.goTo(screenObject)
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
			w.Client.User, w.Command()))
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
