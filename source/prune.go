package source

import (
	"bytes"
	"slices"
	"strings"
)

// The search builds only the kustomizations that may build the object: a
// build costs milliseconds, and a repository holds hundreds. mayBuild
// holds to what is certain of a kustomization's text, so that it never
// passes by one that builds the object.

// mayBuild says whether the kustomization in dir may build an object of
// ref's identity: its namespace (an overlay's namespace: is every
// object's) and its name, which is a name its files hold with the
// prefixes and suffixes of its kustomizations around it (and a generated
// object's hash). One that runs transformers, generators or replacements
// of its own may rename anything, and may build it.
func (t *tree) mayBuild(dir string, ref Ref) bool {
	k, err := t.readKustomization(dir, nil)
	if err != nil || k == nil {
		return true // the build says what is wrong with it
	}
	if ref.Namespace != "" && k.k.Namespace != "" && k.k.Namespace != ref.Namespace {
		return false
	}
	var text [][]byte
	prefixes, suffixes := []string{""}, []string{""}
	free := false
	seen := map[string]bool{}
	var walk func(k *kustomization)
	walk = func(k *kustomization) {
		if seen[k.dir] {
			return
		}
		seen[k.dir] = true
		if len(k.k.Transformers) > 0 || len(k.k.Generators) > 0 || len(k.k.Replacements) > 0 || len(k.k.Validators) > 0 || len(k.k.HelmCharts) > 0 {
			free = true
		}
		text = append(text, t.files[k.file])
		if k.k.NamePrefix != "" {
			prefixes = append(prefixes, k.k.NamePrefix)
		}
		if k.k.NameSuffix != "" {
			suffixes = append(suffixes, k.k.NameSuffix)
		}
		for _, r := range slices.Concat(k.k.Resources, k.k.Crds) {
			if b, ok := t.files[k.rel(r)]; ok {
				text = append(text, b)
			}
		}
		for _, p := range t.allPatches(k) {
			if b, ok := t.files[k.rel(p.Path)]; ok && p.Path != "" {
				text = append(text, b)
			}
		}
		for _, inc := range t.includes(k) {
			if ik, err := t.readKustomization(inc, nil); err == nil && ik != nil {
				walk(ik)
			} else {
				free = true
			}
		}
	}
	walk(k)
	if free {
		return true
	}
	name := hashSuffix.ReplaceAllString(ref.Name, "")
	for _, cores := range namesWithin(name, prefixes, suffixes) {
		for _, b := range text {
			if bytes.Contains(b, []byte(cores)) {
				return true
			}
		}
	}
	return false
}

// namesWithin are the names name may have been made of: name with any of
// the prefixes taken off its front, any number of times, and any of the
// suffixes off its back.
func namesWithin(name string, prefixes, suffixes []string) []string {
	out := []string{}
	fronts := []string{name}
	for i := 0; i < len(fronts) && len(fronts) < 64; i++ {
		for _, p := range prefixes {
			if p != "" && strings.HasPrefix(fronts[i], p) && !slices.Contains(fronts, fronts[i][len(p):]) {
				fronts = append(fronts, fronts[i][len(p):])
			}
		}
	}
	for _, f := range fronts {
		backs := []string{f}
		for i := 0; i < len(backs) && len(backs) < 64; i++ {
			for _, s := range suffixes {
				if s != "" && strings.HasSuffix(backs[i], s) && !slices.Contains(backs, backs[i][:len(backs[i])-len(s)]) {
					backs = append(backs, backs[i][:len(backs[i])-len(s)])
				}
			}
		}
		for _, b := range backs {
			if b != "" && !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}
