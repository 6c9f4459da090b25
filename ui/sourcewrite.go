package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/source"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/sourceplan"
	"github.com/kedit/kedit/ui/sourcediff"
)

// The draft written to the object's source manifests instead of the live
// object: g at a GitOps owner's question finds the source and plans the
// edit (package source: its contract checked by building again), the
// source diff shows it, and y writes the files, c commits them too.

// writeBack is the planned edit the source diff shows: of the object
// shown, or of a set's GitOps objects, one for each of refs; back is the
// screen esc and the writing go back to.
type writeBack struct {
	edits []*source.Edit
	refs  []source.Ref
	back  screen
}

// planSource plans, in a command, the edits of the drafts of objects sts
// (the object shown, or a set's GitOps objects) in their sources: each
// found under Config.SourceDir (else the git work tree of the current
// directory), where the path its GitOps owner builds says when its origin
// annotation does not, and planned on the files as the ones before it left
// them, so that two edits of one file both land. back is the screen the
// source diff goes back to.
func (m App) planSource(back screen, sts ...*objectState) (App, tea.Cmd) {
	var drafts []sourceplan.Draft
	var ids []effect.ID
	for _, st := range sts {
		d := st.sess.Draft()
		if d == nil || d.Object == nil || st.sess.Base().Object == nil {
			continue
		}
		sd := sourceplan.Draft{Base: st.sess.Base().Object.DeepCopy(), Mine: d.Object.DeepCopy()}
		if st.opened != nil {
			sd.ReadPath = st.opened.GitOpsPath
		}
		drafts, ids = append(drafts, sd), append(ids, st.id)
	}
	if len(drafts) == 0 {
		m.status.Info("no draft to write to the source")
		return m, nil
	}
	if back == screenObject {
		m.status.Info("finding the object's source ...")
	}
	return m, effect.PlanSource(m.ctx, m.cfg.SourceDir, drafts, ids, back == screenSet)
}

// sourcePlanned shows the planned edits in the source diff, or says why
// none could be planned: of the object shown, unless it was left
// meanwhile (its draft is kept), or of the set's objects.
func (m App) sourcePlanned(msg effect.SourcePlanned) App {
	switch {
	case msg.Set && m.set == nil:
		return m
	case !msg.Set:
		if _, shown := m.whose(msg.Of[0]); !shown {
			return m
		}
	}
	if len(msg.Plans) == 0 && !msg.Set && len(msg.Failed) == 1 && errors.Is(msg.Failed[0].Err, source.ErrAlreadyHeld) {
		m.status.Info(escape.Safe(msg.Failed[0].Err.Error()))
		return m
	}
	if len(msg.Plans) == 0 {
		m.status.Error("not written to the source: " + escape.Safe(sourceplan.FailuresText(msg.Failed, msg.Set)))
		return m
	}
	w := &writeBack{back: screenObject}
	if msg.Set {
		w.back = screenSet
	}
	for _, p := range msg.Plans {
		w.edits, w.refs = append(w.edits, p.Edit), append(w.refs, p.Src.Ref)
	}
	c := sourceplan.SetContent(msg.Plans, msg.Failed)
	if !msg.Set {
		c = sourceplan.OneContent(msg.Plans[0])
	}
	m.writeBack = w
	m.sourceView.SetContent(c)
	m.push(screenSource)
	m.status.Info("y writes the files, c commits them on a new branch, esc writes nothing")
	return m
}

// sourceIntent acts on the source diff's intents; false for any other
// message.
func (m App) sourceIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case sourcediff.CloseMsg:
		back := screenObject
		if m.writeBack != nil {
			back = m.writeBack.back
		}
		m.writeBack = nil
		m.goTo(back)
		if back == screenSet {
			m.status.Info("nothing written; the drafts are kept")
		} else {
			m.status.Info("nothing written; the draft is kept")
		}
		return m, nil, true
	case sourcediff.WriteMsg:
		w := m.writeBack
		if w == nil {
			return m, nil, true
		}
		m.status.Info("writing the files ...")
		return m, effect.WriteSource(w.edits, w.refs, msg.Commit), true
	case effect.SourcePlanned:
		return m.sourcePlanned(msg), nil, true
	case effect.SourceFound:
		m.sourceFound(msg)
		return m, nil, true
	case effect.SourceWritten:
		if msg.Err != nil {
			m.status.Error("not written: " + escape.Safe(msg.Err.Error()))
			return m, nil, true
		}
		back := screenObject
		if m.writeBack != nil {
			back = m.writeBack.back
		}
		m.writeBack = nil
		m.goTo(back)
		said := "wrote " + words.Count(msg.Files, "file") + " of the source"
		if msg.Branch != "" {
			said = "committed " + words.Count(msg.Files, "file") + " of the source on branch " + msg.Branch + " (not pushed; your checkout is as it was)"
		}
		if back == screenObject && m.sess.Draft() != nil {
			said += "; the live object is not saved, the draft is kept"
		}
		m.status.Info(escape.Safe(said))
		return m, nil, true
	}
	return m, nil, false
}

// takePlanAfterSave returns the source's plan held for the save's end,
// once.
func (m *App) takePlanAfterSave() tea.Cmd {
	cmd := m.planAfterSave
	m.planAfterSave = nil
	return cmd
}

// The object view names the object's source before any save: which file
// and which kustomization produce it, or why none, or the Helm chart that
// made it. It is found once per object, in a command, and only where the
// manifests are known to be: under --source, or in the git work tree of
// the current directory for an object that says it comes from manifests
// (a GitOps owner, kustomize's origin annotation, Helm's labels), so that
// kedit started in any repository does not search it for every object.

// sourceLineState is what the object view says of the object's source.
type sourceLineState struct {
	asked bool
	line  escape.Text
}

// findSourceOnce finds the shown object's source once, off the UI
// goroutine.
func (m *App) findSourceOnce() tea.Cmd {
	if m.objectState == nil || m.srcLine.asked || m.screen != screenObject || m.sess == nil {
		return nil
	}
	base := m.sess.Base().Object
	if base == nil || (m.target != nil && m.target.Subresource != "") {
		return nil
	}
	m.srcLine.asked = true
	dir := m.cfg.SourceDir
	if dir == "" && (m.target == nil || !sourceplan.FromManifests(base)) {
		// The work tree is searched for an object opened from the
		// cluster only, whose GitOps owner's path can be read.
		return nil
	}
	var readPath kube.GitOpsPathReader
	if m.opened != nil {
		readPath = m.opened.GitOpsPath
	}
	ctx, id, obj := m.ctx, m.id, base.DeepCopy()
	return effect.FindSource(id, func() escape.Text { return sourceplan.Line(ctx, dir, obj, readPath) })
}

// sourceFound gives the object its source's line.
func (m *App) sourceFound(msg effect.SourceFound) {
	if st, _ := m.whose(msg.Of); st != nil {
		st.srcLine.line = msg.Line
	}
	m.refresh()
}
