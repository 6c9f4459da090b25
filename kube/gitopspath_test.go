package kube

import (
	"context"
	"errors"
	"strings"
	"testing"

	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestGitOpsPathReadsTheOwnersPath: the path a Flux Kustomization builds
// is read from the real API server; a user a real Role lets read the
// ConfigMaps but not the Kustomization gets the server's 403 as a
// *GitOpsPathError saying what is missing, and so does a Kustomization
// the cluster does not have.
func TestGitOpsPathReadsTheOwnersPath(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, kubetest.FluxKustomizationCRD, kubetest.FluxKustomization("apps", "./overlays/staging"))
	owner := model.GitOpsOwner{Tool: model.GitOpsFlux, Source: "kustomization", Namespace: ns, Name: "apps"}

	path, from, err := GitOpsPath(context.Background(), kubetest.Dynamic(t), owner)
	if err != nil || path != "./overlays/staging" || from != "Flux Kustomization "+ns+"/apps" {
		t.Fatalf("GitOpsPath: %q %q %v", path, from, err)
	}

	viewer := grantViewer(t, ns, "get,list")
	dc, err := dynamic.NewForConfig(viewer.cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = GitOpsPath(context.Background(), dc, owner)
	var missing *GitOpsPathError
	want := "you may not get kustomizations.kustomize.toolkit.fluxcd.io in namespace " + ns
	if !errors.As(err, &missing) || !strings.HasPrefix(missing.Missing, want) {
		t.Errorf("GitOpsPath as the viewer: %T %v, want a *GitOpsPathError saying %q", err, err, want)
	}

	gone := owner
	gone.Name = "gone"
	_, _, err = GitOpsPath(context.Background(), kubetest.Dynamic(t), gone)
	if !errors.As(err, &missing) || !strings.Contains(missing.Missing, "no such object") {
		t.Errorf("GitOpsPath of a missing Kustomization: %T %v", err, err)
	}
}
