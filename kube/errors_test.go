package kube

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

func TestSaveUnauthorized(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "testmap")
	base := readBase(t, target)

	cfg, err := clientcmd.LoadFromFile(kubetest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, user := range cfg.AuthInfos {
		user.Token = "not-a-valid-token"
	}
	bad := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, bad); err != nil {
		t.Fatal(err)
	}
	rc, err := clientcmd.BuildConfigFromFlags("", bad)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := dynamic.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Save(context.Background(), dc, target, StrategyUpdate, base, withData(base, "foo", "2"), SaveOptions{})
	var unauthorized *UnauthorizedError
	if !errors.As(err, &unauthorized) || model.KindOf(err) != model.ErrorUnauthorized {
		t.Fatalf("err = %v, want *UnauthorizedError", err)
	}
	if strings.Contains(err.Error(), "not-a-valid-token") {
		t.Errorf("the message shows the token: %q", err)
	}
	if now := readBase(t, target); now.GetResourceVersion() != base.GetResourceVersion() {
		t.Error("an unauthorized save changed the object")
	}
}

func TestSaveTooLarge(t *testing.T) {
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	target := resolveForTest(t, kubetest.Kubeconfig(t), ns, "cm", "testmap")
	base := readBase(t, target)
	// Over the API server's 3 MiB request limit: refused before validation.
	huge := withData(base, "big", strings.Repeat("x", 4<<20))
	_, err := Save(context.Background(), kubetest.Dynamic(t), target, StrategyUpdate, base, huge, SaveOptions{})
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) || model.KindOf(err) != model.ErrorTooLarge {
		t.Fatalf("err = %v, want *TooLargeError", err)
	}
	if !strings.Contains(err.Error(), "configmaps/testmap is too large") {
		t.Errorf("message %q", err)
	}
	if now := readBase(t, target); now.GetResourceVersion() != base.GetResourceVersion() {
		t.Error("a refused save changed the object")
	}
}

func TestErrorKinds(t *testing.T) {
	target := &Target{}
	for _, tc := range []struct {
		err  error
		want model.ErrorKind
	}{
		{&ConflictError{Target: target}, model.ErrorConflict},
		{&ConflictError{Target: target, Managers: []ManagerConflict{{".data.foo", "helm"}}}, model.ErrorFieldManagerConflict},
		{&InvalidError{Target: target}, model.ErrorInvalid},
		{&ImmutableError{Target: target}, model.ErrorImmutable},
		{&ForbiddenError{Target: target, Err: errors.New("x")}, model.ErrorForbidden},
		{&NotFoundError{Target: target}, model.ErrorNotFound},
		{&TooLargeError{Target: target, Err: errors.New("x")}, model.ErrorTooLarge},
		{&UnauthorizedError{}, model.ErrorUnauthorized},
		{&UnavailableError{Err: errors.New("x")}, model.ErrorUnavailable},
		{&UnavailableError{Err: errors.New("x"), Timeout: true}, model.ErrorTimeout},
	} {
		if got := model.KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%T) = %v, want %v", tc.err, got, tc.want)
		}
	}
	causes := model.CausesOf(&ConflictError{Target: target, Managers: []ManagerConflict{{".data.foo", "helm"}}})
	if len(causes) != 1 || causes[0].Field != ".data.foo" || !strings.Contains(causes[0].Message, "helm") {
		t.Errorf("CausesOf(apply conflict) = %+v", causes)
	}
}
