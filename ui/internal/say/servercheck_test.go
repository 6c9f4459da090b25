package say

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/kube"
)

// TestServerNotAskedSaysWhy: a user who may not update is told once that
// the server's checks are off and why; offline says the server was not
// asked; a 409 says nothing, the banner does; another failure is said in
// its words.
func TestServerNotAskedSaysWhy(t *testing.T) {
	target := &kube.Target{Namespace: "ns", Name: "web", Mapping: &meta.RESTMapping{
		Resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, Scope: meta.RESTScopeNamespace}}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{&kube.ForbiddenError{Target: target, Verb: "update", Err: errors.New("no")}, "you may not update deployments.apps in ns: a draft can be made but not saved, and the server's checks of it are off (its dry run needs that right)"},
		{&kube.UnavailableError{Err: errors.New("connection refused")}, "the server was not asked (no connection): the schema's word alone"},
		{&kube.ConflictError{Target: target, Err: apierrors.NewConflict(schema.GroupResource{Resource: "deployments"}, "web", errors.New("changed"))}, ""},
		{errors.New("boom"), "the server could not check the draft: boom"},
	} {
		if got := string(ServerNotAsked(tc.err)); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.err, got, tc.want)
		}
		if len(tc.want) > 0 && !strings.Contains(tc.want, "the server") {
			t.Errorf("%q does not say it is the server's", tc.want)
		}
	}
}
