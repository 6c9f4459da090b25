// Package badinput reads the corpus of bad input, testdata/bad/*.case:
// one file per case, with what the user does and a fragment of what kedit
// must say, and makes each case's object on the test cluster. Each case
// runs through the session engine (TestBadInputThroughTheEngine, or, for
// what fails before there is a session, the code path kedit runs:
// TestBadInputBeforeTheUI), and the first ten also through the real binary
// in tmux (e2e's TestE2EBadInputFirstTen). Each asserts three things: a
// message that names the problem, the draft kept, and the object on the
// server unchanged.
//
// A case file holds "key: value" lines after its comment:
//
//	via:         draft (the edited text is refused), save (the server
//	             refuses it) or open (kedit fails before the UI starts)
//	fixture:     the object the case starts from: configmap, deployment,
//	             secret, immutable-configmap, ambiguous (two custom
//	             resources claiming one short name)
//	replace:     "old" => "new", Go-quoted, on the draft as kedit renders
//	             it ({ns}, {name} stand for the namespace and the name);
//	             repeatable
//	text:        the whole draft, Go-quoted
//	append:      text added at the end, Go-quoted
//	drop:        a top-level field whose block is removed
//	grow:        KEY N: data.KEY set to N bytes
//	crlf:        true: the file saved with CRLF line ends
//	client:      viewer: the save is sent with the viewer's credentials
//	before-save: delete: someone deletes the object before the save
//	object:      open: TYPE/NAME as given ({short} for the ambiguous
//	             fixture's short name)
//	kubeconfig:  open: viewer, nowhere (a server that is not there) or
//	             expired (a token the server does not know)
//	expect:      what kedit says, in part
//	screen:      what the UI says, in part, when it words it otherwise
package badinput

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
)

// Case is one case of the corpus.
type Case struct {
	// File is the case's file name without .case, Title its first
	// comment line.
	File, Title string
	// Via, Fixture, Object, Kubeconfig, Client, BeforeSave, Expect and
	// Screen are the file's keys of those names (Screen is Expect when
	// the file gives none).
	Via, Fixture, Object, Kubeconfig, Client string
	BeforeSave                               string
	Expect, Screen                           string

	drop       string
	replaces   [][2]string
	text       *string
	appendText string
	growKey    string
	growSize   int
	crlf       bool
}

// Cases reads the corpus in dir (the repository's testdata/bad), in the
// order of the files' names.
func Cases(t testing.TB, dir string) []Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.case"))
	if err != nil || len(files) < 30 {
		t.Fatalf("the bad-input corpus has %s (%v), want at least 30", words.Count(len(files), "case"), err)
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		out = append(out, parse(t, f))
	}
	return out
}

func parse(t testing.TB, path string) Case {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := Case{File: strings.TrimSuffix(filepath.Base(path), ".case")}
	unquote := func(s string) string {
		u, err := strconv.Unquote(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("%s: %q is not a Go-quoted string: %v", path, s, err)
		}
		return u
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if title, ok := strings.CutPrefix(line, "# "); ok && c.Title == "" {
			c.Title = title
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("%s: %q is not key: value", path, line)
		}
		switch key {
		case "via":
			c.Via = value
		case "fixture":
			c.Fixture = value
		case "object":
			c.Object = value
		case "kubeconfig":
			c.Kubeconfig = value
		case "client":
			c.Client = value
		case "before-save":
			c.BeforeSave = value
		case "drop":
			c.drop = value
		case "replace":
			old, new, ok := strings.Cut(value, `" => "`)
			if !ok {
				t.Fatalf("%s: replace wants \"old\" => \"new\": %q", path, value)
			}
			c.replaces = append(c.replaces, [2]string{unquote(old + `"`), unquote(`"` + new)})
		case "text":
			s := unquote(value)
			c.text = &s
		case "append":
			c.appendText = unquote(value)
		case "grow":
			k, n, _ := strings.Cut(value, " ")
			c.growKey = k
			c.growSize, _ = strconv.Atoi(n)
		case "crlf":
			c.crlf = value == "true"
		case "expect":
			c.Expect = value
		case "screen":
			c.Screen = value
		default:
			t.Fatalf("%s: unknown key %q", path, key)
		}
	}
	if c.Via == "" || c.Expect == "" || c.Fixture == "" {
		t.Fatalf("%s: via, fixture and expect are required", path)
	}
	if c.Screen == "" {
		c.Screen = c.Expect
	}
	return c
}

