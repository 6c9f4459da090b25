package source

import (
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// What the cluster sets on a live object and no manifest holds: the
// server's own metadata (diff.ServerOwnedMeta), the status, what tools
// write into annotations, and what the API server allocates. A change of
// one is never written into git; the edit says it left it out.

// toolAnnotations are annotations tools write on the live object.
var toolAnnotations = map[string]string{
	"kubectl.kubernetes.io/last-applied-configuration": "written by kubectl apply",
	"deployment.kubernetes.io/revision":                "written by the Deployment controller",
}

// allocated are the fields, by their field names (list items skipped),
// that the API server or a controller fills in for a kind.
var allocated = map[string][][]string{
	"Service":               {{"spec", "clusterIP"}, {"spec", "clusterIPs"}, {"spec", "ports", "nodePort"}, {"spec", "healthCheckNodePort"}},
	"Pod":                   {{"spec", "nodeName"}},
	"PersistentVolumeClaim": {{"spec", "volumeName"}},
}

// names are p's field names, list items left out.
func names(p fieldpath.Path) []string {
	var out []string
	for _, pe := range p {
		if pe.FieldName != nil {
			out = append(out, *pe.FieldName)
		}
	}
	return out
}

// serverSet says whether the field of kind at field names ns is one the
// cluster sets, and who sets it.
func serverSet(kind string, ns []string) (string, bool) {
	switch {
	case len(ns) == 0:
		return "", false
	case ns[0] == "status":
		return "the status, written by the object's controller", true
	case len(ns) == 2 && ns[0] == "metadata" && slices.Contains(diff.ServerOwnedMeta(), ns[1]):
		return "set by the API server", true
	case len(ns) == 3 && ns[0] == "metadata" && ns[1] == "annotations" && toolAnnotations[ns[2]] != "":
		return toolAnnotations[ns[2]], true
	}
	for _, a := range allocated[kind] {
		if slices.Equal(a, ns) {
			return "allocated by the cluster", true
		}
	}
	return "", false
}

// leaveOut takes out of cs the changes of fields the cluster sets, and
// those fields out of the values of the others (a Service's port item
// carries its nodePort); left names each one left out and why.
func leaveOut(kind string, cs []diff.Change) (kept []diff.Change, left []string) {
	for _, c := range cs {
		ns := names(c.Path)
		if why, ok := serverSet(kind, ns); ok {
			left = append(left, c.Path.String()+" ("+why+")")
			continue
		}
		if c.Value.Present {
			c.Value.Value = stripSet(kind, ns, c.Value.Value, c.Path.String(), &left)
		}
		kept = append(kept, c)
	}
	return kept, left
}

// stripSet returns v, the value at field names ns, without the fields the
// cluster sets under it.
func stripSet(kind string, ns []string, v any, at string, left *[]string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			sub := append(slices.Clone(ns), k)
			if why, ok := serverSet(kind, sub); ok {
				*left = append(*left, at+"."+k+" ("+why+")")
				continue
			}
			out[k] = stripSet(kind, sub, e, at+"."+k, left)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripSet(kind, ns, e, at+"[]", left)
		}
		return out
	}
	return v
}

// leftOutNote is the line an edit shows for the fields it left out.
func leftOutNote(left []string) string {
	return "left out of the source, as the cluster sets them: " + strings.Join(left, ", ")
}
