package model

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestGitOpsOwnerOf(t *testing.T) {
	obj := func(labels, annotations map[string]string, managers ...mf) *unstructured.Unstructured {
		o := cm("1", "foo", "1")
		o.SetLabels(labels)
		o.SetAnnotations(annotations)
		if len(managers) > 0 {
			withManaged(o, managers...)
		}
		return o
	}
	instanceBy := func(manager string) mf {
		return mf{manager, "Apply", 1, `{"f:metadata":{"f:labels":{"f:app.kubernetes.io/instance":{}}}}`}
	}
	tests := []struct {
		name string
		obj  *unstructured.Unstructured
		want string // the description; "" for no owner
	}{
		{
			"flux kustomization",
			obj(map[string]string{"kustomize.toolkit.fluxcd.io/name": "web", "kustomize.toolkit.fluxcd.io/namespace": "apps"}, nil),
			"managed by Flux (kustomization apps/web): a save may be reverted",
		},
		{
			"flux helmrelease over the Helm label it also carries",
			obj(map[string]string{"helm.toolkit.fluxcd.io/name": "podinfo", "helm.toolkit.fluxcd.io/namespace": "flux-system", "app.kubernetes.io/managed-by": "Helm"},
				map[string]string{"meta.helm.sh/release-name": "podinfo"}),
			"managed by Flux (helmrelease flux-system/podinfo): a save may be reverted",
		},
		{
			"flux label without a name",
			obj(map[string]string{"kustomize.toolkit.fluxcd.io/prune": "disabled"}, nil),
			"managed by Flux (kustomization): a save may be reverted",
		},
		{
			"flux by field manager only",
			obj(nil, nil, mf{"kustomize-controller", "Apply", 1, `{"f:data":{"f:foo":{}}}`}),
			"managed by Flux (field manager kustomize-controller): a save may be reverted",
		},
		{
			"flux helm-controller by field manager",
			obj(nil, nil, mf{"helm-controller", "Update", 1, `{"f:data":{"f:foo":{}}}`}),
			"managed by Flux (field manager helm-controller): a save may be reverted",
		},
		{
			"argo tracking id",
			obj(nil, map[string]string{"argocd.argoproj.io/tracking-id": "guestbook:/ConfigMap:default/testmap"}),
			"managed by Argo CD (application guestbook): a save may be reverted",
		},
		{
			"argo tracking id of an application in another namespace",
			obj(nil, map[string]string{"argocd.argoproj.io/tracking-id": "team-a_guestbook:apps/Deployment:web/guestbook"}),
			"managed by Argo CD (application team-a/guestbook): a save may be reverted",
		},
		{
			"argo instance label written by argocd-controller",
			obj(map[string]string{"app.kubernetes.io/instance": "guestbook"}, nil, instanceBy("argocd-controller")),
			"managed by Argo CD (application guestbook): a save may be reverted",
		},
		{
			"argo over the Helm label of a chart it installed",
			obj(map[string]string{"app.kubernetes.io/managed-by": "Helm"}, map[string]string{"argocd.argoproj.io/tracking-id": "redis:/ConfigMap:ns/testmap"}),
			"managed by Argo CD (application redis): a save may be reverted",
		},
		{
			"helm",
			obj(map[string]string{"app.kubernetes.io/managed-by": "Helm"}, map[string]string{"meta.helm.sh/release-name": "web", "meta.helm.sh/release-namespace": "apps"}),
			"managed by Helm (release apps/web): the next helm upgrade may revert a save",
		},
		{
			"helm without release annotations",
			obj(map[string]string{"app.kubernetes.io/managed-by": "Helm"}, nil),
			"managed by Helm (release): the next helm upgrade may revert a save",
		},

		{"no metadata of any tool", obj(map[string]string{"app": "web"}, map[string]string{"note": "x"}, mf{"kubectl-edit", "Update", 1, `{"f:data":{"f:foo":{}}}`}), ""},
		{"instance label written by someone else", obj(map[string]string{"app.kubernetes.io/instance": "web"}, nil, instanceBy("kubectl-client-side-apply")), ""},
		{"instance label, argocd-controller owning something else", obj(map[string]string{"app.kubernetes.io/instance": "web"}, nil,
			mf{"argocd-controller", "Apply", 1, `{"f:data":{"f:foo":{}}}`}), ""},
		{"managed by another tool", obj(map[string]string{"app.kubernetes.io/managed-by": "kustomize"}, nil), ""},
		{"managed-by helm in lower case is not Helm's", obj(map[string]string{"app.kubernetes.io/managed-by": "helm"}, nil), ""},
		{"a look-alike label prefix", obj(map[string]string{"kustomize.toolkit.fluxcd.io.example.com/name": "x", "toolkit.fluxcd.io/name": "y"}, nil), ""},
		{"an empty tracking id", obj(nil, map[string]string{"argocd.argoproj.io/tracking-id": ""}), ""},
		{"nil object", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, ok := GitOpsOwnerOf(tt.obj)
			if ok != (tt.want != "") {
				t.Fatalf("GitOpsOwnerOf = %+v, %v; want owner %v", o, ok, tt.want != "")
			}
			if ok && o.Description() != tt.want {
				t.Errorf("Description = %q\n          want %q", o.Description(), tt.want)
			}
		})
	}
}

// TestGitOpsSaveWaitsForYes: the session refuses the save of an object
// Flux reconciles, changing nothing, until the user's yes; the yes holds
// for later saves. A resubmit refused for its open conflicts says that
// first. An object no tool reconciles never waits.
func TestGitOpsSaveWaitsForYes(t *testing.T) {
	flux := cm("1", "foo", "1", "bar", "1")
	flux.SetLabels(map[string]string{"kustomize.toolkit.fluxcd.io/name": "web", "kustomize.toolkit.fluxcd.io/namespace": "apps"})
	s := opened(t, cmRef, flux)
	edited := flux.DeepCopy()
	edited.Object["data"] = map[string]any{"foo": "2", "bar": "1"}
	must(t, s, DraftEdited{Text: text(t, edited)})
	o, asks := s.GitOpsYesNeeded()
	if !asks || o.Tool != GitOpsFlux {
		t.Fatalf("GitOpsYesNeeded = %+v, %v; want Flux", o, asks)
	}
	before := snapshot(s)
	_, effects, err := s.Handle(SaveRequested{})
	var yes *GitOpsYesError
	if !errors.As(err, &yes) || len(effects) != 0 || snapshot(s) != before {
		t.Fatalf("save before the yes: err %v, effects %s; want a GitOpsYesError and nothing changed", err, describe(effects))
	}
	if got := err.Error(); got != "managed by Flux (kustomization apps/web): a save may be reverted; the save waits for your yes" {
		t.Errorf("the refusal says %q", got)
	}
	s.ConfirmGitOps()
	if _, asks := s.GitOpsYesNeeded(); asks {
		t.Fatal("GitOpsYesNeeded after the yes")
	}
	saveOf(t, must(t, s, SaveRequested{}))
	wantState(t, s, StateSaving)

	plain := editing(t, "2")
	if _, asks := plain.GitOpsYesNeeded(); asks {
		t.Fatal("an object no tool reconciles waits for a yes")
	}
}
