package source

import (
	"errors"
	"testing"
)

func TestFindSaysWhereEachObjectComesFrom(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	cases := []struct {
		ref               Ref
		h                 Hints
		kust, file, genIn string
	}{
		{Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}, Hints{}, "overlays/prod", "base/deploy.yaml", ""},
		{Ref{Group: "apps", Kind: "Deployment", Namespace: "dev", Name: "web"}, Hints{}, "overlays/dev", "base/deploy.yaml", ""},
		{Ref{Kind: "ConfigMap", Namespace: "default", Name: "plain-cfg"}, Hints{}, "", "plain/app.yaml", ""},
		{Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}, Hints{Origin: "path: ../../base/deploy.yaml\n"}, "overlays/prod", "base/deploy.yaml", ""},
		{Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}, Hints{Path: "./overlays/prod", PathFrom: "Flux Kustomization flux-system/apps"}, "overlays/prod", "base/deploy.yaml", ""},
	}
	for _, c := range cases {
		src, err := Find(dir, c.ref, c.h)
		if err != nil {
			t.Errorf("%s: %v", c.ref, err)
			continue
		}
		if src.Kustomization != c.kust || src.File != c.file || src.GeneratorIn != c.genIn {
			t.Errorf("%s: got %+v", c.ref, src)
		}
	}
	// A generated object: its name carries the build's hash.
	objs, err := mustTree(t, dir).build("overlays/prod", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range objs {
		if b.ref.Kind == "ConfigMap" {
			src, err := Find(dir, b.ref, Hints{})
			if err != nil {
				t.Fatal(err)
			}
			if src.Generator != "configMapGenerator" || src.Kustomization != "overlays/prod" {
				t.Errorf("%s: got %+v", b.ref, src)
			}
		}
	}
	_, err = Find(dir, Ref{Kind: "ConfigMap", Namespace: "x", Name: "nothing"}, Hints{})
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Errorf("a missing object: %v", err)
	}
	_, err = Find(dir, Ref{Kind: "ConfigMap", Name: "x"}, Hints{Chart: "redis-18.1.0"})
	var te *TemplateError
	if !errors.As(err, &te) {
		t.Errorf("a chart's object: %v", err)
	}
}

func mustTree(t testing.TB, dir string) *tree {
	t.Helper()
	tr, err := readTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// A path Flux builds without a kustomization.yaml: every manifest under
// it, which is what the origin annotation's path is relative to.
func TestFindTakesAPlainFileAFluxPathHolds(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, map[string]string{
		"clusters/prod/apps/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags # the flags\n  namespace: apps\ndata:\n  on: \"yes\"\n",
	})
	ref := Ref{Kind: "ConfigMap", Namespace: "apps", Name: "flags"}
	for _, h := range []Hints{{Origin: "path: apps/cm.yaml\n"}, {Path: "./clusters/prod", PathFrom: "Flux Kustomization flux-system/prod"}} {
		src, err := Find(dir, ref, h)
		if err != nil {
			t.Fatalf("%+v: %v", h, err)
		}
		if src.File != "clusters/prod/apps/cm.yaml" || src.Kustomization != "" {
			t.Errorf("%+v: %+v", h, src)
		}
	}
}
