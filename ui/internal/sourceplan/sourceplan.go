// Package sourceplan is the app's side of package source: an object's
// source found and the drafts' edits planned in it, off the UI's
// goroutine, and what the object view and the source diff say of them.
// Only the app uses it; it reads the cluster through kube.SourceHints and
// builds the source diff's Content.
package sourceplan

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/libout"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/source"
	"github.com/kedit/kedit/ui/sourcediff"
)

// Draft is what planning one object's edit reads of it: the version the
// draft is made from, the draft, and how the path its GitOps owner builds
// is read (nil reads nothing).
type Draft struct {
	Base, Mine *unstructured.Unstructured
	ReadPath   kube.GitOpsPathReader
}

// Plan is one object's planned edit.
type Plan struct {
	Src    *source.Source
	Edit   *source.Edit
	Secret bool
	// Warning says what the search missed: the path of a GitOps owner
	// the user may not read (kube.SourceHints).
	Warning string
	// Caught is what libraries printed while it was planned: the build's
	// warnings.
	Caught []string
}

// Failure is why one object's edit could not be planned: Ref names it
// ("" when no object was looked at), Warning what the search missed.
type Failure struct {
	Ref, Warning string
	Err          error
}

type sourceDirError struct{}

func (sourceDirError) Error() string {
	return "kedit runs in no git work tree: start it with --source DIR, the checkout of the manifests"
}

// ErrNoSourceDir is why nothing was planned when kedit was given no
// --source and runs in no git work tree.
var ErrNoSourceDir error = sourceDirError{}

