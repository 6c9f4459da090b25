package source

import (
	"fmt"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// The images: and replicas: transformers of a kustomization run after its
// patches and set a container's image and a workload's replica count. A
// value one of them sets is written into its entry, never pinned by a
// patch the next bump of the entry would leave behind.

// image is a container image reference: name[:tag][@digest].
type image struct{ name, tag, digest string }

func parseImage(s string) image {
	var im image
	s, im.digest, _ = strings.Cut(s, "@")
	if i := strings.LastIndex(s, ":"); i > strings.LastIndex(s, "/") {
		s, im.tag = s[:i], s[i+1:]
	}
	im.name = s
	return im
}

// isImagePath: c's field is a container's image.
func isImagePath(p fieldpath.Path) bool {
	n := len(p)
	if n < 3 || p[n-1].FieldName == nil || *p[n-1].FieldName != "image" || p[n-2].Key == nil || p[n-3].FieldName == nil {
		return false
	}
	switch *p[n-3].FieldName {
	case "containers", "initContainers", "ephemeralContainers":
		return true
	}
	return false
}

func isReplicasPath(p fieldpath.Path) bool {
	return len(p) == 2 && p[0].FieldName != nil && *p[0].FieldName == "spec" && p[1].FieldName != nil && *p[1].FieldName == "replicas"
}

// entries are the items of k's list key (images, replicas) as the plan
// has them.
func (p *planner) entries(k *kustomization, key string) []*kyaml.Node {
	kf, err := p.yaml(k.file)
	if err != nil || len(kf.nodes) == 0 {
		return nil
	}
	seq := at(kf.nodes[0].YNode(), fieldpath.MakePathOrDie(key))
	if seq == nil || seq.Kind != kyaml.SequenceNode {
		return nil
	}
	return seq.Content
}

func str(n *kyaml.Node, key string) string {
	if v := at(n, fieldpath.MakePathOrDie(key)); v != nil && v.Kind == kyaml.ScalarNode {
		return v.Value
	}
	return ""
}

// imageEntry is k's images: entry that makes the image c changes: the
// one named as the image the build holds, or renaming an image to it.
func (p *planner) imageEntry(k *kustomization, c diff.Change) (*kyaml.Node, bool) {
	if !isImagePath(c.Path) {
		return nil, false
	}
	live, _ := diff.ValueAt(p.obj, c.Path).Value.(string)
	name := parseImage(live).name
	for _, e := range p.entries(k, "images") {
		if str(e, "name") == name || str(e, "newName") == name {
			return e, true
		}
	}
	return nil, false
}

// replicasEntry is k's replicas: entry for the object.
func (p *planner) replicasEntry(k *kustomization, c diff.Change) (*kyaml.Node, bool) {
	if !isReplicasPath(c.Path) {
		return nil, false
	}
	for _, e := range p.entries(k, "replicas") {
		if n := str(e, "name"); n != "" && strings.Contains(p.src.Ref.Name, n) {
			return e, true
		}
	}
	return nil, false
}

// placeInTransformer writes c into the images: or replicas: entry of k
// that sets it, if one does; where k is shared with other builds, into a
// new entry of above, which only this build uses, and says so.
func (p *planner) placeInTransformer(k *kustomization, c diff.Change, shared []string, above *kustomization) (bool, error) {
	field := c.Path.String()
	entry, isImage := p.imageEntry(k, c)
	var isReplicas bool
	if !isImage {
		entry, isReplicas = p.replicasEntry(k, c)
	}
	if !isImage && !isReplicas {
		return false, nil
	}
	what, key := "images", "images"
	if isReplicas {
		what, key = "replicas", "replicas"
	}
	if !c.Value.Present {
		return false, &PlaceError{Field: field, Why: fmt.Sprintf("the %s: entry of %s sets it; remove the entry there", what, k.file)}
	}
	pl := Placement{Field: field, File: k.file, How: what + " transformer"}
	if len(shared) > 0 {
		pl.File = above.file
		pl.How = "new " + what + " entry"
		pl.Why = fmt.Sprintf("the %s: entry of %s also makes %s; a new entry in %s, which only this build uses, has the last word", what, k.file, strings.Join(shared, ", "), above.file)
		n := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map"}
		if err := setAt(n, fieldpath.MakePathOrDie("name"), diff.FieldValue{Present: true, Value: str(entry, "name")}); err != nil {
			return false, err
		}
		if isImage {
			live, _ := diff.ValueAt(p.obj, c.Path).Value.(string)
			_ = setAt(n, fieldpath.MakePathOrDie("name"), diff.FieldValue{Present: true, Value: parseImage(live).name})
		}
		kf, err := p.yaml(above.file)
		if err != nil {
			return false, &PlaceError{Field: field, Why: err.Error()}
		}
		seq, err := kf.nodes[0].Pipe(kyaml.LookupCreate(kyaml.SequenceNode, key))
		if err != nil {
			return false, &PlaceError{Field: field, Why: above.file + ": " + err.Error()}
		}
		if err := seq.PipeE(kyaml.Append(n)); err != nil {
			return false, err
		}
		entry = n
	}
	var err error
	if isImage {
		err = p.setImage(entry, c)
	} else {
		err = setAt(entry, fieldpath.MakePathOrDie("count"), c.Value)
	}
	if err != nil {
		return false, &PlaceError{Field: field, Why: pl.File + ": " + err.Error()}
	}
	p.placed = append(p.placed, pl)
	return true, nil
}

// setImage writes the new image into an images: entry: newName where the
// name changes, digest or newTag.
func (p *planner) setImage(entry *kyaml.Node, c diff.Change) error {
	s, ok := c.Value.Value.(string)
	if !ok {
		return fmt.Errorf("an image is a string")
	}
	im := parseImage(s)
	set := func(k, v string) error {
		return setAt(entry, fieldpath.MakePathOrDie(k), diff.FieldValue{Present: true, Value: v})
	}
	unset := func(k string) error { return setAt(entry, fieldpath.MakePathOrDie(k), diff.FieldValue{}) }
	if eff := firstNonEmpty(str(entry, "newName"), str(entry, "name")); im.name != eff || str(entry, "newName") != "" {
		if err := set("newName", im.name); err != nil {
			return err
		}
	}
	switch {
	case im.digest != "":
		renameKey(entry, "newTag", "digest")
		return set("digest", im.digest)
	case im.tag != "":
		renameKey(entry, "digest", "newTag")
		return set("newTag", im.tag)
	}
	if err := unset("digest"); err != nil {
		return err
	}
	return unset("newTag")
}

// renameKey renames a key of mapping n where it stands, when n has no key
// to yet.
func renameKey(n *kyaml.Node, from, to string) {
	if at(n, fieldpath.MakePathOrDie(to)) != nil {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == from {
			n.Content[i].Value = to
		}
	}
}
