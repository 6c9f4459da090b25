package source

import (
	"bytes"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// plainFiles are the candidates of YAML files under dir that no
// kustomization builds on, beside a kustomization or not: a document of
// the object's identity, applied as it is.
func (t *tree) plainFiles(ref Ref, under, via string) []candidate {
	var out []candidate
	for p, b := range t.files {
		d, name := splitRel(p)
		if under != "" && d != under && !strings.HasPrefix(d, under+"/") {
			continue
		}
		if !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) || t.named()[p] || t.inChart(d) {
			continue
		}
		nodes, err := (&kio.ByteReader{Reader: bytes.NewReader(b), OmitReaderAnnotations: true}).Read()
		if err != nil {
			continue
		}
		for _, n := range nodes {
			m, err := n.Map()
			if err != nil {
				continue
			}
			u := &unstructured.Unstructured{Object: m}
			if sameRef(built{ref: RefOf(u)}, ref) {
				out = append(out, candidate{src: Source{Dir: t.dir, Ref: ref, File: p, Via: via}, obj: m})
			}
		}
	}
	return out
}

// inChart says whether dir is inside a Helm chart.
func (t *tree) inChart(dir string) bool {
	for d := dir; ; {
		if _, ok := t.files[joinRel(d, "Chart.yaml")]; ok {
			return true
		}
		if d == "" {
			return false
		}
		d, _ = splitRel(d)
	}
}

// resourceFile is the resource file of root's kustomizations (root and
// those it builds on) holding a document of the object, or "".
func (t *tree) resourceFile(root string, ref Ref) string {
	seen := map[string]bool{}
	var walk func(d string) string
	walk = func(d string) string {
		if seen[d] {
			return ""
		}
		seen[d] = true
		k, err := t.readKustomization(d, nil)
		if err != nil || k == nil {
			return ""
		}
		for _, r := range k.k.Resources {
			rel := k.rel(r)
			b, ok := t.files[rel]
			if !ok {
				continue
			}
			nodes, err := (&kio.ByteReader{Reader: bytes.NewReader(b), OmitReaderAnnotations: true}).Read()
			if err != nil {
				continue
			}
			if (&yamlFile{nodes: nodes}).doc(ref) != nil {
				return rel
			}
		}
		for _, inc := range t.includes(k) {
			if f := walk(inc); f != "" {
				return f
			}
		}
		return ""
	}
	return walk(root)
}

// named are the files the tree's kustomizations are or name: resources,
// components, CRDs, patches, generators' files and env files,
// replacements, transformer and generator configurations; a YAML file
// none names is applied as it is, if at all.
func (t *tree) named() map[string]bool {
	if t.namedFiles != nil {
		return t.namedFiles
	}
	t.namedFiles = map[string]bool{}
	for _, d := range t.kustomizations() {
		k, err := t.readKustomization(d, nil)
		if err != nil || k == nil {
			continue
		}
		t.namedFiles[k.file] = true
		paths := slices.Concat(k.k.Resources, k.k.Components, k.k.Crds, k.k.Configurations, k.k.Generators, k.k.Transformers, k.k.Validators)
		for _, pt := range t.allPatches(k) {
			paths = append(paths, pt.Path)
		}
		for _, r := range k.k.Replacements {
			paths = append(paths, r.Path)
		}
		for _, g := range k.k.ConfigMapGenerator {
			paths = append(paths, generatorFiles(g.GeneratorArgs)...)
		}
		for _, g := range k.k.SecretGenerator {
			paths = append(paths, generatorFiles(g.GeneratorArgs)...)
		}
		for _, p := range paths {
			if p != "" && !isRemote(p) {
				t.namedFiles[k.rel(p)] = true
			}
		}
	}
	return t.namedFiles
}

// generatorFiles are the files a generator reads: its files ([key=]path)
// and env files.
func generatorFiles(g types.GeneratorArgs) []string {
	var out []string
	for _, f := range g.FileSources {
		if _, p, ok := strings.Cut(f, "="); ok {
			f = p
		}
		out = append(out, f)
	}
	return append(out, g.EnvSources...)
}
