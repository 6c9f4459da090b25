package ui

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/source"
)

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

// sourceFoundMsg is the object view's line of the object's source; ""
// says nothing.
type sourceFoundMsg struct {
	of   objectID
	line escape.Text
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
	if dir == "" && (m.target == nil || !fromManifests(base)) {
		// The work tree is searched for an object opened from the
		// cluster only, whose GitOps owner's path can be read.
		return nil
	}
	var readPath kube.GitOpsPathReader
	if m.opened != nil {
		readPath = m.opened.GitOpsPath
	}
	ctx, id, obj := m.ctx, m.id, base.DeepCopy()
	return func() tea.Msg {
		return sourceFoundMsg{of: id, line: findSourceLine(ctx, dir, obj, readPath)}
	}
}

// fromManifests says whether obj says it was made from manifests.
func fromManifests(obj *unstructured.Unstructured) bool {
	if _, ok := model.GitOpsOwnerOf(obj); ok {
		return true
	}
	h := source.HintsOf(obj)
	return h.Origin != "" || h.Chart != ""
}

// findSourceLine is the line naming obj's source under dir (given with
// --source), else under the git work tree of the current directory, where
// an object it does not hold says nothing.
func findSourceLine(ctx context.Context, dir string, obj *unstructured.Unstructured, readPath kube.GitOpsPathReader) escape.Text {
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
		return escape.Safe("source: " + sourceWhere(src))
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

// sourceFound gives the object its source's line.
func (m *App) sourceFound(msg sourceFoundMsg) {
	if st, _ := m.whose(msg.of); st != nil {
		st.srcLine.line = msg.line
	}
	m.refresh()
}
