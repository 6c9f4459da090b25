package e2e

import (
	"strconv"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The objects the race harness writes, and their fields: each field is
// one the people of a race set and read, with the kubectl verbs that set
// it alone.

// raceKind is a kind of object the harness writes.
type raceKind struct {
	// typ is kubectl's name of the type, resource the audit log's.
	typ, resource string
	gvr           schema.GroupVersionResource
	fields        []raceField
	// manifest is the object as the harness creates it (the people's
	// repository file), in namespace ns.
	manifest func(ns string) map[string]any
}

// raceField is a field the people set.
type raceField struct {
	name string
	get  func(o map[string]any) (string, bool)
	set  func(o map[string]any, v string)
	// patch is a merge (and strategic merge) patch that sets it to v.
	patch func(v string) map[string]any
	// pointer is its JSON pointer (kubectl patch --type json, kedit set).
	pointer string
	// number: an integer (replicas), else a string.
	number bool
	values []string
	// verb is the kubectl verb that sets it alone (label, annotate,
	// scale), key its label's or annotation's key; "" for none.
	verb, key string
}

// nested walks maps along path, making them where make is set.
func nested(o map[string]any, path []string, make bool) map[string]any {
	for _, p := range path {
		next, ok := o[p].(map[string]any)
		if !ok {
			if !make {
				return nil
			}
			next = map[string]any{}
			o[p] = next
		}
		o = next
	}
	return o
}

// pathField is a field at path in nested maps.
func pathField(name, pointer string, values []string, path ...string) raceField {
	parent, key := path[:len(path)-1], path[len(path)-1]
	return raceField{name: name, pointer: pointer, values: values,
		get: func(o map[string]any) (string, bool) {
			m := nested(o, parent, false)
			if m == nil {
				return "", false
			}
			v, ok := m[key]
			if !ok {
				return "", false
			}
			switch v := v.(type) {
			case string:
				return v, true
			case int64:
				return strconv.FormatInt(v, 10), true
			case float64:
				return strconv.FormatInt(int64(v), 10), true
			}
			return "", false
		},
		set: func(o map[string]any, v string) { nested(o, parent, true)[key] = v },
		patch: func(v string) map[string]any {
			root := map[string]any{}
			nested(root, parent, true)[key] = v
			return root
		},
	}
}

var (
	tierValues  = []string{"web", "api", "db"}
	noteValues  = []string{"calm", "busy", "paged"}
	dataValues  = []string{"1", "2", "3"}
	imageValues = []string{"img:1", "img:2", "img:3"}
)

func labelField() raceField {
	f := pathField("tier", "/metadata/labels/race-tier", tierValues, "metadata", "labels", "race-tier")
	f.verb, f.key = "label", "race-tier"
	return f
}

func annotationField() raceField {
	f := pathField("note", "/metadata/annotations/race-note", noteValues, "metadata", "annotations", "race-note")
	f.verb, f.key = "annotate", "race-note"
	return f
}

func raceMeta(ns string) map[string]any {
	return map[string]any{"name": "obj", "namespace": ns,
		"labels": map[string]any{"race-tier": "web"}, "annotations": map[string]any{"race-note": "calm"}}
}

var raceConfigMap = raceKind{
	typ: "configmap", resource: "configmaps", gvr: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
	fields: []raceField{
		pathField("a", "/data/race-a", dataValues, "data", "race-a"),
		pathField("b", "/data/race-b", dataValues, "data", "race-b"),
		labelField(), annotationField(),
	},
	manifest: func(ns string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": raceMeta(ns),
			"data": map[string]any{"race-a": "1", "race-b": "1"}}
	},
}

func replicasField() raceField {
	f := pathField("replicas", "/spec/replicas", []string{"1", "2", "3"}, "spec", "replicas")
	f.number, f.verb = true, "scale"
	setString := f.set
	f.set = func(o map[string]any, v string) {
		setString(o, v)
		n, _ := strconv.ParseInt(v, 10, 64)
		o["spec"].(map[string]any)["replicas"] = n
	}
	f.patch = func(v string) map[string]any {
		n, _ := strconv.ParseInt(v, 10, 64)
		return map[string]any{"spec": map[string]any{"replicas": n}}
	}
	return f
}

// imageField is the image of the Deployment's one container, an item of
// a list keyed by name.
func imageField() raceField {
	container := func(o map[string]any) map[string]any {
		cs, _ := nested(o, []string{"spec", "template", "spec"}, false)["containers"].([]any)
		if len(cs) == 0 {
			return nil
		}
		c, _ := cs[0].(map[string]any)
		return c
	}
	return raceField{name: "image", pointer: "/spec/template/spec/containers/0/image", values: imageValues,
		get: func(o map[string]any) (string, bool) {
			c := container(o)
			v, ok := c["image"].(string)
			return v, ok
		},
		set: func(o map[string]any, v string) { container(o)["image"] = v },
		patch: func(v string) map[string]any {
			return map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
				"containers": []any{map[string]any{"name": "app", "image": v}}}}}}
		},
	}
}

var raceDeployment = raceKind{
	typ: "deployment", resource: "deployments", gvr: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
	fields: []raceField{replicasField(), imageField(), labelField(), annotationField()},
	manifest: func(ns string) map[string]any {
		return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": raceMeta(ns),
			"spec": map[string]any{
				"replicas": int64(1),
				"selector": map[string]any{"matchLabels": map[string]any{"app": "race"}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "race"}},
					"spec":     map[string]any{"containers": []any{map[string]any{"name": "app", "image": "img:1"}}},
				},
			}}
	},
}
