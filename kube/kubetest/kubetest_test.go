package kubetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestMain(m *testing.M) { Main(m) }

func TestRestartKeepsObjectsAndKubeconfig(t *testing.T) {
	ns := Namespace(t)
	MustKubectl(t, "-n", ns, "create", "configmap", "survivor", "--from-literal=k=v")
	before, err := os.ReadFile(Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	Restart(t)
	after, err := os.ReadFile(Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Error("restart changed the kubeconfig: clients would lose the server")
	}
	// A client made from the kubeconfig before the restart still works.
	cm, err := Clientset(t).CoreV1().ConfigMaps(ns).Get(context.Background(), "survivor", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("after restart: %v", err)
	}
	if cm.Data["k"] != "v" {
		t.Errorf("after restart k = %q, want v", cm.Data["k"])
	}
}

func TestNamespacesAreDistinct(t *testing.T) {
	a, b := Namespace(t), Namespace(t)
	if a == b {
		t.Fatalf("two calls gave the same namespace %s", a)
	}
	if !strings.HasPrefix(a, "testnamespacesaredistinct-") {
		t.Errorf("namespace %q is not named after the test", a)
	}
}

func TestSourceHashFollowsSources(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", "package main\n")
	h1, err := sourceHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	write("main_test.go", "package main\n// tests do not change the binary\n")
	if h2, _ := sourceHash(dir); h2 != h1 {
		t.Error("adding a _test.go file changed the hash")
	}
	write("main.go", "package main\n\nfunc init() {}\n")
	if h3, _ := sourceHash(dir); h3 == h1 {
		t.Error("changing main.go kept the hash")
	}
}

// TestBinaryTakesTheMakefilesBuild: with $LOCALCLUSTER_BIN set, Binary
// builds nothing and returns that file, or says the file is missing.
func TestBinaryTakesTheMakefilesBuild(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "localcluster")
	t.Setenv(BinaryEnv, bin)
	if _, err := Binary(); err == nil || !strings.Contains(err.Error(), "$"+BinaryEnv) {
		t.Fatalf("a missing $%s gave %v, want an error naming it", BinaryEnv, err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Binary(); err != nil || got != bin {
		t.Fatalf("Binary() = %q, %v; want %q", got, err, bin)
	}
}
