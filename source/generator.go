package source

import (
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// placeInGenerator sets a data key of a generated ConfigMap or Secret in
// its generator: the literal, the env file line or the file that holds
// the key, else a new literal.
func (p *planner) placeInGenerator(chain []*kustomization, c diff.Change) error {
	field := c.Path.String()
	key := *c.Path[1].FieldName
	if *c.Path[0].FieldName == "binaryData" {
		return &PlaceError{Field: field, Why: "binaryData comes from a generator's file, which kedit does not write as binary"}
	}
	val := ""
	if c.Value.Present {
		s, ok := c.Value.Value.(string)
		if !ok {
			return &PlaceError{Field: field, Why: "a generator's value is a string"}
		}
		val = s
	}
	// Topmost first: an overlay's generator that merges into the base's
	// has the last word on its keys.
	for _, k := range chain {
		gens, kindKey := p.generators(k)
		if len(p.t.usedBy(k.dir, chain)) > 0 {
			break // a base other kustomizations share: the root merges into it
		}
		for gi, g := range gens {
			if g.Name == "" || !strings.Contains(p.src.Ref.Name, g.Name) {
				continue
			}
			done, err := p.placeInGeneratorArgs(k, kindKey, gi, g, key, val, c)
			if done || err != nil {
				return err
			}
		}
	}
	// No generator kedit may change has the key: a new literal in the
	// generator the object's origin names, or where that one is in a
	// shared base, in a generator of the root that merges into it.
	for i, k := range chain {
		if k.file != p.src.GeneratorIn {
			continue
		}
		if len(p.t.usedBy(k.dir, chain)) > 0 {
			// The nearest kustomization above whose build holds only
			// this variant merges into it.
			return p.placeInMergeGenerator(p.nearest(chain, i-1), c, key, val)
		}
		gens, kindKey := p.generators(k)
		for gi, g := range gens {
			if g.Name == "" || !strings.Contains(p.src.Ref.Name, g.Name) || !c.Value.Present {
				continue
			}
			kf, err := p.yaml(k.file)
			if err != nil {
				return &PlaceError{Field: field, Why: err.Error()}
			}
			gn := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(kindKey, gi))
			if gn == nil {
				break
			}
			lits := at(gn, fieldpath.MakePathOrDie("literals"))
			if lits == nil {
				gn.Content = append(gn.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "literals"}, &kyaml.Node{Kind: kyaml.SequenceNode, Tag: "!!seq"})
				lits = gn.Content[len(gn.Content)-1]
			}
			ln, err := valueNode(nil, key+"="+val)
			if err != nil {
				return err
			}
			lits.Content = append(lits.Content, ln)
			p.placed = append(p.placed, Placement{Field: field, File: k.file, How: "generator literal"})
			return nil
		}
	}
	if !c.Value.Present {
		return &PlaceError{Field: field, Why: "no literal, env file or file of its generator sets it"}
	}
	return &PlaceError{Field: field, Why: "its generator was not found in " + p.src.GeneratorIn}
}

// placeInMergeGenerator adds the key as a literal of a generator of root
// (the kustomization nearest the object that no other build shares) with
// behavior merge, made when root has none, so that the shared base's
// generator stays as it is.
func (p *planner) placeInMergeGenerator(root *kustomization, c diff.Change, key, val string) error {
	field := c.Path.String()
	if !c.Value.Present {
		return &PlaceError{Field: field, Why: "its generator is in a base other kustomizations share, and a merging generator cannot remove a key (an overlay's behavior: merge adds and changes keys only): remove it from the base's generator, for every overlay, with kedit source --source on the base"}
	}
	base, err := p.t.readKustomization(splitDir(p.src.GeneratorIn), p.over)
	if err != nil || base == nil {
		return &PlaceError{Field: field, Why: "cannot read " + p.src.GeneratorIn}
	}
	name := ""
	baseGens, kindKey := p.generators(base)
	for _, g := range baseGens {
		if g.Name != "" && strings.Contains(p.src.Ref.Name, g.Name) && len(g.Name) > len(name) {
			name = g.Name
		}
	}
	if name == "" {
		return &PlaceError{Field: field, Why: "its generator was not found in " + p.src.GeneratorIn}
	}
	kf, err := p.yaml(root.file)
	if err != nil {
		return &PlaceError{Field: field, Why: err.Error()}
	}
	ln, err := valueNode(nil, key+"="+val)
	if err != nil {
		return err
	}
	gens, _ := p.generators(root)
	for gi, g := range gens {
		if g.Name != name || g.Behavior != "merge" {
			continue
		}
		gn := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(kindKey, gi))
		lits := at(gn, fieldpath.MakePathOrDie("literals"))
		if lits == nil {
			gn.Content = append(gn.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: "literals"}, &kyaml.Node{Kind: kyaml.SequenceNode, Tag: "!!seq"})
			lits = gn.Content[len(gn.Content)-1]
		}
		lits.Content = append(lits.Content, ln)
		p.placed = append(p.placed, Placement{Field: field, File: root.file, How: "merging generator literal"})
		return nil
	}
	seq, err := kf.nodes[0].Pipe(kyaml.LookupCreate(kyaml.SequenceNode, kindKey))
	if err != nil {
		return &PlaceError{Field: field, Why: root.file + ": " + err.Error()}
	}
	str := func(s string) *kyaml.Node { return &kyaml.Node{Kind: kyaml.ScalarNode, Tag: "!!str", Value: s} }
	entry := kyaml.NewRNode(&kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map", Content: []*kyaml.Node{
		str("name"), str(name), str("behavior"), str("merge"),
		str("literals"), {Kind: kyaml.SequenceNode, Tag: "!!seq", Content: []*kyaml.Node{ln}},
	}})
	if err := seq.PipeE(kyaml.Append(entry.YNode())); err != nil {
		return err
	}
	if kindKey == "secretGenerator" {
		root.k.SecretGenerator = append(root.k.SecretGenerator, types.SecretArgs{GeneratorArgs: types.GeneratorArgs{Name: name, Behavior: "merge", KvPairSources: types.KvPairSources{LiteralSources: []string{key + "=" + val}}}})
	} else {
		root.k.ConfigMapGenerator = append(root.k.ConfigMapGenerator, types.ConfigMapArgs{GeneratorArgs: types.GeneratorArgs{Name: name, Behavior: "merge", KvPairSources: types.KvPairSources{LiteralSources: []string{key + "=" + val}}}})
	}
	p.placed = append(p.placed, Placement{Field: field, File: root.file, How: "merging generator literal"})
	return nil
}

