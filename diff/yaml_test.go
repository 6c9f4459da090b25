package diff

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

var longKey = strings.Repeat("k", 130)

func TestObjectMergeYAML(t *testing.T) {
	tests := []struct {
		name               string
		base, mine, theirs string
		want               string
	}{
		{
			name:   "clean merge prints like kubectl",
			base:   cm("  b: \"1\"\n  a: \"1\"\n"),
			mine:   cm("  b: \"2\"\n  a: \"1\"\n"),
			theirs: cm("  b: \"1\"\n  a: \"2\"\n"),
			want: `apiVersion: v1
data:
  a: "2"
  b: "2"
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
		{
			name:   "a field conflict is a block around its lines",
			base:   cm("  foo: base\n  bar: x\n"),
			mine:   cm("  foo: mine\n  bar: x\n"),
			theirs: cm("  bar: x\n"),
			want: `apiVersion: v1
data:
  bar: x
<<<<<<< mine
  foo: mine
||||||| base
  foo: base
=======
>>>>>>> theirs
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
		{
			name:   "a field that is the first of a list item",
			base:   deployHead + "      - name: app\n        image: app:1\n",
			mine:   deployHead + "      - name: app\n        image: app:2\n",
			theirs: deployHead + "      - name: app\n        image: app:3\n",
			want: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 1
  template:
    spec:
      containers:
      -
<<<<<<< mine
        image: app:2
||||||| base
        image: app:1
=======
        image: app:3
>>>>>>> theirs
        name: app
`,
		},
		{
			name:   "a whole list item",
			base:   deployHead + "      - name: app\n      - name: old\n        image: o:1\n",
			mine:   deployHead + "      - name: app\n",
			theirs: deployHead + "      - name: app\n      - name: old\n        image: o:2\n",
			want: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: app
<<<<<<< mine
||||||| base
      - image: o:1
        name: old
=======
      - image: o:2
        name: old
>>>>>>> theirs
`,
		},
		{
			name:   "a multi-line value shows only its colliding lines",
			base:   cm("  conf: |\n    a\n    b\n    c\n    d\n    e\n"),
			mine:   cm("  conf: |\n    a\n    B\n    c\n    d\n    E\n"),
			theirs: cm("  conf: |\n    a\n    b2\n    c\n    d\n    e\n"),
			want: `apiVersion: v1
data:
  conf: |
    a
    <<<<<<< mine
    B
    ||||||| base
    b
    =======
    b2
    >>>>>>> theirs
    c
    d
    E
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
		{
			name:   "a value with marker-like lines gets longer markers",
			base:   cm("  conf: |\n    =======\n    b\n"),
			mine:   cm("  conf: |\n    =======\n    B\n"),
			theirs: cm("  conf: |\n    =======\n    b2\n"),
			want: `apiVersion: v1
data:
  conf: |
    =======
    <<<<<<<< mine
    B
    |||||||| base
    b
    ========
    b2
    >>>>>>>> theirs
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
		{
			name:   "a key that needs quotes",
			base:   cm("  \"007\": b\n"),
			mine:   cm("  \"007\": m\n"),
			theirs: cm("  \"007\": t\n"),
			want: `apiVersion: v1
data:
<<<<<<< mine
  "007": m
||||||| base
  "007": b
=======
  "007": t
>>>>>>> theirs
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
		{
			name:   "a key too long for a simple key",
			base:   cm("  " + longKey + ": b\n"),
			mine:   cm("  " + longKey + ": m\n"),
			theirs: cm("  " + longKey + ": t\n"),
			want: `apiVersion: v1
data:
<<<<<<< mine
  ? ` + longKey + `
  : m
||||||| base
  ? ` + longKey + `
  : b
=======
  ? ` + longKey + `
  : t
>>>>>>> theirs
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
		{
			name:   "field blocks grow too",
			base:   cm("  foo: base\n  md: |\n    <<<<<<<<< x\n"),
			mine:   cm("  foo: mine\n  md: |\n    <<<<<<<<< x\n"),
			theirs: cm("  foo: theirs\n  md: |\n    <<<<<<<<< x\n"),
			want: `apiVersion: v1
data:
<<<<<<<<<< mine
  foo: mine
|||||||||| base
  foo: base
==========
  foo: theirs
>>>>>>>>>> theirs
  md: |
    <<<<<<<<< x
kind: ConfigMap
metadata:
  name: cm
  namespace: default
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := MergeObjects(obj(t, tt.base), obj(t, tt.mine), obj(t, tt.theirs))
			if err != nil {
				t.Fatal(err)
			}
			got, err := res.YAML()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("YAML():\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestParseYAMLRefusesBlocks(t *testing.T) {
	tests := []struct {
		name               string
		base, mine, theirs string
		line               int
		path               string
	}{
		{
			name:   "field block",
			base:   cm("  bar: x\n  foo: base\n"),
			mine:   cm("  bar: x\n  foo: mine\n"),
			theirs: cm("  bar: x\n  foo: theirs\n"),
			line:   4,
			path:   ".data.foo",
		},
		{
			name:   "field block with mine's side empty",
			base:   cm("  bar: x\n  foo: base\n"),
			mine:   cm("  bar: x\n"),
			theirs: cm("  bar: x\n  foo: theirs\n"),
			line:   4,
			path:   ".data.foo",
		},
		{
			name:   "block inside a literal value",
			base:   cm("  conf: |\n    a\n    b\n"),
			mine:   cm("  conf: |\n    a\n    B\n"),
			theirs: cm("  conf: |\n    a\n    b2\n"),
			line:   5,
			path:   ".data.conf",
		},
		{
			name:   "field of a list item",
			base:   deployHead + "      - name: app\n        image: app:1\n",
			mine:   deployHead + "      - name: app\n        image: app:2\n",
			theirs: deployHead + "      - name: app\n        image: app:3\n",
			line:   12,
			path:   `.spec.template.spec.containers[name="app"].image`,
		},
		{
			name:   "whole list item",
			base:   deployHead + "      - name: app\n      - name: old\n        image: o:1\n",
			mine:   deployHead + "      - name: app\n",
			theirs: deployHead + "      - name: app\n      - name: old\n        image: o:2\n",
			line:   12,
			path:   `.spec.template.spec.containers[name="old"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := MergeObjects(obj(t, tt.base), obj(t, tt.mine), obj(t, tt.theirs))
			if err != nil {
				t.Fatal(err)
			}
			text, err := res.YAML()
			if err != nil {
				t.Fatal(err)
			}
			_, err = ParseYAML(text)
			var me *MarkerError
			if !errors.As(err, &me) {
				t.Fatalf("ParseYAML: %v, want a *MarkerError; text:\n%s", err, text)
			}
			if me.Line != tt.line || me.Path != tt.path {
				t.Errorf("MarkerError at line %d %q, want line %d %q; text:\n%s", me.Line, me.Path, tt.line, tt.path, text)
			}
			if !strings.Contains(me.Error(), tt.path) {
				t.Errorf("error %q does not name the field", me.Error())
			}
		})
	}
}

// A user who finishes the merge in an editor deletes the markers and the
// sides not wanted; the result then parses, and resolving through the API
// gives the same object.
func TestParseYAMLAfterEditing(t *testing.T) {
	res, err := MergeObjects(
		obj(t, cm("  bar: x\n  conf: |\n    a\n    b\n  foo: base\n")),
		obj(t, cm("  bar: x\n  conf: |\n    a\n    B\n  foo: mine\n")),
		obj(t, cm("  bar: y\n  conf: |\n    a\n    b2\n  foo: theirs\n")))
	if err != nil {
		t.Fatal(err)
	}
	text, err := res.YAML()
	if err != nil {
		t.Fatal(err)
	}
	edited := takeSide(string(text), "mine")
	got, err := ParseYAML([]byte(edited))
	if err != nil {
		t.Fatalf("ParseYAML: %v\n%s", err, edited)
	}
	for i := range res.Conflicts {
		if _, err := res.Resolve(i, Resolution{Choice: TakeMine}); err != nil {
			t.Fatal(err)
		}
	}
	want, err := res.Final()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Object, want.Object) {
		t.Errorf("edited text parses to %v, Final() is %v", got.Object, want.Object)
	}
	// Resolved conflicts render without blocks.
	text, err = res.YAML()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseYAML(text); err != nil {
		t.Errorf("resolved YAML does not parse: %v\n%s", err, text)
	}
}

// takeSide keeps one side of every diff3 block, as an editor user would.
func takeSide(text, side string) string {
	var out []string
	sec := ""
	for _, l := range strings.SplitAfter(text, "\n") {
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, "<<<<<<<"):
			sec = "mine"
			continue
		case strings.HasPrefix(t, "|||||||"):
			sec = "base"
			continue
		case strings.HasPrefix(t, "======="):
			sec = "theirs"
			continue
		case strings.HasPrefix(t, ">>>>>>>"):
			sec = ""
			continue
		}
		if sec == "" || sec == side {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

func TestDecodeObject(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		notObj  bool
		invalid bool
	}{
		{name: "yaml object", in: cm("  a: b\n")},
		{name: "json object", in: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`},
		{name: "leading document marker", in: "---\n" + cm("")},
		{name: "plain text", in: "hello\nworld\n", notObj: true},
		{name: "yaml without kind", in: "apiVersion: v1\nfoo: bar\n", notObj: true},
		{name: "two documents", in: cm("") + "---\n" + cm(""), notObj: true},
		{name: "a list", in: "- a\n- b\n", notObj: true},
		{name: "empty", in: "", notObj: true},
		{name: "invalid yaml", in: "apiVersion: v1\nkind: X\na: [b\n", invalid: true},
		{name: "tab indentation", in: "apiVersion: v1\nkind: X\na:\n\tb: c\n", invalid: true},
		{name: "comments around one document", in: "# c\n---\n" + cm("") + "...\n# end\n"},
		{name: "document marker with content", in: "--- " + `{"apiVersion":"v1","kind":"ConfigMap"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeObject([]byte(tt.in))
			switch {
			case tt.notObj:
				if !errors.Is(err, ErrNotObject) {
					t.Errorf("err = %v, want ErrNotObject", err)
				}
			case tt.invalid:
				if err == nil || errors.Is(err, ErrNotObject) {
					t.Errorf("err = %v, want invalid YAML", err)
				}
			default:
				if err != nil {
					t.Errorf("err = %v", err)
				}
			}
		})
	}
}
