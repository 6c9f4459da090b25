package source

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	// mem is the files as the builds read them (buildFS), skipped the
	// directories left out of it, remotes each kustomization's remote
	// resources.
	mem     filesys.FileSystem
	skipped []string
	remotes map[string][]string
	// builds are the builds of the tree's own files, by root.
	builds map[string]buildResult
	// namedFiles are the files the kustomizations name (named).
	namedFiles map[string]bool
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
	Repo         string `json:"repo,omitempty"`
	Ref          string `json:"ref,omitempty"`
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
// originAnnotations build option on, as kustomize build does. The build
// reads the tree's one in-memory copy (buildFS), over and the option
// written into it for the build and taken out after.
func (t *tree) build(root string, over map[string][]byte) ([]built, error) {
	root = cleanRel(root)
	if len(over) == 0 {
		// The tree's own files build the same every time.
		if c, ok := t.builds[root]; ok {
			return c.objs, c.err
		}
		objs, err := t.buildOver(root, nil)
		if t.builds == nil {
			t.builds = map[string]buildResult{}
		}
		t.builds[root] = buildResult{objs, err}
		return objs, err
	}
	return t.buildOver(root, over)
}

// buildResult is a build of the tree's own files, kept.
type buildResult struct {
	objs []built
	err  error
}

func (t *tree) buildOver(root string, over map[string][]byte) ([]built, error) {
	mem := t.buildFS()
	const top = "/src"
	var undo []func()
	defer func() {
		for _, u := range slices.Backward(undo) {
			u()
		}
	}()
	put := func(rel string, b []byte) error {
		p := top + "/" + rel
		old, err := mem.ReadFile(p)
		had := err == nil
		undo = append(undo, func() {
			if had {
				_ = mem.WriteFile(p, old)
			} else {
				_ = mem.RemoveAll(p)
			}
		})
		if b == nil {
			return mem.RemoveAll(p)
		}
		if err := mem.MkdirAll(filepath.Dir(p)); err != nil {
			return err
		}
		return mem.WriteFile(p, b)
	}
	for rel, b := range over {
		if _, had := t.files[rel]; b == nil && !had {
			continue
		}
		if err := put(rel, t.forBuild(rel, b)); err != nil {
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
	if err := put(kf, withOrigin); err != nil {
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
