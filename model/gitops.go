package model

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// GitOpsTool names a tool that reconciles objects from elsewhere (git, a
// chart) and so may revert a manual edit.
type GitOpsTool string

// The tools kedit recognises.
const (
	// GitOpsFlux is Flux's kustomize-controller or helm-controller.
	GitOpsFlux GitOpsTool = "Flux"
	// GitOpsArgoCD is Argo CD's application controller.
	GitOpsArgoCD GitOpsTool = "Argo CD"
	// GitOpsHelm is a Helm release, upgraded by hand or by a pipeline.
	GitOpsHelm GitOpsTool = "Helm"
)

// GitOpsOwner is what reconciles an object, as far as its labels,
// annotations and managedFields tell.
type GitOpsOwner struct {
	// Tool is the reconciler.
	Tool GitOpsTool
	// Source is what the tool reconciles the object from: "kustomization"
	// or "helmrelease" for Flux, "application" for Argo CD, "release" for
	// Helm; empty when only a field manager gave the tool away.
	Source string
	// Namespace and Name name the source; Name is empty when unknown.
	Namespace, Name string
	// Evidence is the label, annotation or field manager that told.
	Evidence string
}

// Description says who owns the object and what that means for a save,
// e.g. "managed by Flux (kustomization apps/web): a save may be reverted".
// Names come from the object: escape them before they reach a terminal.
func (o GitOpsOwner) Description() string {
	what := o.Source
	switch {
	case o.Name != "" && o.Namespace != "":
		what += " " + o.Namespace + "/" + o.Name
	case o.Name != "":
		what += " " + o.Name
	case what == "":
		what = o.Evidence
	}
	consequence := "a save may be reverted"
	if o.Tool == GitOpsHelm {
		// Helm reconciles nothing by itself: the next upgrade does.
		consequence = "the next helm upgrade may revert a save"
	}
	return "managed by " + string(o.Tool) + " (" + strings.TrimSpace(what) + "): " + consequence
}

// Field managers and metadata keys the tools write.
const (
	fluxKustomizePrefix = "kustomize.toolkit.fluxcd.io/"
	fluxHelmPrefix      = "helm.toolkit.fluxcd.io/"
	argoTrackingID      = "argocd.argoproj.io/tracking-id"
	argoManager         = "argocd-controller"
	instanceLabel       = "app.kubernetes.io/instance"
	managedByLabel      = "app.kubernetes.io/managed-by"
	helmReleaseName     = "meta.helm.sh/release-name"
	helmReleaseNS       = "meta.helm.sh/release-namespace"
)

// GitOpsOwnerOf recognises an object reconciled by Flux, Argo CD or Helm.
// The tools that reconcile continuously come first: Flux's helm-controller
// and Argo CD both install charts, whose objects also say they are managed
// by Helm.
func GitOpsOwnerOf(obj *unstructured.Unstructured) (GitOpsOwner, bool) {
	if obj == nil {
		return GitOpsOwner{}, false
	}
	labels := obj.GetLabels()
	annotations := obj.GetAnnotations()
	for _, f := range []struct{ prefix, source string }{
		{fluxKustomizePrefix, "kustomization"},
		{fluxHelmPrefix, "helmrelease"},
	} {
		if ev, ok := labelWithPrefix(labels, f.prefix); ok {
			return GitOpsOwner{Tool: GitOpsFlux, Source: f.source, Name: labels[f.prefix+"name"],
				Namespace: labels[f.prefix+"namespace"], Evidence: "label " + ev}, true
		}
	}
	for _, e := range obj.GetManagedFields() {
		switch e.Manager {
		case "kustomize-controller", "helm-controller":
			return GitOpsOwner{Tool: GitOpsFlux, Evidence: "field manager " + e.Manager}, true
		}
	}
	if id := annotations[argoTrackingID]; id != "" {
		app, _, _ := strings.Cut(id, ":")
		o := GitOpsOwner{Tool: GitOpsArgoCD, Source: "application", Name: app, Evidence: "annotation " + argoTrackingID}
		// An application outside Argo CD's own namespace is tracked as
		// NAMESPACE_NAME; names cannot hold "_", so the cut is sure.
		if ns, name, ok := strings.Cut(app, "_"); ok {
			o.Namespace, o.Name = ns, name
		}
		return o, true
	}
	if app := labels[instanceLabel]; app != "" && ownsLabel(obj, argoManager, instanceLabel) {
		return GitOpsOwner{Tool: GitOpsArgoCD, Source: "application", Name: app,
			Evidence: "label " + instanceLabel + " written by " + argoManager}, true
	}
	if labels[managedByLabel] == "Helm" {
		return GitOpsOwner{Tool: GitOpsHelm, Source: "release", Name: annotations[helmReleaseName],
			Namespace: annotations[helmReleaseNS], Evidence: "label " + managedByLabel + "=Helm"}, true
	}
	return GitOpsOwner{}, false
}

// labelWithPrefix returns the first label key (in order) with prefix.
func labelWithPrefix(labels map[string]string, prefix string) (string, bool) {
	best := ""
	for k := range labels {
		if strings.HasPrefix(k, prefix) && (best == "" || k < best) {
			best = k
		}
	}
	return best, best != ""
}

// ownsLabel reports whether manager owns label in obj's managedFields.
func ownsLabel(obj *unstructured.Unstructured, manager, label string) bool {
	p := fieldpath.MakePathOrDie("metadata", "labels", label)
	for _, e := range obj.GetManagedFields() {
		if e.Manager != manager {
			continue
		}
		if s, ok := OwnedFields(&e); ok && s.Has(p) {
			return true
		}
	}
	return false
}

// The first save of an object a GitOps tool reconciles waits for the
// user's yes, for an object shown alone and each object of a set alike:
// the session refuses it (GitOpsYesError) until ConfirmGitOps, and the app
// asks whenever GitOpsYesNeeded says so.

// ConfirmGitOps is the user's yes to saving this object although a GitOps
// tool reconciles it (or kedit --yes-gitops, said at the start): it holds
// for the session's life.
func (s *Session) ConfirmGitOps() { s.gitOpsYes = true }

// GitOpsYesNeeded reports the GitOps tool that reconciles the object, as
// its latest version says, when a save waits for the user's yes: no yes
// was given (ConfirmGitOps) and the object has such an owner.
func (s *Session) GitOpsYesNeeded() (GitOpsOwner, bool) {
	if s.gitOpsYes {
		return GitOpsOwner{}, false
	}
	return GitOpsOwnerOf(s.live.Object)
}

// GitOpsYesError refuses a save that waits for the user's yes: a GitOps
// tool reconciles the object, and may revert what is saved.
type GitOpsYesError struct{ Owner GitOpsOwner }

func (e *GitOpsYesError) Error() string {
	return e.Owner.Description() + "; the save waits for your yes"
}

// gitOpsRefuses reports why ev, a save, must wait for the user's yes; nil
// for any other event, and for a resubmit refused anyway for its open
// conflicts (which is said first).
func (s *Session) gitOpsRefuses(ev Event) error {
	switch ev.(type) {
	case SaveRequested, Recreate:
	case Resubmit:
		if s.OpenConflicts() > 0 {
			return nil
		}
	default:
		return nil
	}
	if o, ok := s.GitOpsYesNeeded(); ok {
		return &GitOpsYesError{Owner: o}
	}
	return nil
}
