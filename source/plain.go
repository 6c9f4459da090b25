package source

import (
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// plain edits an object that a plain YAML file holds, applied as it is.
func (p *planner) plain(cs []diff.Change) (*Edit, error) {
	f, err := p.yaml(p.src.File)
	if err != nil {
		return nil, err
	}
	doc := f.doc(p.src.Ref)
	if doc == nil {
		return nil, &NotFoundError{Ref: p.src.Ref, Dir: p.t.dir, Why: p.src.File + " holds no document of that identity"}
	}
	beforeDocs := docMaps(f)
	for i, d := range beforeDocs {
		// Numbers as JSON decodes them (int64), as the changes' keys
		// name list items.
		if j, err := jsonObject(d); err == nil && d != nil {
			beforeDocs[i] = j
		}
	}
	var want map[string]any
	for _, d := range beforeDocs {
		if d != nil && sameRef(built{ref: RefOf(unstructuredOf(d))}, p.src.Ref) {
			want = d
		}
	}
	for _, c := range cs {
		path, v := p.secretField(doc.YNode(), c)
		if err := setAt(doc.YNode(), path, v); err != nil {
			return nil, &PlaceError{Field: c.Path.String(), Why: err.Error()}
		}
		want, _ = diff.WithValueAt(want, path, v)
		p.placed = append(p.placed, Placement{Field: c.Path.String(), File: p.src.File, How: "resource"})
	}
	if err := p.flush(); err != nil {
		return nil, err
	}
	again, err := readYAMLFile(p.src.File, p.over[p.src.File])
	if err != nil {
		return nil, err
	}
	afterDocs := docMaps(again)
	for i := range beforeDocs {
		if beforeDocs[i] == nil {
			continue
		}
		if sameRef(built{ref: RefOf(unstructuredOf(beforeDocs[i]))}, p.src.Ref) {
			beforeDocs[i] = want
		}
		if i >= len(afterDocs) || !reflect.DeepEqual(normal(afterDocs[i]), normal(beforeDocs[i])) {
			return nil, &PlaceError{Field: fieldsOf(cs), Why: "the edited file does not hold the edited object and the others as they were"}
		}
	}
	return p.edit(), nil
}

func docMaps(f *yamlFile) []map[string]any {
	var out []map[string]any
	for _, n := range f.nodes {
		m, _ := n.Map()
		if md, ok := m["metadata"].(map[string]any); ok {
			if a, ok := md["annotations"].(map[string]any); ok {
				for k := range a {
					if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") {
						delete(a, k)
					}
				}
				if len(a) == 0 {
					delete(md, "annotations")
				}
			}
		}
		out = append(out, m)
	}
	return out
}

func unstructuredOf(m map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: m}
}
