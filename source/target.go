package source

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// A patch with a target is applied to each object the target selects,
// whatever its document names (a component's patch names "any" and
// selects every Deployment); one without, to the object its document
// names. The target is matched as kustomize's resmap Select matches it
// (types.SelectorRegex): the namespace and the name as the object's file
// has them or as the build made them, the group, version and kind, and
// the label and annotation selectors.

// selects says whether the target sel selects the object.
func (p *planner) selects(sel *types.Selector) bool {
	orgName, orgNS := p.orgName()
	return p.selectsObject(sel, p.obj, orgName, orgNS)
}

// selectsObject says whether the target sel selects the object obj of a
// build, named orgName in orgNS in its file ("" where not known: the
// build's name stands for it).
func (p *planner) selectsObject(sel *types.Selector, obj map[string]any, orgName, orgNS string) bool {
	sr, err := types.NewSelectorRegex(sel)
	if err != nil {
		return false
	}
	u := unstructuredOf(obj)
	if orgName == "" {
		orgName, orgNS = u.GetName(), u.GetNamespace()
	}
	curNS := u.GetNamespace()
	if orgNS == "" {
		orgNS = "default"
	}
	if curNS == "" {
		curNS = "default"
	}
	if !sr.MatchNamespace(orgNS) && !sr.MatchNamespace(curNS) || !sr.MatchName(orgName) && !sr.MatchName(u.GetName()) {
		return false
	}
	gv, _ := schema.ParseGroupVersion(u.GetAPIVersion())
	if !sr.MatchGvk(resid.Gvk{Group: gv.Group, Version: gv.Version, Kind: u.GetKind()}) {
		return false
	}
	for _, m := range []struct {
		selector string
		set      map[string]string
	}{{sel.LabelSelector, u.GetLabels()}, {sel.AnnotationSelector, u.GetAnnotations()}} {
		if m.selector == "" {
			continue
		}
		s, err := labels.Parse(m.selector)
		if err != nil || !s.Matches(labels.Set(m.set)) {
			return false
		}
	}
	return true
}

// orgName is the object's name and namespace as its resource file has
// them (a generated object's, as the build made them, its hash aside).
func (p *planner) orgName() (name, ns string) {
	u := unstructuredOf(p.obj)
	name, ns = hashSuffix.ReplaceAllString(u.GetName(), ""), ""
	if b, ok := p.t.files[p.src.File]; ok {
		if f, err := readYAMLFile(p.src.File, b); err == nil {
			if d := f.doc(p.src.Ref); d != nil {
				m, _ := d.Map()
				name, ns = unstructuredOf(m).GetName(), unstructuredOf(m).GetNamespace()
			}
		}
	}
	return name, ns
}

// targetOf is the target of the patches: entry item of a kustomization,
// or nil.
func targetOf(item *kyaml.Node) *types.Selector {
	n := at(item, fieldpath.MakePathOrDie("target"))
	if n == nil {
		return nil
	}
	var sel types.Selector
	if err := n.Decode(&sel); err != nil {
		return nil
	}
	return &sel
}
