package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/editfile"
)

// The draft in $EDITOR: the file and the editor are ui/internal/editfile's;
// what goes at the file's top (why the draft was refused) and what comes
// back are the app's.

// RemoveEditorFiles removes the $EDITOR files no running kedit has open:
// those of kedits that are gone, and with self, this kedit's own, as it
// ends (editfile.RemoveStale).
func RemoveEditorFiles(self bool) error { return editfile.RemoveStale(self) }

// editCmd runs $EDITOR on text with head at the file's top; what it left
// comes back as an editorFinishedMsg.
func editCmd(head editfile.Head, text string, merged bool, format model.Format) tea.Cmd {
	return editfile.Cmd(head, text, merged, format, func(r editfile.Result) tea.Msg {
		return editorFinishedMsg{text: r.Text, original: r.Original, merged: r.Merged, err: r.Err}
	})
}

// editorFinished hands what $EDITOR left in the file to the session.
func (m App) editorFinished(msg editorFinishedMsg) (App, tea.Cmd) {
	switch {
	case msg.err != nil:
		m.status.Error("editor: " + common.ErrorText(msg.err) + " (the draft is unchanged)")
		return m, nil
	case msg.text == msg.original:
		m.status.Info("no change")
		return m, nil
	case msg.merged:
		cmd, _ := m.mergedEdited(msg.text)
		if d := m.sess.Draft(); m.sess.Rebase() == nil && d != nil && d.Err == nil && d.Text == msg.text {
			// Taken, the merged result is the draft: checked as one.
			cmd = tea.Batch(cmd, m.diagnose(false, d.Text, d.Object))
		}
		return m, cmd
	}
	cmd := m.handle(model.DraftEdited{Text: msg.text, From: msg.original})
	if d := m.sess.Draft(); d != nil && d.Err == nil && d.Text == msg.text {
		cmd = tea.Batch(cmd, m.diagnose(false, d.Text, d.Object))
	}
	return m, cmd
}

// refusalsOf are why the object's text was refused: its last save's
// causes, and the schema's word when it is on text.
func (st *objectState) refusalsOf(text string) []editfile.Refusal {
	var causes []model.FieldCause
	if f := st.sess.Failure(); f != nil {
		causes = f.Causes
	}
	var found []schemacheck.Diagnostic
	if st.diag.text == text {
		found = refusedOf(st.diag.found)
	}
	return editfile.Refusals(text, causes, found, st.sess.Ref().IsSecret())
}

// refusedHead is the head of the $EDITOR file of text, the draft (or
// the merged result): the server's field causes of its refused save and
// the schema's word on it, each with its line in the file (the head's
// lines and extra counted). Nothing when text was not refused.
func (m App) refusedHead(text string, extra int) []string {
	return editfile.HeadOf("kedit: the draft was refused; these lines go when the file is saved", m.objectState.refusalsOf(text), extra)
}

// mergedHead makes, off the UI's goroutine, the head of the $EDITOR
// file of text, the rebase's merged result not checked yet: the reasons
// of refusedHead with the schema's word on text. Nil without a check.
func (m App) mergedHead(text string) func() ([]string, []string) {
	if m.opened == nil || m.opened.Check == nil {
		return nil
	}
	var causes []model.FieldCause
	if f := m.sess.Failure(); f != nil {
		causes = f.Causes
	}
	check, ctx, format, ref := m.opened.Check, m.ctx, m.sess.Format(), m.sess.Ref()
	secret := ref.IsSecret()
	// The merged result is sent on theirs, which the server holds.
	old := m.sess.Base().Object
	if r := m.sess.Rebase(); r != nil {
		old = r.Theirs.Object
	}
	return func() ([]string, []string) {
		var found []schemacheck.Diagnostic
		if p := format.ParseDraft(text); p.Err(ref) == nil && p.Object() != nil {
			found, _ = check(ctx, text, p.Object(), old)
			found = refusedOf(found)
		}
		rs := editfile.Refusals(text, causes, found, secret)
		title := "kedit: the merged result is refused; these lines go when the file is saved"
		return editfile.HeadOf(title, rs, 0), editfile.HeadOf(title, rs, 1)
	}
}

// setRefusedHead is the head of the $EDITOR file of e, a set's List:
// each object's reasons, as refusedHead's, on their lines of the List.
func (m App) setRefusedHead(e *model.SetEdit) []string {
	if len(e.Lines) != len(e.Members) {
		return nil // a refused text given back: its items are not known
	}
	var rs []editfile.Refusal
	for k, i := range e.Members {
		st := m.member(i)
		text, err := st.sess.DraftText()
		if err != nil {
			continue
		}
		key := keyOf(st.target)
		name := kube.ResourceName(key.Resource) + "/" + key.Name
		for _, r := range st.refusalsOf(text) {
			if r.Line > 0 {
				r.Line += e.Lines[k] - 1
			}
			r.Of = name
			rs = append(rs, r)
		}
	}
	return editfile.HeadOf("kedit: drafts were refused; these lines go when the file is saved", rs, 0)
}
