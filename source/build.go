package source

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"
)

// OriginAnnotation is the annotation kustomize's buildMetadata
// originAnnotations puts on each object it builds, which Flux's
// kustomize-controller keeps on the live object.
const OriginAnnotation = "config.kubernetes.io/origin"

// Ref names an object: its group, kind, namespace and name.
type Ref struct {
	Group, Kind, Namespace, Name string
}

// String is kind[.group]/name, with " in namespace NS" when it has one.
func (r Ref) String() string {
	s := r.Kind
	if r.Group != "" {
		s += "." + r.Group
	}
	s += "/" + r.Name
	if r.Namespace != "" {
		s += " in namespace " + r.Namespace
	}
	return s
}

// RefOf names obj.
func RefOf(obj *unstructured.Unstructured) Ref {
	gv, _ := schema.ParseGroupVersion(obj.GetAPIVersion())
	return Ref{Group: gv.Group, Kind: obj.GetKind(), Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// maxFile is the largest file copied into a build: manifests are small,
// and a large file under the directory is data, not a manifest.
const maxFile = 4 << 20

// tree is the files under a directory, read once, in which builds run
// with some files replaced: the edits of a plan before they are written.
type tree struct {
	dir   string            // absolute
	files map[string][]byte // by slash path relative to dir
}

// readTree reads every regular file under dir but those of hidden
// directories (.git) and those over maxFile.
func readTree(dir string) (*tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	t := &tree{dir: abs, files: map[string][]byte{}}
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != abs && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxFile {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(abs, p)
		t.files[filepath.ToSlash(rel)] = b
		return nil
	})
	return t, err
}

// kustomizationNames are the file names kustomize reads a kustomization
// from, in its order.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// kustomizationFile returns the kustomization file of dir (relative), or "".
func (t *tree) kustomizationFile(dir string) string {
	for _, n := range kustomizationNames {
		p := joinRel(dir, n)
		if _, ok := t.files[p]; ok {
			return p
		}
	}
	return ""
}

// kustomizations are the directories holding a kustomization, sorted.
func (t *tree) kustomizations() []string {
	seen := map[string]bool{}
	var out []string
	for p := range t.files {
		d, f := splitRel(p)
		for _, n := range kustomizationNames {
			if f == n && !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	slices.Sort(out)
	return out
}

// built is one object of a build's output.
type built struct {
	ref Ref
	obj map[string]any
	// origin is its origin annotation, which the build adds.
	origin origin
}

// origin is a config.kubernetes.io/origin annotation.
type origin struct {
	Path         string `json:"path,omitempty"`
	ConfiguredIn string `json:"configuredIn,omitempty"`
	ConfiguredBy struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
		Name       string `json:"name,omitempty"`
	} `json:"configuredBy,omitempty"`
}

func parseOrigin(s string) (origin, bool) {
	var o origin
	if strings.TrimSpace(s) == "" {
		return o, false
	}
	if err := yaml.Unmarshal([]byte(s), &o); err != nil {
		return o, false
	}
	return o, o.Path != "" || o.ConfiguredIn != ""
}

// build builds the kustomization in root (relative to the tree's
// directory) with the files of over in place of the tree's, the
// originAnnotations build option on, as kustomize build does.
func (t *tree) build(root string, over map[string][]byte) ([]built, error) {
	root = cleanRel(root)
	mem := filesys.MakeFsInMemory()
	const top = "/src"
	put := func(rel string, b []byte) error {
		p := top + "/" + rel
		if err := mem.MkdirAll(filepath.Dir(p)); err != nil {
			return err
		}
		return mem.WriteFile(p, b)
	}
	for rel, b := range t.files {
		if _, ok := over[rel]; ok {
			continue
		}
		if err := put(rel, b); err != nil {
			return nil, err
		}
	}
	for rel, b := range over {
		if b == nil {
			continue // removed
		}
		if err := put(rel, b); err != nil {
			return nil, err
		}
	}
	kf := t.kustomizationFile(root)
	if _, ok := over[kf]; !ok && kf == "" {
		return nil, fmt.Errorf("%s holds no kustomization", displayDir(root))
	}
	kb, err := mem.ReadFile(top + "/" + kf)
	if err != nil {
		return nil, err
	}
	withOrigin, err := addOriginOption(kb)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kf, err)
	}
	if err := mem.WriteFile(top+"/"+kf, withOrigin); err != nil {
		return nil, err
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(mem, strings.TrimSuffix(top+"/"+root, "/"))
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %s", displayDir(root), strings.ReplaceAll(err.Error(), top+"/", ""))
	}
	var out []built
	for _, r := range m.Resources() {
		m, err := r.Map()
		if err != nil {
			return nil, err
		}
		obj, err := jsonObject(m)
		if err != nil {
			return nil, err
		}
		u := &unstructured.Unstructured{Object: obj}
		o, _ := parseOrigin(u.GetAnnotations()[OriginAnnotation])
		stripOrigin(u)
		foldStringData(u)
		out = append(out, built{ref: RefOf(u), obj: u.Object, origin: o})
	}
	return out, nil
}

