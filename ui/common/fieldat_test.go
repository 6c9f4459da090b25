package common

import (
	"slices"
	"strings"
	"testing"
)

// TestFieldAtReadsWhereThePositionIs: the mapping a line is in, its key,
// what of it is typed, whether the position is in its value, and the keys
// its mapping has, in block YAML (lists at the key's column or indented,
// items whose first key opens a mapping) and indented JSON, with a key
// being typed without its colon.
func TestFieldAtReadsWhereThePositionIs(t *testing.T) {
	const deploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
        imagePullP
        ports:
        - containerPort: 80
      - name: side
        env:
          - name: A
            va
`
	const json = `{
  "spec": {
    "containers": [
      {
        "name": "a"
      },
      {
        "name": "web",
        "ima
      }
    ]
  }
}`
	// An empty line put under spec: its mapping's keys are all below it.
	const under = `apiVersion: apps/v1
kind: Deployment
spec:
  
  replicas: 2
  selector:
    matchLabels: {app: web}
  strategy: {}
  template:
    spec:
      containers: []
status: {}
`
	const items = `items:
- metadata:
    name: x
    `
	for _, tc := range []struct {
		name, text string
		row, col   int
		parent     string
		key, typed string
		value      bool
		present    string
	}{
		{"top", deploy, 1, 2, "", "kind", "ki", false, "apiVersion metadata spec"},
		{"a key typed", deploy, 10, 18, "spec template spec containers", "", "imagePullP", false, "name image ports"},
		{"a value", deploy, 9, 16, "spec template spec containers", "image", "", true, "name ports"},
		{"an item's first key", deploy, 13, 10, "spec template spec containers", "name", "na", false, "env"},
		{"an indented list", deploy, 16, 14, "spec template spec containers env", "", "va", false, "name"},
		{"the list's own key", deploy, 7, 8, "spec template spec", "containers", "co", false, ""},
		{"json", json, 8, 12, "spec containers", "", "ima", false, "name"},
		{"json key", json, 7, 11, "spec containers", "name", "na", false, ""},
		{"a blank line", items, 3, 4, "items metadata", "", "", false, "name"},
		{"an empty line above its mapping's keys", under, 3, 2, "spec", "", "", false, "replicas selector strategy template"},
		{"under a dash's key", items, 2, 6, "items metadata", "name", "na", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fieldAt(strings.Split(tc.text, "\n"), tc.row, tc.col)
			if strings.Join(c.Parent, " ") != tc.parent || c.Key != tc.key || c.Typed != tc.typed || c.Value != tc.value {
				t.Errorf("got parent %q key %q typed %q value %v", c.Parent, c.Key, c.Typed, c.Value)
			}
			var want []string
			if tc.present != "" {
				want = strings.Fields(tc.present)
			}
			got := slices.Clone(c.Present)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("present %q, want %q", c.Present, want)
			}
		})
	}
}

// FuzzFieldAt: any text at any position is read without a panic, and
// what is typed is always a prefix of the line's content.
func FuzzFieldAt(f *testing.F) {
	for _, s := range []string{"a:\n  b: c\n  - d", "- - x:\n  '\"q\": 1", "{\n \"a\": [\n  {", "---\nx:\n# c\n  y"} {
		f.Add(s, 2, 3)
	}
	f.Fuzz(func(t *testing.T, text string, row, col int) {
		lines := strings.Split(text, "\n")
		c := fieldAt(lines, row, col)
		if row >= 0 && row < len(lines) && !strings.Contains(lines[row], c.Typed) {
			t.Errorf("typed %q is not on line %q", c.Typed, lines[row])
		}
	})
}

func fieldAt(lines []string, row, col int) FieldContext {
	return FieldAt(len(lines), func(i int) string { return lines[i] }, row, col)
}
