package ui

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/libout"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/source"
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

// sourcePlannedMsg is the planned edits of the drafts of objects in their
// sources, one for each object whose edit could be planned, and why the
// others' could not; back is the screen the source diff goes back to.
type sourcePlannedMsg struct {
	// of are the objects whose drafts they are.
	of     []objectID
	back   screen
	plans  []sourcePlan
	failed []planFailure
}

// sourcePlan is one object's planned edit.
type sourcePlan struct {
	src    *source.Source
	edit   *source.Edit
	secret bool
	// warning says what the search missed: the path of a GitOps owner
	// the user may not read (kube.SourceHints).
	warning string
	// caught is what libraries printed while it was planned: the
	// build's warnings.
	caught []string
}

// planFailure is why one object's edit could not be planned: ref names
// it ("" when no object was looked at), warning what the search missed.
type planFailure struct {
	ref, warning string
	err          error
}

// sourceWrittenMsg says the files were written (and committed on branch).
type sourceWrittenMsg struct {
	files  int
	branch string
	err    error
}

// sourceDraft is what planning one object's edit reads of it.
type sourceDraft struct {
	base, mine *unstructured.Unstructured
	readPath   kube.GitOpsPathReader
}

// planSource plans, in a command, the edits of the drafts of objects sts
// (the object shown, or a set's GitOps objects) in their sources: each
// found under Config.SourceDir (else the git work tree of the current
// directory), where the path its GitOps owner builds says when its origin
// annotation does not, and planned on the files as the ones before it left
// them, so that two edits of one file both land. back is the screen the
// source diff goes back to.
func (m App) planSource(back screen, sts ...*objectState) (App, tea.Cmd) {
	var drafts []sourceDraft
	var ids []objectID
	for _, st := range sts {
		d := st.sess.Draft()
		if d == nil || d.Object == nil || st.sess.Base().Object == nil {
			continue
		}
		sd := sourceDraft{base: st.sess.Base().Object.DeepCopy(), mine: d.Object.DeepCopy()}
		if st.opened != nil {
			sd.readPath = st.opened.GitOpsPath
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
	dir, ctx := m.cfg.SourceDir, m.ctx
	return m, func() tea.Msg {
		out := sourcePlannedMsg{of: ids, back: back}
		if dir == "" {
			git, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
			if err != nil {
				out.failed = []planFailure{{err: errNoSourceDir}}
				return out
			}
			dir = strings.TrimSpace(string(git))
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		// What libraries print while an edit is planned (kustomize's
		// warnings) is each plan's own.
		caught := libout.Running()
		var planned []*source.Edit
		for _, d := range drafts {
			ref := source.RefOf(d.base)
			mark := caught.Mark()
			hints, warning, err := kube.SourceHints(ctx, d.base, d.readPath)
			if warning != "" {
				warning += "; the manifests under " + dir + " were searched"
			}
			var src *source.Source
			if err == nil {
				src, err = source.Find(dir, ref, hints)
			}
			var e *source.Edit
			if err == nil {
				e, err = source.PlanOn(planned, src, d.base, d.mine)
			}
			if err != nil {
				out.failed = append(out.failed, planFailure{ref: ref.String(), warning: warning, err: err})
				continue
			}
			planned = append(planned, e)
			out.plans = append(out.plans, sourcePlan{src: src, edit: e, secret: diff.IsSecret(d.base), warning: warning, caught: caught.Since(mark)})
		}
		return out
	}
}

type sourceDirError struct{}

func (sourceDirError) Error() string {
	return "kedit runs in no git work tree: start it with --source DIR, the checkout of the manifests"
}

var errNoSourceDir error = sourceDirError{}

// sourcePlanned shows the planned edits in the source diff, or says why
// none could be planned: of the object shown, unless it was left
// meanwhile (its draft is kept), or of the set's objects.
func (m App) sourcePlanned(msg sourcePlannedMsg) App {
	switch {
	case msg.back == screenSet && m.set == nil:
		return m
	case msg.back != screenSet:
		if _, shown := m.whose(msg.of[0]); !shown {
			return m
		}
	}
	if len(msg.plans) == 0 && msg.back != screenSet && len(msg.failed) == 1 && errors.Is(msg.failed[0].err, source.ErrAlreadyHeld) {
		m.status.Info(escape.Safe(msg.failed[0].err.Error()))
		return m
	}
	if len(msg.plans) == 0 {
		m.status.Error("not written to the source: " + escape.Safe(failuresText(msg.failed, msg.back == screenSet)))
		return m
	}
	w := &writeBack{back: msg.back}
	var c sourcediff.Content
	if msg.back != screenSet {
		p := msg.plans[0]
		w.edits, w.refs = []*source.Edit{p.edit}, []source.Ref{p.src.Ref}
		c = sourceContent(p.src, p.edit, p.secret, p.caught)
		if p.warning != "" {
			c.Where = append([]escape.Text{escape.Safe("warning: " + p.warning)}, c.Where...)
		}
	} else {
		c = setSourceContent(w, msg)
	}
	m.writeBack = w
	m.sourceView.SetContent(c)
	m.push(screenSource)
	m.status.Info("y writes the files, c commits them on a new branch, esc writes nothing")
	return m
}

// failuresText says why no edit could be planned: for one object, what
// the search missed and why; for several, a line each naming the object.
func failuresText(failed []planFailure, several bool) string {
	var lines []string
	for _, f := range failed {
		why := f.err.Error()
		if f.warning != "" {
			why = f.warning + ": " + why
		}
		if several && f.ref != "" {
			why = f.ref + ": not written: " + why
		}
		lines = append(lines, why)
	}
	return strings.Join(lines, "; ")
}

// setSourceContent is what the source diff draws of the planned edits of
// a set's objects, each under its name, the ones that could not be
// planned said after them; w takes the edits.
func setSourceContent(w *writeBack, msg sourcePlannedMsg) sourcediff.Content {
	var names []string
	c := sourcediff.Content{Several: len(msg.plans) > 1}
	for _, p := range msg.plans {
		w.edits, w.refs = append(w.edits, p.edit), append(w.refs, p.src.Ref)
		names = append(names, p.src.Ref.String())
		one := sourceContent(p.src, p.edit, p.secret, p.caught)
		where := append([]escape.Text{escape.Safe(p.src.Ref.String() + ":")}, one.Where...)
		if p.warning != "" {
			where = append(where, escape.Safe("warning: "+p.warning))
		}
		c.Where = append(c.Where, where...)
		c.Notes = append(c.Notes, one.Notes...)
		c.Diff = append(c.Diff, one.Diff...)
	}
	for _, f := range msg.failed {
		c.Where = append(c.Where, escape.Safe(failuresText([]planFailure{f}, true)))
	}
	c.Object = escape.Safe(words.Count(len(names), "object") + " (" + strings.Join(names, ", ") + ")")
	return c
}

// sourceWhere says which file and which kustomization produce the
// object, and how they were found.
func sourceWhere(src *source.Source) string {
	where := "from " + src.File
	if src.Kustomization != "" {
		where = "built by " + src.Kustomization + ", " + where
	}
	if src.Generator != "" {
		where = "built by " + src.Kustomization + ", its " + src.Generator + " in " + src.GeneratorIn
	}
	where += " (found by " + src.Via + ")"
	if src.Note != "" {
		where += "; " + src.Note
	}
	return where
}

// sourceContent is what the source diff draws of a planned edit.
// caught is what libraries printed while it was planned: the build's
// warnings.
func sourceContent(src *source.Source, e *source.Edit, secret bool, caught []string) sourcediff.Content {
	c := sourcediff.Content{Object: escape.Safe(src.Ref.String())}
	c.Where = append(c.Where, escape.Safe(sourceWhere(src)))
	for _, p := range e.Placed {
		c.Where = append(c.Where, escape.Safe(p.String()))
	}
	for _, n := range e.Notes {
		c.Notes = append(c.Notes, escape.Safe(n))
	}
	for _, l := range caught {
		c.Notes = append(c.Notes, escape.Safe("warning: "+l))
	}
	for _, f := range e.Files {
		if secret {
			c.Diff = append(c.Diff, escape.Safe(f.Path+": changed (a Secret's values are not shown)"))
			continue
		}
		for _, l := range strings.Split(strings.TrimSuffix(f.Unified(), "\n"), "\n") {
			c.Diff = append(c.Diff, escape.Safe(l))
		}
	}
	return c
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
		return m, func() tea.Msg {
			var out sourceWrittenMsg
			// A set's edits, planned one on another, are written as one:
			// every file is checked before any is written. c commits
			// them on a new branch instead, the checkout left as it is.
			all, err := source.Combine(w.edits)
			switch {
			case err != nil:
			case msg.Commit:
				out.branch, err = source.CommitAll(w.edits, w.refs)
			default:
				err = all.Write()
			}
			if err != nil {
				out.err = err
				return out
			}
			out.files = len(all.Files)
			return out
		}, true
	case sourcePlannedMsg:
		return m.sourcePlanned(msg), nil, true
	case sourceFoundMsg:
		m.sourceFound(msg)
		return m, nil, true
	case sourceWrittenMsg:
		if msg.err != nil {
			m.status.Error("not written: " + escape.Safe(msg.err.Error()))
			return m, nil, true
		}
		back := screenObject
		if m.writeBack != nil {
			back = m.writeBack.back
		}
		m.writeBack = nil
		m.goTo(back)
		said := "wrote " + words.Count(msg.files, "file") + " of the source"
		if msg.branch != "" {
			said = "committed " + words.Count(msg.files, "file") + " of the source on branch " + msg.branch + " (not pushed; your checkout is as it was)"
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