// addOriginOption turns on buildMetadata's originAnnotations in a
// kustomization's text.
func addOriginOption(kb []byte) ([]byte, error) {
	rn, err := kyaml.Parse(string(kb))
	if err != nil {
		return nil, err
	}
	bm, err := rn.Pipe(kyaml.LookupCreate(kyaml.SequenceNode, "buildMetadata"))
	if err != nil {
		return nil, err
	}
	for _, v := range bm.YNode().Content {
		if v.Value == "originAnnotations" {
			return kb, nil
		}
	}
	if err := bm.PipeE(kyaml.Append(kyaml.NewScalarRNode("originAnnotations").YNode())); err != nil {
		return nil, err
	}
	s, err := rn.String()
	return []byte(s), err
}

// stripOrigin removes the origin annotation, and the annotations map when
// it was the only one.
func stripOrigin(u *unstructured.Unstructured) {
	a := u.GetAnnotations()
	if _, ok := a[OriginAnnotation]; !ok {
		return
	}
	delete(a, OriginAnnotation)
	if len(a) == 0 {
		unstructured.RemoveNestedField(u.Object, "metadata", "annotations")
		return
	}
	u.SetAnnotations(a)
}

// hashSuffix is the suffix kustomize adds to a generated object's name.
var hashSuffix = regexp.MustCompile(`-[a-z0-9]{10}$`)

// unhashed returns the build's objects with each generated object's name
// hash taken off, wherever the name appears as a value: a generator's
// content changes its name and every reference to it, which is not a
// change of those objects.
func unhashed(objs []built) []built {
	names := map[string]string{}
	for _, b := range objs {
		if b.origin.ConfiguredBy.Kind == "ConfigMapGenerator" || b.origin.ConfiguredBy.Kind == "SecretGenerator" {
			if hashSuffix.MatchString(b.ref.Name) {
				names[b.ref.Name] = hashSuffix.ReplaceAllString(b.ref.Name, "")
			}
		}
	}
	if len(names) == 0 {
		return objs
	}
	out := make([]built, len(objs))
	for i, b := range objs {
		b.obj = renameValues(b.obj, names).(map[string]any)
		if n, ok := names[b.ref.Name]; ok {
			b.ref.Name = n
		}
		out[i] = b
	}
	return out
}

func renameValues(v any, names map[string]string) any {
	switch x := v.(type) {
	case string:
		if n, ok := names[x]; ok {
			return n
		}
		return x
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = renameValues(e, names)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = renameValues(e, names)
		}
		return l
	}
	return v
}

// sameRef says whether b is the object named by r: the same identity, or
// for a generated object the same name but for its hash.
func sameRef(b built, r Ref) bool {
	// An object the build leaves without a namespace is applied to one
	// (the GitOps tool's target namespace, or kubectl's default).
	if b.ref.Group != r.Group || b.ref.Kind != r.Kind || (b.ref.Namespace != "" && b.ref.Namespace != r.Namespace) {
		return false
	}
	if b.ref.Name == r.Name {
		return true
	}
	// The build's name without its hash: an output taken through unhashed.
	return hashSuffix.MatchString(r.Name) && hashSuffix.ReplaceAllString(b.ref.Name, "") == hashSuffix.ReplaceAllString(r.Name, "")
}

func joinRel(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

func splitRel(p string) (dir, name string) {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// displayDir names a relative directory, "." for the top.
func displayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// jsonObject is m as the API machinery decodes JSON (whole numbers as
// int64), as a live object is.
func jsonObject(m map[string]any) (map[string]any, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	err = utiljson.Unmarshal(b, &out)
	return out, err
}

// foldStringData moves a Secret's stringData into its data, encoded, as
// the API server stores it: a key in both is stringData's.
func foldStringData(u *unstructured.Unstructured) {
	if u.GetKind() != "Secret" || u.GroupVersionKind().Group != "" {
		return
	}
	sd, ok := u.Object["stringData"].(map[string]any)
	if !ok {
		return
	}
	data, _ := u.Object["data"].(map[string]any)
	if data == nil {
		data = map[string]any{}
	}
	for k, v := range sd {
		if s, ok := v.(string); ok {
			data[k] = base64.StdEncoding.EncodeToString([]byte(s))
		}
	}
	u.Object["data"] = data
	delete(u.Object, "stringData")
}
