package source

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Hints are what the live object and its GitOps owner say of its source.
type Hints struct {
	// Origin is the object's config.kubernetes.io/origin annotation.
	Origin string
	// Path is the directory, relative to the directory searched, that a
	// GitOps tool builds (a Flux Kustomization's spec.path, an Argo CD
	// Application's spec.source.path); PathFrom names that owner.
	Path, PathFrom string
	// Chart names the Helm chart or release that made the object: "a
	// Helm chart redis-18.1.0", "the Helm release cache".
	Chart string
	// Live is the live object, which picks among kustomizations that
	// all build an object of its identity.
	Live map[string]any
}

// HintsOf reads the hints obj carries itself: its origin annotation and
// the labels Helm puts on what it installs.
func HintsOf(obj *unstructured.Unstructured) Hints {
	h := Hints{Origin: obj.GetAnnotations()[OriginAnnotation], Live: obj.Object}
	l, a := obj.GetLabels(), obj.GetAnnotations()
	switch {
	case l["helm.sh/chart"] != "":
		h.Chart = "a Helm chart " + l["helm.sh/chart"]
	case a["meta.helm.sh/release-name"] != "":
		h.Chart = "the Helm release " + a["meta.helm.sh/release-name"]
	case l["app.kubernetes.io/managed-by"] == "Helm":
		h.Chart = "a Helm release"
	}
	return h
}

// Source is where an object comes from.
type Source struct {
	// Dir is the directory searched (absolute).
	Dir string `json:"dir"`
	// Ref is the object.
	Ref Ref `json:"object"`
	// Kustomization is the directory, relative to Dir, whose build holds
	// the object ("." for Dir itself); "" when File is a plain YAML file
	// applied as it is.
	Kustomization string `json:"kustomization,omitempty"`
	// File is the file, relative to Dir, holding the object's document;
	// "" for a generated object.
	File string `json:"file,omitempty"`
	// Generator names the generator of a generated object, and
	// GeneratorIn the kustomization file that configures it.
	Generator   string `json:"generator,omitempty"`
	GeneratorIn string `json:"generatorIn,omitempty"`
	// Via says how it was found: "origin annotation", the GitOps
	// owner's path, or "search".
	Via string `json:"via"` // Note says what the finding passed by: an origin annotation that
	// names nothing here, directories the build cannot read.
	Note string `json:"note,omitempty"`
}

// RemoteError says the object comes from a remote base, which kedit
// neither fetches nor writes.
type RemoteError struct {
	Ref           Ref
	URL, Path, At string
	Dir           string
}

func (e *RemoteError) Error() string {
	s := fmt.Sprintf("%s comes from the remote base %s", e.Ref, e.URL)
	if e.Path != "" {
		s += " (" + e.Path
		if e.At != "" {
			s += " at " + e.At
		}
		s += ")"
	}
	return s + ": kedit writes only files under " + e.Dir + " and fetches nothing"
}

// NotFoundError says why no source was found.
type NotFoundError struct {
	Ref Ref
	Dir string
	Why string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no source of %s under %s: %s", e.Ref, e.Dir, e.Why)
}

// TemplateError says the object comes from a template kedit does not
// write.
type TemplateError struct {
	Ref   Ref
	Chart string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("%s comes from %s: kedit does not write templates", e.Ref, e.Chart)
}

// candidate is one build or file that holds the object.
type candidate struct {
	src Source
	obj map[string]any
}

// Find finds where the object ref comes from under dir.
func Find(dir string, ref Ref, h Hints) (*Source, error) {
	if h.Chart != "" {
		return nil, &TemplateError{Ref: ref, Chart: h.Chart}
	}
	t, err := readTree(dir)
	if err != nil {
		return nil, err
	}
	if o, ok := parseOrigin(h.Origin); ok && o.Repo != "" {
		return nil, &RemoteError{Ref: ref, URL: o.Repo, Path: o.Path, At: o.Ref, Dir: t.dir}
	}
	c, err := t.find(ref, h)
	var nf *NotFoundError
	if errors.As(err, &nf) && h.Origin != "" {
		// An origin annotation that names nothing here (a file moved
		// since, a path of another checkout) is no reason to give up:
		// the search may find the object all the same.
		unnamed := h
		unnamed.Origin = ""
		if again, err2 := t.find(ref, unnamed); err2 == nil {
			c, err = again, nil
			c.src.Note = "its origin annotation names nothing here that builds it (" + nf.Why + "), so it was searched for"
		}
	}
	if err != nil {
		if errors.As(err, &nf) {
			nf.Why += t.passedBy(true)
		}
		return nil, err
	}
	if p := t.passedBy(false); p != "" && c.src.Via == "search" {
		c.src.Note = strings.TrimPrefix(c.src.Note+p, "; ")
	}
	return &c.src, nil
}

// passedBy says what the builds left out: directories the kustomize API
// cannot read (a name with a space), and with remotes the remote bases
// kedit does not fetch.
func (t *tree) passedBy(remotes bool) string {
	var s string
	if len(t.skipped) > 0 {
		s += "; skipped " + strings.Join(t.skipped, ", ") + " (a directory name the kustomize API does not take)"
	}
	for _, f := range slices.Sorted(maps.Keys(t.remotes)) {
		if remotes {
			s += "; not fetched: the remote base " + strings.Join(t.remotes[f], ", ") + " of " + f
		}
	}
	return s
}

