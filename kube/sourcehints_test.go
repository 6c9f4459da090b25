package kube

import (
	"context"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/source"
)

// TestSourceHints: the owner's path is read only when the object has a
// GitOps owner and no origin annotation naming its file; a path the user
// may not read is a warning, the search going on without it; any other
// error stops it.
func TestSourceHints(t *testing.T) {
	fluxOwned := func(annotations map[string]string) *unstructured.Unstructured {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
		obj.SetLabels(map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"})
		obj.SetAnnotations(annotations)
		return obj
	}
	reads := 0
	reader := func(path string, err error) GitOpsPathReader {
		return func(_ context.Context, o model.GitOpsOwner) (string, string, error) {
			reads++
			if o.Name != "apps" || o.Namespace != "flux-system" {
				t.Errorf("the path of %+v read", o)
			}
			return path, "Flux Kustomization flux-system/apps", err
		}
	}
	ctx := context.Background()

	h, warning, err := SourceHints(ctx, fluxOwned(nil), reader("./apps", nil))
	if err != nil || warning != "" || h.Path != "./apps" || h.PathFrom != "Flux Kustomization flux-system/apps" {
		t.Errorf("owner's path: %+v %q %v", h, warning, err)
	}

	reads = 0
	h, warning, err = SourceHints(ctx, fluxOwned(map[string]string{source.OriginAnnotation: "path: apps/cm.yaml\n"}), reader("./apps", nil))
	if err != nil || warning != "" || h.Path != "" || reads != 0 {
		t.Errorf("an origin naming the file: %+v %q %v, %d reads", h, warning, err, reads)
	}
	plain := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
	if h, _, _ = SourceHints(ctx, plain, reader("./apps", nil)); h.Path != "" || reads != 0 {
		t.Errorf("no owner: %+v, %d reads", h, reads)
	}
	if h, warning, err = SourceHints(ctx, fluxOwned(nil), nil); err != nil || warning != "" || h.Path != "" {
		t.Errorf("no reader: %+v %q %v", h, warning, err)
	}

	missing := &GitOpsPathError{Owner: "Flux Kustomization flux-system/apps", Missing: "you may not get kustomizations"}
	h, warning, err = SourceHints(ctx, fluxOwned(nil), reader("", missing))
	if err != nil || warning != missing.Error() || h.Path != "" {
		t.Errorf("an owner the user may not read: %+v %q %v", h, warning, err)
	}
	// A Helm release's object: refused as a template's, with no garbled
	// word of a path its owner builds.
	reads = 0
	helm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Service"}}
	helm.SetLabels(map[string]string{"app.kubernetes.io/managed-by": "Helm"})
	helm.SetAnnotations(map[string]string{"meta.helm.sh/release-name": "redis", "meta.helm.sh/release-namespace": "default"})
	if h, warning, err = SourceHints(ctx, helm, reader("", &GitOpsPathError{Owner: "managed by Helm", Missing: "no path"})); err != nil || warning != "" || reads != 0 || h.Chart == "" {
		t.Errorf("a Helm release's object: %+v %q %v, %d reads", h, warning, err, reads)
	}
	broken := errors.New("connection refused")
	if _, _, err = SourceHints(ctx, fluxOwned(nil), reader("", broken)); !errors.Is(err, broken) {
		t.Errorf("another error: %v, want %v", err, broken)
	}
}