func splitDir(p string) string { d, _ := splitRel(p); return d }

// generators are k's generators of the object's kind, and their key in
// the kustomization.
func (p *planner) generators(k *kustomization) ([]types.GeneratorArgs, string) {
	var out []types.GeneratorArgs
	if p.src.Ref.Kind == "Secret" {
		for _, g := range k.k.SecretGenerator {
			out = append(out, g.GeneratorArgs)
		}
		return out, "secretGenerator"
	}
	for _, g := range k.k.ConfigMapGenerator {
		out = append(out, g.GeneratorArgs)
	}
	return out, "configMapGenerator"
}

// placeInGeneratorArgs changes the key in one generator: a literal, an
// env file's line or a file.
func (p *planner) placeInGeneratorArgs(k *kustomization, kindKey string, gi int, g types.GeneratorArgs, key, val string, c diff.Change) (bool, error) {
	field := c.Path.String()
	for _, lit := range g.LiteralSources {
		if name, _, _ := strings.Cut(lit, "="); name != key {
			continue
		}
		kf, err := p.yaml(k.file)
		if err != nil {
			return false, &PlaceError{Field: field, Why: err.Error()}
		}
		// The literal's node as the plan has it now: an earlier change
		// of the plan may have removed another one before it.
		lits := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(kindKey, gi, "literals"))
		li := -1
		for i, n := range lits.Content {
			if name, _, _ := strings.Cut(n.Value, "="); lits != nil && name == key {
				li = i
			}
		}
		if li < 0 {
			return false, &PlaceError{Field: field, Why: k.file + ": its literal is not where it was read"}
		}
		if !c.Value.Present {
			lits.Content = slices.Delete(lits.Content, li, li+1)
		} else {
			nv, err := valueNode(lits.Content[li], key+"="+val)
			if err != nil {
				return false, err
			}
			lits.Content[li] = nv
		}
		p.placed = append(p.placed, Placement{Field: field, File: k.file, How: "generator literal"})
		return true, nil
	}
	for _, env := range g.EnvSources {
		rel := k.rel(env)
		text, ok := p.read(rel)
		if !ok {
			continue
		}
		lines := strings.SplitAfter(string(text), "\n")
		for i, l := range lines {
			name, _, found := strings.Cut(strings.TrimSpace(l), "=")
			if !found || strings.HasPrefix(strings.TrimSpace(l), "#") || strings.TrimSpace(name) != key {
				continue
			}
			if strings.Contains(val, "\n") {
				return false, &PlaceError{Field: field, Why: rel + " is an env file, which holds no value of more than one line"}
			}
			nl := ""
			if strings.HasSuffix(l, "\n") {
				nl = "\n"
			}
			if c.Value.Present {
				lines[i] = key + "=" + val + nl
			} else {
				lines = slices.Delete(lines, i, i+1)
			}
			p.over[rel] = []byte(strings.Join(lines, ""))
			p.placed = append(p.placed, Placement{Field: field, File: rel, How: "env file"})
			return true, nil
		}
	}
	for _, fs := range g.FileSources {
		name, file, ok := strings.Cut(fs, "=")
		if !ok {
			file, name = fs, path.Base(fs)
		}
		if name != key {
			continue
		}
		if !c.Value.Present {
			return false, &PlaceError{Field: field, Why: "it comes from the file " + k.rel(file) + ", and kedit does not remove a generator's file"}
		}
		rel := k.rel(file)
		p.over[rel] = []byte(val)
		p.placed = append(p.placed, Placement{Field: field, File: rel, How: "generator file"})
		return true, nil
	}
	return false, nil
}
