package ui

import (
	"context"
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

// g and b at a set's GitOps question write the drafts of its GitOps
// objects to their sources, as for one object: each object's source is
// found and its edit planned (package source, the contract checked by
// building again), and the source diff shows them all before y writes
// them and c commits them in one commit.

// setSourcePlannedMsg is the planned edits of the set's GitOps objects;
// failed says, a line each, the objects that could not be planned.
type setSourcePlannedMsg struct {
	plans  []memberPlan
	failed []string
}

// memberPlan is one object's planned edit.
type memberPlan struct {
	src    *source.Source
	edit   *source.Edit
	secret bool
	// warning says what the search missed (kube.SourceHints).
	warning string
	// caught is what libraries printed while it was planned.
	caught []string
}

// memberDraft is what planning one object's edit reads of it.
type memberDraft struct {
	base, mine *unstructured.Unstructured
	readPath   kube.GitOpsPathReader
}

// planSetSource plans, in a command, the edits of the drafts of the set's
// objects members in their sources.
func (m App) planSetSource(members []int) (App, tea.Cmd) {
	var drafts []memberDraft
	for _, i := range members {
		st := m.member(i)
		d := st.sess.Draft()
		if d == nil || d.Object == nil || st.sess.Base().Object == nil {
			continue
		}
		md := memberDraft{base: st.sess.Base().Object.DeepCopy(), mine: d.Object.DeepCopy()}
		if st.opened != nil {
			md.readPath = st.opened.GitOpsPath
		}
		drafts = append(drafts, md)
	}
	if len(drafts) == 0 {
		m.status.Info("no draft to write to the source")
		return m, nil
	}
	dir, ctx := m.cfg.SourceDir, m.ctx
	return m, func() tea.Msg {
		if dir == "" {
			out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
			if err != nil {
				return setSourcePlannedMsg{failed: []string{errNoSourceDir.Error()}}
			}
			dir = strings.TrimSpace(string(out))
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		caught := libout.Running()
		var out setSourcePlannedMsg
		// Each object's edit is planned on the files as the ones before
		// it left them, so that two edits of one file both land.
		var planned []*source.Edit
		for _, d := range drafts {
			ref := source.RefOf(d.base)
			mark := caught.Mark()
			hints, warning, err := kube.SourceHints(ctx, d.base, d.readPath)
			var src *source.Source
			if err == nil {
				src, err = source.Find(dir, ref, hints)
			}
			var e *source.Edit
			if err == nil {
				e, err = source.PlanOn(planned, src, d.base, d.mine)
			}
			if err != nil {
				why := err.Error()
				if warning != "" {
					why = warning + ": " + why
				}
				out.failed = append(out.failed, ref.String()+": not written: "+why)
				continue
			}
			planned = append(planned, e)
			out.plans = append(out.plans, memberPlan{src: src, edit: e, secret: diff.IsSecret(d.base), warning: warning, caught: caught.Since(mark)})
		}
		return out
	}
}

// setSourcePlanned shows the set's planned edits in the source diff, or
// says why none could be planned.
func (m App) setSourcePlanned(msg setSourcePlannedMsg) App {
	if m.set == nil {
		return m
	}
	if len(msg.plans) == 0 {
		m.status.Error("not written to the source: " + escape.Safe(strings.Join(msg.failed, "; ")))
		return m
	}
	w := &writeBack{back: screenSet}
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
		c.Where = append(c.Where, escape.Safe(f))
	}
	c.Object = escape.Safe(words.Count(len(names), "object") + " (" + strings.Join(names, ", ") + ")")
	m.writeBack = w
	m.sourceView.SetContent(c)
	m.screen = screenSource
	m.status.Info("y writes the files, c commits them on a new branch, esc writes nothing")
	return m
}
