package source

import (
	"bytes"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/kyaml/kio"
)

// plainFiles are the candidates of YAML files under dir that no
// kustomization builds on: a document of the object's identity, applied
// as it is.
func (t *tree) plainFiles(ref Ref, under, via string) []candidate {
	var out []candidate
	for p, b := range t.files {
		d, name := splitRel(p)
		if under != "" && d != under && !strings.HasPrefix(d, under+"/") {
			continue
		}
		if !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) || t.kustomizationFile(d) != "" || t.inChart(d) {
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
