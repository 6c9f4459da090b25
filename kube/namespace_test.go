package kube

import (
	"context"
	"errors"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestCheckNamespace: a namespace that exists, one that does not, and a
// user who may not get namespaces, for whom kedit cannot tell.
func TestCheckNamespace(t *testing.T) {
	ns := kubetest.Namespace(t)
	cl := connectForTest(t, kubetest.Kubeconfig(t), ns)
	if err := cl.CheckNamespace(context.Background(), ns); err != nil {
		t.Errorf("an existing namespace: %v", err)
	}
	err := cl.CheckNamespace(context.Background(), "nosuchns-"+ns)
	var nf *NamespaceNotFoundError
	if !errors.As(err, &nf) || err.Error() != `namespace "nosuchns-`+ns+`" does not exist (context "localcluster")` {
		t.Errorf("a namespace that does not exist: %v", err)
	}
	viewer := connectForTest(t, kubetest.ViewerKubeconfig(t), ns)
	err = viewer.CheckNamespace(context.Background(), ns)
	var fl *ForbiddenListError
	if !errors.As(err, &fl) || fl.Verb != "get" || errors.As(err, &nf) {
		t.Errorf("a user who may not get namespaces: %T %v", err, err)
	}
}
