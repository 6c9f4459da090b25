package source

import (
	"errors"
	"strings"
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

// withLayout is layout and more files.
func withLayout(more map[string]string) map[string]string {
	files := map[string]string{}
	for p, s := range layout {
		files[p] = s
	}
	for p, s := range more {
		files[p] = s
	}
	return files
}

// A directory the kustomize API cannot hold (a name with a space, as
// kustomize's own site/content/en/docs/Reference/API/Kustomization File)
// is skipped and named once; every lookup goes on, the Flux path's too,
// the same however often it runs.
func TestFindSkipsADirectoryItCannotBuildAndNamesIt(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, withLayout(map[string]string{
		"site/docs/Kustomization File/_index.md":       "# docs\n",
		"site/docs/Kustomization File/images.md":       "# images\n",
		"site/docs/Getting started/kustomization.yaml": "resources:\n- cm.yaml\n",
		"site/docs/Getting started/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: docs\n",
	}))
	web := Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	for range 3 {
		for _, h := range []Hints{{}, {Path: "./overlays/prod", PathFrom: "Flux Kustomization flux-system/apps"}} {
			src, err := Find(dir, web, h)
			if err != nil {
				t.Fatalf("%+v: %v", h, err)
			}
			if src.Kustomization != "overlays/prod" {
				t.Errorf("%+v: %+v", h, src)
			}
			if h.Path == "" && src.Note != "skipped site/docs/Getting started, site/docs/Kustomization File (a directory name the kustomize API does not take)" {
				t.Errorf("note: %q", src.Note)
			}
		}
	}
}

// A remote base is named with its URL and never fetched (there is no
// network here: a fetch would fail the build); an object whose origin
// annotation names a repository is refused as remote.
func TestFindNamesARemoteBaseAndFetchesNothing(t *testing.T) {
	t.Parallel()
	const url = "https://github.com/example/app//deploy/base?ref=v1.2.0"
	dir := writeLayout(t, withLayout(map[string]string{
		"overlays/remote/kustomization.yaml": "resources:\n- " + url + "\n- ../../base\nnamespace: remote\n",
	}))
	web := Ref{Group: "apps", Kind: "Deployment", Namespace: "remote", Name: "web"}
	src, err := Find(dir, web, Hints{})
	if err != nil || src.Kustomization != "overlays/remote" {
		t.Fatalf("the local part of a build with a remote base: %+v, %v", src, err)
	}
	_, err = Find(dir, Ref{Group: "apps", Kind: "Deployment", Namespace: "remote", Name: "api"}, Hints{})
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(nf.Why, "not fetched: the remote base "+url+" of overlays/remote/kustomization.yaml") {
		t.Errorf("an object only the remote base holds: %v", err)
	}
	_, err = Find(dir, web, Hints{Origin: "path: deploy/base/deploy.yaml\nrepo: https://github.com/example/app\nref: v1.2.0\n"})
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "comes from the remote base https://github.com/example/app (deploy/base/deploy.yaml at v1.2.0): kedit writes only files under") {
		t.Errorf("an origin with repo: %v", err)
	}
}

// An origin annotation that names nothing here (the file moved since) is
// passed by: the search finds the object, and the source says so.
func TestFindFallsBackFromAnOriginItCannotUse(t *testing.T) {
	t.Parallel()
	dir := writeLayout(t, layout)
	web := Ref{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	for _, origin := range []string{"path: gone/deploy.yaml\n", "configuredIn: gone/kustomization.yaml\nconfiguredBy:\n  kind: ConfigMapGenerator\n"} {
		src, err := Find(dir, web, Hints{Origin: origin})
		if err != nil {
			t.Fatalf("%q: %v", origin, err)
		}
		if src.Kustomization != "overlays/prod" || src.Via != "search" || !strings.Contains(src.Note, "its origin annotation names nothing here that builds it") {
			t.Errorf("%q: %+v", origin, src)
		}
	}
}
