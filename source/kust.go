package source

import (
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"
)

// kustomization is a kustomization read from the tree.
type kustomization struct {
	dir, file string
	k         types.Kustomization
}

// readKustomization reads the kustomization of dir, with over's files in
// place of the tree's.
func (t *tree) readKustomization(dir string, over map[string][]byte) (*kustomization, error) {
	f := t.kustomizationFile(dir)
	if f == "" {
		return nil, nil
	}
	b := t.files[f]
	if o, ok := over[f]; ok {
		b = o
	}
	k := &kustomization{dir: dir, file: f}
	if err := yaml.Unmarshal(b, &k.k); err != nil {
		return nil, err
	}
	k.k.FixKustomization()
	return k, nil
}

// rel resolves a path a kustomization names, relative to the tree.
func (k *kustomization) rel(p string) string { return cleanRel(path.Join(k.dir, p)) }

// cleanRel cleans a slash path relative to the tree; "" for its top.
func cleanRel(p string) string {
	p = path.Clean(p)
	if p == "." {
		return ""
	}
	return p
}

// includes returns the directories (relative to the tree) the
// kustomization builds on: its resources and components that are
// directories.
func (t *tree) includes(k *kustomization) []string {
	var out []string
	for _, r := range append(append([]string{}, k.k.Resources...), k.k.Components...) {
		if isRemote(r) {
			continue
		}
		d := k.rel(r)
		if t.kustomizationFile(d) != "" {
			out = append(out, d)
		}
	}
	return out
}

// chain returns the kustomizations from root down to the one in dir, each
// building on the next; nil when root does not reach dir.
func (t *tree) chain(root, dir string, over map[string][]byte) []*kustomization {
	return t.chainThrough(root, dir, over, nil)
}

// objectChain is chain for the object ref: of the ways from root down to
// dir, the one whose kustomizations each build a variant of the object
// (a root that builds two overlays on one base reaches the base through
// each; the object is one overlay's).
func (t *tree) objectChain(root, dir string, ref Ref) []*kustomization {
	if c := t.chainThrough(root, dir, nil, func(d string) bool { return t.holds(d, ref) }); c != nil {
		return c
	}
	return t.chain(root, dir, nil)
}

// chainThrough is chain through the kustomizations below root that pass
// (all, with pass nil).
func (t *tree) chainThrough(root, dir string, over map[string][]byte, pass func(d string) bool) []*kustomization {
	root, dir = cleanRel(root), cleanRel(dir)
	seen := map[string]bool{}
	var walk func(d string) []*kustomization
	walk = func(d string) []*kustomization {
		if seen[d] {
			return nil
		}
		seen[d] = true
		k, err := t.readKustomization(d, over)
		if err != nil || k == nil || d != root && pass != nil && !pass(d) {
			return nil
		}
		if d == dir {
			return []*kustomization{k}
		}
		for _, inc := range t.includes(k) {
			if c := walk(inc); c != nil {
				return append([]*kustomization{k}, c...)
			}
		}
		return nil
	}
	return walk(root)
}

// holds says whether the build of d makes a variant of the object ref:
// of its kind, in its namespace or none, named as a part of its name (a
// prefix, a suffix and a generated name's hash come later).
func (t *tree) holds(d string, ref Ref) bool {
	objs, err := t.build(d, nil)
	if err != nil {
		return false
	}
	name := hashSuffix.ReplaceAllString(ref.Name, "")
	for _, b := range objs {
		if b.ref.Group == ref.Group && b.ref.Kind == ref.Kind && (b.ref.Namespace == "" || b.ref.Namespace == ref.Namespace) &&
			strings.Contains(name, hashSuffix.ReplaceAllString(b.ref.Name, "")) {
			return true
		}
	}
	return false
}

// usedBy returns the kustomizations of the tree, other than those of
// chain, that build on dir (directly or through others).
func (t *tree) usedBy(dir string, chain []*kustomization) []string {
	in := map[string]bool{}
	for _, k := range chain {
		in[k.dir] = true
	}
	var out []string
	for _, d := range t.kustomizations() {
		if in[d] || d == dir {
			continue
		}
		// One that builds on the root builds this object as the root
		// does: it shares nothing else.
		if len(chain) > 0 && t.chain(d, chain[0].dir, nil) != nil {
			continue
		}
		if t.chain(d, dir, nil) != nil {
			out = append(out, displayDir(d))
		}
	}
	return out
}

// worded is a kustomization with a word on the object's fields, and the
// index of chain at or above which a patch has the last word over it.
type worded struct {
	k         *kustomization
	above     int
	component bool
}

// lastWord returns the kustomizations whose build makes the object, the
// last word first: each of chain from the root down, then its components
// (the last named first, each before the components it names), which
// its own patches and transformers follow.
func (t *tree) lastWord(chain []*kustomization) []worded {
	var out []worded
	seen := map[string]bool{}
	var comps func(k *kustomization, at int)
	comps = func(k *kustomization, at int) {
		for _, c := range slices.Backward(k.k.Components) {
			d := k.rel(c)
			if seen[d] || isRemote(c) {
				continue
			}
			seen[d] = true
			if ck, err := t.readKustomization(d, nil); err == nil && ck != nil {
				out = append(out, worded{ck, at, true})
				comps(ck, at)
			}
		}
	}
	for i, k := range chain {
		out = append(out, worded{k, i - 1, false})
		comps(k, i)
	}
	return out
}

// isRemote: a resource or component kustomize fetches (a URL, a git
// repository), which kedit neither fetches nor writes.
func isRemote(r string) bool {
	return strings.Contains(r, "://") || strings.HasPrefix(r, "github.com/") || strings.HasPrefix(r, "git@") || strings.HasPrefix(r, "gitlab.com/") || strings.HasPrefix(r, "bitbucket.org/")
}