// PlanAll finds the source of each of drafts under dir (else the git work
// tree of the current directory), where the path its GitOps owner builds
// says when its origin annotation does not, and plans its edit on the
// files as the ones before it left them, so that two edits of one file
// both land. It takes up to 30 seconds (the owner's path is read from the
// cluster).
func PlanAll(ctx context.Context, dir string, drafts []Draft) ([]Plan, []Failure) {
	if dir == "" {
		git, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		if err != nil {
			return nil, []Failure{{Err: ErrNoSourceDir}}
		}
		dir = strings.TrimSpace(string(git))
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// What libraries print while an edit is planned (kustomize's
	// warnings) is each plan's own.
	caught := libout.Running()
	var plans []Plan
	var failed []Failure
	var planned []*source.Edit
	for _, d := range drafts {
		ref := source.RefOf(d.Base)
		mark := caught.Mark()
		hints, warning, err := kube.SourceHints(ctx, d.Base, d.ReadPath)
		if warning != "" {
			warning += "; the manifests under " + dir + " were searched"
		}
		var src *source.Source
		if err == nil {
			src, err = source.Find(dir, ref, hints)
		}
		var e *source.Edit
		if err == nil {
			e, err = source.PlanOn(planned, src, d.Base, d.Mine)
		}
		if err != nil {
			failed = append(failed, Failure{Ref: ref.String(), Warning: warning, Err: err})
			continue
		}
		planned = append(planned, e)
		plans = append(plans, Plan{Src: src, Edit: e, Secret: diff.IsSecret(d.Base), Warning: warning, Caught: caught.Since(mark)})
	}
	return plans, failed
}

// FailuresText says why no edit could be planned: for one object, what
// the search missed and why; for several, a line each naming the object.
func FailuresText(failed []Failure, several bool) string {
	var lines []string
	for _, f := range failed {
		why := f.Err.Error()
		if f.Warning != "" {
			why = f.Warning + ": " + why
		}
		if several && f.Ref != "" {
			why = f.Ref + ": not written: " + why
		}
		lines = append(lines, why)
	}
	return strings.Join(lines, "; ")
}

// OneContent is what the source diff draws of one object's planned edit,
// what its search missed first.
func OneContent(p Plan) sourcediff.Content {
	c := content(p)
	if p.Warning != "" {
		c.Where = append([]escape.Text{escape.Safe("warning: " + p.Warning)}, c.Where...)
	}
	return c
}

// SetContent is what the source diff draws of the planned edits of a
// set's objects, each under its name, the ones that could not be planned
// said after them.
func SetContent(plans []Plan, failed []Failure) sourcediff.Content {
	var names []string
	c := sourcediff.Content{Several: len(plans) > 1}
	for _, p := range plans {
		names = append(names, p.Src.Ref.String())
		one := content(p)
		where := append([]escape.Text{escape.Safe(p.Src.Ref.String() + ":")}, one.Where...)
		if p.Warning != "" {
			where = append(where, escape.Safe("warning: "+p.Warning))
		}
		c.Where = append(c.Where, where...)
		c.Notes = append(c.Notes, one.Notes...)
		c.Diff = append(c.Diff, one.Diff...)
	}
	for _, f := range failed {
		c.Where = append(c.Where, escape.Safe(FailuresText([]Failure{f}, true)))
	}
	c.Object = escape.Safe(words.Count(len(names), "object") + " (" + strings.Join(names, ", ") + ")")
	return c
}

// where says which file and which kustomization produce the object, and
// how they were found.
func where(src *source.Source) string {
	w := "from " + src.File
	if src.Kustomization != "" {
		w = "built by " + src.Kustomization + ", " + w
	}
	if src.Generator != "" {
		w = "built by " + src.Kustomization + ", its " + src.Generator + " in " + src.GeneratorIn
	}
	w += " (found by " + src.Via + ")"
	if src.Note != "" {
		w += "; " + src.Note
	}
	return w
}

// content is what the source diff draws of a planned edit: where it
// comes from and where each field goes, the notes (fields left out, the
// build's warnings), and the files' diff (a Secret's values never).
func content(p Plan) sourcediff.Content {
	c := sourcediff.Content{Object: escape.Safe(p.Src.Ref.String())}
	c.Where = append(c.Where, escape.Safe(where(p.Src)))
	for _, pl := range p.Edit.Placed {
		c.Where = append(c.Where, escape.Safe(pl.String()))
	}
	for _, n := range p.Edit.Notes {
		c.Notes = append(c.Notes, escape.Safe(n))
	}
	for _, l := range p.Caught {
		c.Notes = append(c.Notes, escape.Safe("warning: "+l))
	}
	for _, f := range p.Edit.Files {
		if p.Secret {
			c.Diff = append(c.Diff, escape.Safe(f.Path+": changed (a Secret's values are not shown)"))
			continue
		}
		for _, l := range strings.Split(strings.TrimSuffix(f.Unified(), "\n"), "\n") {
			c.Diff = append(c.Diff, escape.Safe(l))
		}
	}
	return c
}

// FromManifests says whether obj says it was made from manifests: a
// GitOps owner, kustomize's origin annotation, Helm's labels.
func FromManifests(obj *unstructured.Unstructured) bool {
	if _, ok := model.GitOpsOwnerOf(obj); ok {
		return true
	}
	h := source.HintsOf(obj)
	return h.Origin != "" || h.Chart != ""
}

// Line is the object view's line naming obj's source under dir (given
// with --source), else under the git work tree of the current directory,
// where an object it does not hold says nothing.
func Line(ctx context.Context, dir string, obj *unstructured.Unstructured, readPath kube.GitOpsPathReader) escape.Text {
	given := dir != ""
	if !given {
		out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		if err != nil {
			return ""
		}
		dir = strings.TrimSpace(string(out))
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	hints, warning, err := kube.SourceHints(ctx, obj, readPath)
	if err != nil {
		if given {
			return escape.Safe("source: not known: " + err.Error())
		}
		return ""
	}
	src, err := source.Find(dir, source.RefOf(obj), hints)
	var tmpl *source.TemplateError
	var none *source.NotFoundError
	switch {
	case err == nil:
		return escape.Safe("source: " + where(src))
	case errors.As(err, &tmpl):
		return escape.Safe("source: " + err.Error())
	case !given:
		return ""
	case errors.As(err, &none):
		if warning != "" {
			return escape.Safe("source: none found under " + dir + ": " + warning + "; " + none.Why)
		}
		return escape.Safe("source: none found under " + dir + ": " + none.Why)
	}
	return escape.Safe("source: not known: " + err.Error())
}