// Name is the fixture object's name in every case.
const Name = "badcase"

// Edited turns the draft as kedit renders it into the case's draft.
func (c Case) Edited(t testing.TB, rendered, ns string) string {
	t.Helper()
	expand := strings.NewReplacer("{ns}", ns, "{name}", Name).Replace
	text := rendered
	if c.text != nil {
		text = *c.text
	}
	for _, r := range c.replaces {
		old := expand(r[0])
		if !strings.Contains(text, old) {
			t.Fatalf("%s: the draft has no %q:\n%s", c.File, old, text)
		}
		text = strings.Replace(text, old, expand(r[1]), 1)
	}
	if c.drop != "" {
		var kept []string
		in := false
		for _, l := range strings.SplitAfter(text, "\n") {
			if l != "" && l[0] != ' ' {
				in = strings.HasPrefix(l, c.drop+":")
			}
			if !in {
				kept = append(kept, l)
			}
		}
		text = strings.Join(kept, "")
	}
	if c.growKey != "" {
		prefix := "  " + c.growKey + ": "
		i := strings.Index(text, prefix)
		if i < 0 {
			t.Fatalf("%s: no %q to grow", c.File, prefix)
		}
		end := i + strings.IndexByte(text[i:], '\n')
		text = text[:i] + prefix + strings.Repeat("x", c.growSize) + text[end:]
	}
	text += c.appendText
	if c.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// Create creates the case's object in ns and returns the TYPE and NAME
// kedit is given.
func (c Case) Create(t testing.TB, ns string) (typ, name string) {
	t.Helper()
	switch c.Fixture {
	case "configmap":
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", Name, "--from-literal=foo=1", "--from-literal=bar=1")
		typ = "configmap"
	case "immutable-configmap":
		manifest := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q},"immutable":true,"data":{"foo":"1","bar":"1"}}`, Name)
		kubetest.MustKubectlStdin(t, manifest, "-n", ns, "create", "-f", "-")
		typ = "configmap"
	case "deployment":
		kubetest.MustKubectl(t, "-n", ns, "create", "deployment", Name, "--image=nginx")
		typ = "deployment"
	case "secret":
		kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", Name, "--from-literal=k=v")
		typ = "secret"
	case "ambiguous":
		typ = ambiguousShortName(t)
		kubetest.MustKubectl(t, "-n", ns, "create", "configmap", Name, "--from-literal=foo=1")
	default:
		t.Fatalf("%s: unknown fixture %q", c.File, c.Fixture)
	}
	name = Name
	if c.Object != "" {
		typ, name, _ = strings.Cut(strings.ReplaceAll(c.Object, "{short}", typ), "/")
	}
	return typ, name
}

// ambiguousShortName creates two custom resources in groups of the test's
// own that both claim one short name, and returns the name.
func ambiguousShortName(t testing.TB) string {
	t.Helper()
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	sfx := hex.EncodeToString(b)
	short := "gd" + sfx
	for _, g := range []string{"a" + sfx + ".kedit.test", "b" + sfx + ".kedit.test"} {
		crd := fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.%[1]s"},
"spec":{"group":"%[1]s","scope":"Namespaced","names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","shortNames":[%[2]q]},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`, g, short)
		t.Cleanup(func() { _, _ = kubetest.Kubectl(t, "delete", "crd", "gadgets."+g, "--wait=false") })
		kubetest.CreateCustom(t, "", crd, "")
	}
	return short
}

// Read reads target as admin; nil when it does not exist.
func Read(t testing.TB, target *kube.Target) *unstructured.Unstructured {
	t.Helper()
	dc, err := dynamic.NewForConfig(kubetest.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := target.Resource(dc).Get(context.Background(), target.Name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return obj
}

// Resolve resolves TYPE/NAME in ns as admin.
func Resolve(t testing.TB, ns, typ, name string) *kube.Target {
	t.Helper()
	kc, cache := kubetest.Kubeconfig(t), t.TempDir()
	flags := &kube.ConnFlags{KubeConfig: kc, Namespace: ns, CacheDir: cache}
	target, err := kube.Resolve(flags, typ, name)
	if err != nil {
		t.Fatalf("resolving %s/%s: %v", typ, name, err)
	}
	return target
}
