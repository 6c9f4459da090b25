package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/say"
)

// The server's own checks of a draft before it is saved: the save's own
// request sent with dryRun=All, never a write (kube.Runner.ServerCheck),
// off the UI's goroutine. Many limits live in the API server's code, not
// in the schema it publishes (a replicas below 0, a Service port above
// 65535, a CronJob's schedule): only the server can say them.
//
// The in-app editor asks once the schema passes the text and typing has
// paused (editor.ServerCheckMsg: one question out at a time, each text
// once, an answer of a text changed since dropped); a draft back from
// $EDITOR is asked once the schema passes it, before the first s. The
// answer's reasons are the draft's diagnostics beside the schema's, marked
// the server's: drawn on their lines in the editor, said in the status bar
// for $EDITOR's draft, holding the save for a second asking as the
// schema's do, and listed at the head of the $EDITOR file when it opens
// again.
//
// Nothing is sent for an object with no server to ask, for a user who may
// not update it (the access check, objectintents.go: a dry run needs the
// right as a save does), or while the connection is down; one line says
// why (say.ServerNotAsked), once each time the editor opens. A 409 is no
// diagnostic: the banner says the object changed.

// ServerCheck asks the API server whether it would take a draft
// (effect.ServerCheck).
type ServerCheck = effect.ServerCheck

// serverState is what the app keeps of the server's checks of an
// object's drafts.
type serverState struct {
	// offline: a dry run found no server; none is sent until the watch
	// says the server answers again, or the editor opens again.
	offline bool
	// said is the line said of why none is sent, since the editor opened
	// (or the draft came back from $EDITOR): said once. shown is the last
	// one said, taken off the status bar when the checks are on again.
	said, shown escape.Text
	// asked is the draft's text last sent from the object view (a draft
	// back from $EDITOR): each text is asked once, however many answers
	// (the schema's, the access check's) say it may be.
	asked string
}

// serverMay reports whether o's drafts may be asked of the server now,
// and if not why, for the user (nil: there is no server to ask, or
// whether the user may update the object is not known yet: nothing to
// say).
func (o *objectState) serverMay() (bool, error) {
	switch {
	case o.opened == nil || o.opened.ServerCheck == nil:
		return false, nil
	case o.access.denied != nil:
		return false, o.access.denied
	case o.server.offline || o.connKnown && o.conn.State == kube.Reconnecting:
		err := o.conn.Err
		if err == nil {
			err = errors.New("no connection")
		}
		return false, &kube.UnavailableError{NotSent: true, Err: err}
	case o.opened.MaySave != nil && !o.access.known:
		// Asked (objectintents.go): the answer turns the checks on.
		return false, nil
	}
	return true, nil
}

// serverFailed learns from a dry run the server did not judge: a user who
// may not update the object, or no server to ask.
func (o *objectState) serverFailed(err error) {
	var forbidden *kube.ForbiddenError
	var unavailable *kube.UnavailableError
	switch {
	case errors.As(err, &forbidden):
		o.access.denied, o.access.known = forbidden, true
	case errors.As(err, &unavailable):
		o.server.offline = true
	}
}

// serverChecks turns the in-app editor's server checks on or off, as the
// object shown may be asked now, and says why not, once; the command is
// the question of the text as it is, when turned on.
func (m *App) serverChecks() tea.Cmd {
	if m.screen != screenEditor || m.objectState == nil {
		return nil
	}
	may, why := m.serverMay()
	if may && m.server.shown != "" && m.status.Text() == string(m.server.shown) {
		// On again: why they were off is no longer true.
		m.status.Info("")
	}
	if may {
		m.server.shown = ""
	}
	switch {
	case why != nil:
		m.sayServerNotAsked(why)
	case m.access.denied != nil:
		// No server checks to say it with.
		m.sayDenied()
	}
	return m.editor.SetServerChecks(may)
}

// sayServerNotAsked says why the server's checks are not sent (err), once
// until the editor opens again. It stays while the object shows, as the
// drafts typed meanwhile change (the checks stay off), until the checks
// are on again.
func (m *App) sayServerNotAsked(err error) {
	line := say.ServerNotAsked(err)
	if line == "" || line == m.server.said {
		return
	}
	m.server.said, m.server.shown = line, line
	m.status.ObjectError(line)
}

// askServer sends the in-app editor's question q, the text the schema
// passed, when the server may be asked; else the editor is answered
// with nothing at once (one question is out at a time: each is answered).
func (m App) askServer(q editor.ServerCheckMsg) (App, tea.Cmd) {
	may, _ := m.serverMay()
	if !may || m.screen != screenEditor || q.Opening != m.editor.Opening() {
		return m, m.editor.ServerChecked(q.Opening, q.Version, nil)
	}
	// The merged result is sent on theirs, which the server holds.
	base := m.sess.Base().Object
	if r := m.sess.Rebase(); m.editingMerged && r != nil {
		base = r.Theirs.Object
	}
	msg := effect.ServerChecked{Of: m.id, InEditor: true, Opening: q.Opening, Version: q.Version, Text: q.Text}
	return m, effect.AskServer(m.ctx, m.opened.ServerCheck, m.sess.Format(), base, nil, msg)
}

// serverCheckDraft asks the server's check of the shown object's draft,
// back from $EDITOR and passed by the schema, when the server may be
// asked; else says why not.
func (m *App) serverCheckDraft() tea.Cmd {
	d := m.sess.Draft()
	if d == nil || d.Err != nil || m.sess.Rebase() != nil {
		return nil
	}
	may, why := m.serverMay()
	if !may {
		m.sayServerNotAsked(why)
		return nil
	}
	if m.server.asked == d.Text {
		return nil
	}
	m.server.asked = d.Text
	msg := effect.ServerChecked{Of: m.id, Text: d.Text}
	return effect.AskServer(m.ctx, m.opened.ServerCheck, m.sess.Format(), m.sess.Base().Object, d.Object, msg)
}

// serverChecked takes the server's word on a draft: the object keeps it
// for its next save and the $EDITOR file's head; the in-app editor draws
// it on its lines (and is answered in any case, so that it may ask
// again); for a draft back from $EDITOR, the status bar says it. A dry
// run the server did not judge says why, once, and a user who may not
// update the object, or no server, turns the checks off.
func (m App) serverChecked(msg effect.ServerChecked) (App, tea.Cmd) {
	st, shown := m.whose(msg.Of)
	if st == nil {
		return m, nil // let go of meanwhile
	}
	if msg.Err == nil {
		st.diag.server, st.diag.serverText = msg.Found, msg.Text
	}
	st.serverFailed(msg.Err)
	if !shown {
		return m, nil
	}
	if msg.InEditor {
		var ds []editor.Diagnostic
		if msg.Err == nil {
			ds = m.editorDiagnostics(msg.Found)
		}
		cmd := m.editor.ServerChecked(msg.Opening, msg.Version, ds)
		if msg.Err != nil {
			cmd = tea.Batch(cmd, m.serverChecks())
			m.sayServerNotAsked(msg.Err)
		}
		return m, cmd
	}
	if msg.Err != nil {
		// Not judged: the same text may be asked again.
		st.server.asked = ""
		m.sayServerNotAsked(msg.Err)
		return m, nil
	}
	if d := m.sess.Draft(); d == nil || d.Text != msg.Text {
		return m, nil
	}
	if refused := refusedOf(msg.Found); len(refused) > 0 {
		m.status.Error(m.diagnosticsText(refused))
	} else if len(msg.Found) > 0 {
		m.status.Info(m.droppedText(msg.Found))
	}
	return m, nil
}