func (t *tree) find(ref Ref, h Hints) (*candidate, error) {
	notFound := func(why string, a ...any) error {
		return &NotFoundError{Ref: ref, Dir: t.dir, Why: fmt.Sprintf(why, a...)}
	}
	o, hasOrigin := parseOrigin(h.Origin)
	var roots []string
	via := "search"
	switch {
	case h.Path != "":
		p := cleanRel(h.Path)
		if strings.HasPrefix(p, "../") {
			return nil, notFound("%s builds %s, which is outside it", h.PathFrom, h.Path)
		}
		via = h.PathFrom + "'s path"
		if t.kustomizationFile(p) != "" {
			roots = []string{p}
		}
	case hasOrigin:
		for _, k := range t.kustomizations() {
			want := o.Path
			if want == "" {
				want = o.ConfiguredIn
			}
			if _, ok := t.files[cleanRel(path.Join(k, want))]; ok {
				roots = append(roots, k)
			}
		}
		via = "origin annotation"
		if len(roots) == 0 && o.Path == "" {
			return nil, notFound("its origin annotation names %s, which no kustomization here reaches", o.ConfiguredIn)
		}
	default:
		for _, k := range t.kustomizations() {
			if t.mayBuild(k, ref) {
				roots = append(roots, k)
			}
		}
	}
	var cands []candidate
	var buildErrs []error
	for _, r := range roots {
		objs, err := t.build(r, nil)
		if err != nil {
			buildErrs = append(buildErrs, err)
			continue
		}
		for _, b := range objs {
			if !sameRef(b, ref) {
				continue
			}
			s := Source{Dir: t.dir, Ref: ref, Kustomization: displayDir(r), Via: via}
			if b.origin.Path != "" {
				s.File = cleanRel(path.Join(r, b.origin.Path))
			}
			if g := b.origin.ConfiguredBy.Kind; g == "ConfigMapGenerator" || g == "SecretGenerator" {
				s.Generator = lowerFirst(g)
				s.GeneratorIn = cleanRel(path.Join(r, b.origin.ConfiguredIn))
			}
			if s.File == "" && s.Generator == "" {
				// A patch that replaced the annotations took the origin
				// with it: the resource file is the one that holds it.
				s.File = t.resourceFile(r, ref)
			}
			cands = append(cands, candidate{src: s, obj: b.obj})
		}
	}
	// No kustomization builds it: a plain file (Flux builds a path
	// without a kustomization.yaml from every manifest under it).
	if len(cands) == 0 && o.ConfiguredIn == "" {
		under := ""
		if h.Path != "" {
			under = cleanRel(h.Path)
		}
		cands = t.plainFiles(ref, under, via)
		if hasOrigin {
			want := cleanRel(o.Path)
			var named []candidate
			for _, c := range cands {
				if c.src.File == want || strings.HasSuffix(c.src.File, "/"+want) {
					named = append(named, c)
				}
			}
			cands = named
		}
	}
	cands = t.topmost(cands)
	if len(cands) > 1 && h.Live != nil {
		var agree []candidate
		for _, c := range cands {
			if subset(c.obj, h.Live) {
				agree = append(agree, c)
			}
		}
		if len(agree) > 0 {
			cands = agree
		}
	}
	switch {
	case len(cands) == 1:
		return &cands[0], nil
	case len(cands) > 1:
		var names []string
		for _, c := range cands {
			names = append(names, firstNonEmpty(c.src.Kustomization, c.src.File))
		}
		return nil, notFound("%s all build it, the live object's fields do not tell which the cluster applies, and kedit writes one source: pass --source a directory that holds the one the cluster uses and what it builds on, and not the others", strings.Join(names, ", "))
	case len(buildErrs) > 0:
		return nil, notFound("no build holds it, and %s", errors.Join(buildErrs...))
	case h.Path != "":
		return nil, notFound("%s (%s) builds no object of that identity", displayDir(cleanRel(h.Path)), h.PathFrom)
	}
	return nil, notFound("no plain YAML file and no kustomization here holds an object of that identity")
}

// topmost drops each candidate kustomization that another candidate
// builds on: the base is not what the cluster applies, its overlay is.
func (t *tree) topmost(cands []candidate) []candidate {
	var out []candidate
	for i, c := range cands {
		base := false
		for j, o := range cands {
			if i != j && c.src.Kustomization != "" && o.src.Kustomization != "" && o.src.Kustomization != c.src.Kustomization &&
				t.chain(o.src.Kustomization, c.src.Kustomization, nil) != nil {
				base = true
			}
		}
		if !base {
			out = append(out, c)
		}
	}
	return out
}

// subset says whether every field of part has the same value in whole,
// a list's items one by one in their order: the live object holds the
// fields the server defaults (in a container too) beside the build's.
func subset(part, whole any) bool {
	if pl, ok := part.([]any); ok {
		wl, ok := whole.([]any)
		if !ok || len(pl) != len(wl) {
			return false
		}
		for i := range pl {
			if !subset(pl[i], wl[i]) {
				return false
			}
		}
		return true
	}
	pm, ok := part.(map[string]any)
	if !ok {
		return reflect.DeepEqual(normal(part), normal(whole))
	}
	wm, ok := whole.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range pm {
		if k == "metadata" {
			continue // names, namespaces and annotations the tools add
		}
		if !subset(v, wm[k]) {
			return false
		}
	}
	return true
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
