package kube

import (
	"context"
	"errors"
	"testing"

	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestMaySaveAsksTheServer: one SelfSubjectAccessReview says whether the
// user may save the object, by real Roles on the real API server: the verb
// follows the strategy (update, or patch for patch and apply), and a
// refusal is a *ForbiddenError naming what may not be done.
func TestMaySaveAsksTheServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		verbs    string
		strategy Strategy
		allowed  bool
	}{
		{"get,list", StrategyUpdate, false},
		{"get,list,update", StrategyUpdate, true},
		{"get,list,update", StrategyApply, false},
		{"get,list,patch", StrategyPatch, true},
	} {
		t.Run(tc.verbs+" "+string(tc.strategy), func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			viewer := grantViewer(t, ns, tc.verbs)
			dc, err := dynamic.NewForConfig(viewer.cfg)
			if err != nil {
				t.Fatal(err)
			}
			target := resolveForTest(t, viewer.kubeconfig, ns, "configmap", "testmap")
			err = MaySave(context.Background(), dc, target, tc.strategy)
			if tc.allowed {
				if err != nil {
					t.Fatalf("MaySave: %v, want allowed", err)
				}
				return
			}
			var forbidden *ForbiddenError
			if !errors.As(err, &forbidden) || forbidden.Verb != SaveVerb(tc.strategy) {
				t.Fatalf("MaySave: %T %v, want a *ForbiddenError to %s", err, err, SaveVerb(tc.strategy))
			}
			if want := "not allowed to " + SaveVerb(tc.strategy) + " configmaps in " + ns; forbidden.Short() != want {
				t.Errorf("%q, want %q", forbidden.Short(), want)
			}
		})
	}
}
