package demo

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The changes the demo writer makes.

// demoLine is a line of a config file the demo writer changes: the
// setting's name and its number.
var demoLine = regexp.MustCompile(`^(\s*)(worker_connections|keepalive_timeout)(\s+)(\d+)(;.*)$`)

// demoChange changes obj in place for write number step and says what it
// changed. An even step changes the field the user most likely edits, an
// odd step another one.
func demoChange(obj *unstructured.Unstructured, step int, keys *demoKeys) Write {
	data, _, _ := unstructured.NestedStringMap(obj.Object, "data")
	if obj.GetKind() == "ConfigMap" && len(data) > 0 {
		sorted := make([]string, 0, len(data))
		for k := range data {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		// A config file: one line of it, as the user would change it.
		setting := "worker_connections"
		if step%2 == 1 {
			setting = "keepalive_timeout"
		}
		for _, k := range sorted {
			if text, line, ok := bumpSetting(data[k], setting); ok {
				data[k] = text
				_ = unstructured.SetNestedStringMap(obj.Object, data, "data")
				l := strings.Split(text, "\n")[line-1]
				return Write{Path: ".data." + k, Line: line, Value: strings.TrimSpace(l)}
			}
		}
		keys.choose(sorted)
		key := keys.mine
		if step%2 == 1 {
			key = keys.other
		}
		// One more than it was, so that every write is a change (a
		// write of the value already there makes no new version).
		n, err := strconv.Atoi(data[key])
		if err != nil {
			n = 0
		}
		v := strconv.Itoa(n + 1)
		data[key] = v
		_ = unstructured.SetNestedStringMap(obj.Object, data, "data")
		return Write{Path: ".data." + key, Value: v}
	}
	// Any other object: annotations of the writer's own.
	key := "demo.kedit.io/write"
	if step%2 == 1 {
		key = "demo.kedit.io/tick"
	}
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	n, err := strconv.Atoi(ann[key])
	if err != nil {
		n = 0
	}
	v := strconv.Itoa(n + 1)
	ann[key] = v
	obj.SetAnnotations(ann)
	return Write{Path: ".metadata.annotations." + key, Value: v}
}

// choose picks the keys at the first write, of the data's sorted keys:
// mine is the first that is not the writer's own bar (which an earlier
// demo writer may have left), else bar itself.
func (keys *demoKeys) choose(sorted []string) {
	if keys.mine != "" {
		return
	}
	keys.mine, keys.other = "bar", "baz"
	for _, k := range sorted {
		if k != "bar" {
			keys.mine, keys.other = k, "bar"
			return
		}
	}
}

// bumpSetting raises the number on setting's line in text (a config
// file), and returns the new text and the line's 1-based number.
func bumpSetting(text, setting string) (string, int, bool) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		m := demoLine.FindStringSubmatch(l)
		if m == nil || m[2] != setting {
			continue
		}
		n, _ := strconv.Atoi(m[4])
		next := n + 1
		if setting == "worker_connections" {
			next = n + 1024
		}
		lines[i] = m[1] + m[2] + m[3] + strconv.Itoa(next) + m[5]
		return strings.Join(lines, "\n"), i + 1, true
	}
	return "", 0, false
}
