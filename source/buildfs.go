package source

import (
	"bytes"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// buildFS is the tree's files in the kustomize API's in-memory file
// system, made once and shared by every build of the tree: a file whose
// name the API does not take (a directory named with a space) is left
// out and named in skipped, and a kustomization's remote resources and
// components (a URL, a git repository) are taken out of its text and
// named in remotes: kedit fetches nothing, and builds what is under DIR.
func (t *tree) buildFS() filesys.FileSystem {
	if t.mem != nil {
		return t.mem
	}
	t.mem = filesys.MakeFsInMemory()
	t.remotes = map[string][]string{}
	skipped := map[string]bool{}
	for _, rel := range slices.Sorted(maps.Keys(t.files)) {
		d, _ := splitRel(rel)
		if skipped[d] {
			continue
		}
		p := "/src/" + rel
		if err := t.mem.MkdirAll(filepath.Dir(p)); err != nil {
			skipped[d] = true
			continue
		}
		if err := t.mem.WriteFile(p, t.forBuild(rel, t.files[rel])); err != nil {
			skipped[d] = true
		}
	}
	t.skipped = topSkipped(skipped)
	return t.mem
}

// topSkipped are the skipped directories but those under another.
func topSkipped(dirs map[string]bool) []string {
	var out []string
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if len(out) > 0 && strings.HasPrefix(d, out[len(out)-1]+"/") {
			continue
		}
		out = append(out, d)
	}
	return out
}

// forBuild is the text of the file rel as a build reads it: a
// kustomization without its remote resources and components, which
// remotes records.
func (t *tree) forBuild(rel string, b []byte) []byte {
	_, name := splitRel(rel)
	if b == nil || !slices.Contains(kustomizationNames, name) || !mayBeRemote(b) {
		return b
	}
	rn, err := kyaml.Parse(string(b))
	if err != nil {
		return b
	}
	var urls []string
	for _, key := range []string{"resources", "components", "bases"} {
		seq := at(rn.YNode(), fieldpath.MakePathOrDie(key))
		if seq == nil || seq.Kind != kyaml.SequenceNode {
			continue
		}
		seq.Content = slices.DeleteFunc(seq.Content, func(n *kyaml.Node) bool {
			if isRemote(n.Value) {
				urls = append(urls, n.Value)
				return true
			}
			return false
		})
	}
	if len(urls) == 0 {
		return b
	}
	if t.remotes != nil {
		t.remotes[rel] = urls
	}
	s, err := rn.String()
	if err != nil {
		return b
	}
	return []byte(s)
}

func mayBeRemote(b []byte) bool {
	for _, s := range []string{"://", "github.com/", "git@", "gitlab.com/", "bitbucket.org/"} {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}
