package kube

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/source"
)

// The GitOps tools' sources, and where each says the path it builds.
var (
	fluxKustomizations = schema.GroupVersionResource{Group: "kustomize.toolkit.fluxcd.io", Version: "v1", Resource: "kustomizations"}
	argoApplications   = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "applications"}
)

// argoNamespace is where Argo CD keeps its applications unless the
// tracking id names another.
const argoNamespace = "argocd"

// GitOpsPathError says why the path a GitOps owner builds could not be
// read, and what is missing.
type GitOpsPathError struct {
	// Owner names the source object, e.g. "Flux Kustomization flux-system/apps".
	Owner string
	// Missing says what is missing: a permission, the object, its path.
	Missing string
}

func (e *GitOpsPathError) Error() string {
	return fmt.Sprintf("the path %s builds is not known: %s", e.Owner, e.Missing)
}

// GitOpsPath reads from the cluster the directory, in its repository, that
// the owner builds the object from: a Flux Kustomization's spec.path, an
// Argo CD Application's spec.source.path (its first source's, for one
// with several). It returns the owner's name for messages. An owner that
// is not a Flux Kustomization or an Argo CD Application has no such path.
func GitOpsPath(ctx context.Context, dc dynamic.Interface, o model.GitOpsOwner) (path, owner string, err error) {
	var gvr schema.GroupVersionResource
	var fields [][]string
	ns := o.Namespace
	switch {
	case !buildsPath(o):
		return "", "", &GitOpsPathError{Owner: o.Description(), Missing: "only a Flux Kustomization or an Argo CD Application builds a path of a repository"}
	case o.Tool == model.GitOpsFlux:
		gvr, fields = fluxKustomizations, [][]string{{"spec", "path"}}
		owner = "Flux Kustomization " + ns + "/" + o.Name
	default:
		if ns == "" {
			ns = argoNamespace
		}
		gvr, fields = argoApplications, [][]string{{"spec", "source", "path"}}
		owner = "Argo CD Application " + ns + "/" + o.Name
	}
	if o.Name == "" || ns == "" {
		return "", owner, &GitOpsPathError{Owner: owner, Missing: "the object's labels do not name it whole"}
	}
	obj, err := dc.Resource(gvr).Namespace(ns).Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsForbidden(err):
		return "", owner, &GitOpsPathError{Owner: owner, Missing: fmt.Sprintf("you may not get %s in namespace %s; give the checkout of that path with --source", gvr.GroupResource(), ns)}
	case apierrors.IsNotFound(err):
		return "", owner, &GitOpsPathError{Owner: owner, Missing: "the cluster has no such object (or no such type)"}
	case err != nil:
		return "", owner, fmt.Errorf("reading %s: %w", owner, err)
	}
	if o.Tool == model.GitOpsArgoCD {
		if srcs, ok, _ := unstructured.NestedSlice(obj.Object, "spec", "sources"); ok && len(srcs) > 0 {
			if m, ok := srcs[0].(map[string]any); ok {
				if p, ok := m["path"].(string); ok {
					return p, owner, nil
				}
			}
		}
	}
	for _, f := range fields {
		if p, ok, _ := unstructured.NestedString(obj.Object, f...); ok {
			return p, owner, nil
		}
	}
	return ".", owner, nil // no path: the repository's top
}

// buildsPath says whether o is an owner that builds a path of a
// repository: a Flux Kustomization, an Argo CD Application.
func buildsPath(o model.GitOpsOwner) bool {
	return o.Tool == model.GitOpsFlux && o.Source == "kustomization" || o.Tool == model.GitOpsArgoCD && o.Source == "application"
}

// GitOpsPathReader reads the path a GitOps owner builds, and which object
// says it: GitOpsPath on a client.
type GitOpsPathReader func(ctx context.Context, o model.GitOpsOwner) (path, owner string, err error)

// SourceHints are what obj says of its source (source.HintsOf) and, when
// its origin annotation does not name its file, the path its GitOps owner
// builds, read by read (none when read is nil). warning says what is
// missing when that path could not be read (the user may not read the
// owner, or it is gone): the manifests are then searched without it. Any
// other error reading it is err.
func SourceHints(ctx context.Context, obj *unstructured.Unstructured, read GitOpsPathReader) (h source.Hints, warning string, err error) {
	h = source.HintsOf(obj)
	owner, ok := model.GitOpsOwnerOf(obj)
	// Only a Flux Kustomization or an Argo CD Application builds a path;
	// a Helm release's object is refused as a template's, with no word of
	// a path.
	if !ok || h.Origin != "" || read == nil || h.Chart != "" || !buildsPath(owner) {
		return h, "", nil
	}
	path, from, err := read(ctx, owner)
	var missing *GitOpsPathError
	switch {
	case err == nil:
		h.Path, h.PathFrom = path, from
		return h, "", nil
	case errors.As(err, &missing):
		return h, err.Error(), nil
	}
	return h, "", err
}
