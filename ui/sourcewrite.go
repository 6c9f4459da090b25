package ui

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

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

// sourcePlannedMsg is the planned edit of the draft's source, or why
// there is none.
type sourcePlannedMsg struct {
	// of is the object whose draft it is.
	of   objectID
	src  *source.Source
	edit *source.Edit
	// warning says what the search missed: the path of a GitOps owner
	// the user may not read.
	warning string
	// caught is what libraries printed while it was planned.
	caught []string
	err    error
}

// sourceWrittenMsg says the files were written (and committed on branch).
type sourceWrittenMsg struct {
	files  int
	branch string
	err    error
}

// planSource finds the draft's source under Config.SourceDir (else the
// git work tree of the current directory), where the path its GitOps
// owner builds says when its origin annotation does not, and plans the
// edit, in a command.
func (m App) planSource() (App, tea.Cmd) {
	d := m.sess.Draft()
	if d == nil || d.Object == nil {
		m.status.Info("no draft to write to the source")
		return m, nil
	}
	base, mine, dir, id := m.sess.Base().Object.DeepCopy(), d.Object.DeepCopy(), m.cfg.SourceDir, m.id
	var readPath kube.GitOpsPathReader
	if m.opened != nil {
		readPath = m.opened.GitOpsPath
	}
	ctx := m.ctx
	m.status.Info("finding the object's source ...")
	return m, func() tea.Msg {
		if dir == "" {
			out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
			if err != nil {
				return sourcePlannedMsg{of: id, err: errNoSourceDir}
			}
			dir = strings.TrimSpace(string(out))
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, mark := libout.Running(), libout.Running().Mark()
		hints, warning, err := kube.SourceHints(ctx, base, readPath)
		if err != nil {
			return sourcePlannedMsg{of: id, err: err}
		}
		if warning != "" {
			warning += "; the manifests under " + dir + " were searched"
		}
		src, err := source.Find(dir, source.RefOf(base), hints)
		if err != nil {
			return sourcePlannedMsg{of: id, warning: warning, err: err}
		}
		e, err := source.Plan(src, base, mine)
		return sourcePlannedMsg{of: id, src: src, edit: e, warning: warning, caught: out.Since(mark), err: err}
	}
}

type sourceDirError struct{}

func (sourceDirError) Error() string {
	return "kedit runs in no git work tree: start it with --source DIR, the checkout of the manifests"
}

var errNoSourceDir error = sourceDirError{}

// sourcePlanned shows the planned edit in the source diff.
func (m App) sourcePlanned(msg sourcePlannedMsg) App {
	if _, shown := m.whose(msg.of); !shown {
		return m // the object was left meanwhile: its draft is kept
	}
	if errors.Is(msg.err, source.ErrAlreadyHeld) {
		m.status.Info(escape.Safe(msg.err.Error()))
		return m
	}
	if msg.err != nil {
		said := msg.err.Error()
		if msg.warning != "" {
			said = msg.warning + ": " + said
		}
		m.status.Error("not written to the source: " + escape.Safe(said))
		return m
	}
	m.writeBack = &writeBack{edits: []*source.Edit{msg.edit}, refs: []source.Ref{msg.src.Ref}, back: screenObject}
	c := sourceContent(msg.src, msg.edit, diff.IsSecret(m.sess.Base().Object), msg.caught)
	if msg.warning != "" {
		c.Where = append([]escape.Text{escape.Safe("warning: " + msg.warning)}, c.Where...)
	}
	m.sourceView.SetContent(c)
	m.screen = screenSource
	m.status.Info("y writes the files, c commits them on a new branch, esc writes nothing")
	return m
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
		m.writeBack, m.screen = nil, back
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
	case setSourcePlannedMsg:
		return m.setSourcePlanned(msg), nil, true
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
		m.writeBack, m.screen = nil, back
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
