package diff

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/kedit/kedit/internal/testseed"
)

// The property behind the conflict view: no resolution removes a change
// that only one side made. The tests below build random three-way merges
// (multi-line values, keyed lists of the built-in kinds, and a custom
// resource merged by its own schema), resolve every conflict in every
// combination of mine, theirs and base, and check that each change one side
// made, and the other side did not touch, is in the final object as that
// side made it.

// textEdit replaces base's lines [start, start+n) by lines.
type textEdit struct {
	start, n int
	lines    []string
}

// sideText is one side's text: base with its edits.
type sideText struct {
	text  string
	edits []textEdit
}

// randomTexts makes a base of unique lines and two sides, each a few edits
// of base with lines of their own, so that every line says where it came
// from. Now and then theirs makes one of mine's edits too.
func randomTexts(r *rand.Rand, tag string) (base string, mine, theirs sideText) {
	n := 4 + r.IntN(24)
	bl := make([]string, n)
	for i := range bl {
		bl[i] = fmt.Sprintf("%s-b%d\n", tag, i)
	}
	base = strings.Join(bl, "")
	side := func(name string) sideText {
		var edits []textEdit
		at := 0
		for at < n && len(edits) < 4 {
			at += r.IntN(6)
			if at > n {
				break
			}
			e := textEdit{start: at, n: min(r.IntN(3), n-at)}
			for k := range r.IntN(3) {
				e.lines = append(e.lines, fmt.Sprintf("%s-%s%d-%d\n", tag, name, len(edits), k))
			}
			if e.n == 0 && len(e.lines) == 0 {
				continue
			}
			edits = append(edits, e)
			// Edits of one side stay apart, so each is one region.
			at += e.n + 1
		}
		return sideText{edits: edits}
	}
	mine, theirs = side("m"), side("t")
	if len(mine.edits) > 0 && r.IntN(4) == 0 {
		// The same edit on both sides, away from theirs' others.
		same := mine.edits[r.IntN(len(mine.edits))]
		kept := []textEdit{same}
		for _, e := range theirs.edits {
			if apart(e, same) {
				kept = append(kept, e)
			}
		}
		sort.Slice(kept, func(a, b int) bool { return kept[a].start < kept[b].start })
		theirs.edits = kept
	}
	mine.text, theirs.text = applyEdits(bl, mine.edits), applyEdits(bl, theirs.edits)
	return base, mine, theirs
}

func applyEdits(base []string, edits []textEdit) string {
	var b strings.Builder
	pos := 0
	for _, e := range edits {
		b.WriteString(strings.Join(base[pos:e.start], ""))
		b.WriteString(strings.Join(e.lines, ""))
		pos = e.start + e.n
	}
	b.WriteString(strings.Join(base[pos:], ""))
	return b.String()
}

// apart says whether two edits of base leave at least one line between
// them: git merges regions that touch into one.
func apart(a, b textEdit) bool {
	return a.start+a.n < b.start || b.start+b.n < a.start
}

// checkTextKept checks that every edit of one side that is apart from all
// of the other side's edits (or made identically by both) is in got: its
// lines are there and the base lines it replaced are gone.
func checkTextKept(t *testing.T, what, base string, mine, theirs sideText, got string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range splitLines(got) {
		have[l] = true
	}
	bl := splitLines(base)
	for _, s := range []struct {
		name        string
		own, others []textEdit
	}{{"mine", mine.edits, theirs.edits}, {"theirs", theirs.edits, mine.edits}} {
		for _, e := range s.own {
			collides := false
			for _, o := range s.others {
				if reflect.DeepEqual(o, e) {
					continue
				}
				if !apart(e, o) {
					collides = true
				}
			}
			if collides {
				continue
			}
			for _, l := range e.lines {
				if !have[l] {
					t.Fatalf("%s: %s's line %q is gone\nbase:\n%s\nmine:\n%s\ntheirs:\n%s\ngot:\n%s", what, s.name, l, base, mine.text, theirs.text, got)
				}
			}
			for _, l := range bl[e.start : e.start+e.n] {
				if have[l] {
					t.Fatalf("%s: %s removed line %q, but it is back\nbase:\n%s\nmine:\n%s\ntheirs:\n%s\ngot:\n%s", what, s.name, l, base, mine.text, theirs.text, got)
				}
			}
		}
	}
}

// forEachResolution resolves m's conflicts in every combination of mine,
// theirs and base (a sample of them when there are many) and hands over
// each final object.
func forEachResolution(t *testing.T, r *rand.Rand, m *ObjectMerge, check func(final *unstructured.Unstructured, choices []Choice)) {
	t.Helper()
	n := len(m.Conflicts)
	choices := []Choice{TakeMine, TakeTheirs, TakeBase}
	var combos [][]Choice
	if total := pow(3, n); total <= 81 {
		for c := range total {
			combo := make([]Choice, n)
			for i := range combo {
				combo[i] = choices[c%3]
				c /= 3
			}
			combos = append(combos, combo)
		}
	} else {
		for _, all := range choices {
			combos = append(combos, slices.Repeat([]Choice{all}, n))
		}
		for range 40 {
			combo := make([]Choice, n)
			for i := range combo {
				combo[i] = choices[r.IntN(3)]
			}
			combos = append(combos, combo)
		}
	}
	for _, combo := range combos {
		c := m.Clone()
		for i, ch := range combo {
			if _, err := c.Resolve(i, Resolution{Choice: ch}); err != nil {
				t.Fatal(err)
			}
		}
		final, err := c.Final()
		if err != nil {
			t.Fatal(err)
		}
		// The text the conflict view's editor starts from reads back as
		// the same object once nothing is open.
		text, err := c.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		back, err := ParseYAML(text)
		if err != nil || !reflect.DeepEqual(back.Object, final.Object) {
			t.Fatalf("YAML of the resolved merge reads back as %v (%v), want %v\n%s", back, err, final.Object, text)
		}
		check(final, combo)
	}
}

func pow(a, n int) int {
	p := 1
	for range n {
		p *= a
		if p > 1<<20 {
			return p
		}
	}
	return p
}

func TestResolutionsKeepOneSidedLines(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 60
	}
	base := testseed.Fixed(t, 0)
	for i := range seeds {
		seed := base + uint64(i)
		r := rand.New(rand.NewPCG(seed, 8))
		base, mine, theirs := randomTexts(r, "l")
		cmOf := func(text string) *unstructured.Unstructured {
			return &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "cm", "namespace": "default"},
				"data":     map[string]any{"app.conf": text},
			}}
		}
		m, err := MergeObjects(cmOf(base), cmOf(mine.text), cmOf(theirs.text))
		if err != nil {
			t.Fatal(err)
		}
		// The line merge is git's: with every region resolved to mine the
		// field is what `git merge-file --ours` would write.
		tm := Merge3Text(mine.text, base, theirs.text, TextOptions{})
		if len(m.Conflicts) != tm.Conflicts {
			t.Fatalf("seed %d: %d conflicts, the line merge has %d", seed, len(m.Conflicts), tm.Conflicts)
		}
		for _, c := range m.Conflicts {
			if c.Hunk == nil || !c.Hunk.Conflict || !strings.HasPrefix(c.Where(), ".data.app.conf ") {
				t.Fatalf("seed %d: conflict %s is not one colliding region", seed, c.Where())
			}
		}
		forEachResolution(t, r, m, func(final *unstructured.Unstructured, choices []Choice) {
			got, _, _ := unstructured.NestedString(final.Object, "data", "app.conf")
			checkTextKept(t, fmt.Sprintf("seed %d, choices %v", seed, choices), base, mine, theirs, got)
			if !slices.ContainsFunc(choices, func(c Choice) bool { return c != TakeMine }) {
				if want := oursMerge(tm); got != want {
					t.Fatalf("seed %d: all mine gives\n%s\nwant what git's --ours gives\n%s", seed, got, want)
				}
			}
		})
	}
}

// oursMerge resolves a diff3 merge's blocks to mine's section, as
// `git merge-file --ours` does.
func oursMerge(tm TextMerge) string {
	var b strings.Builder
	section := 0 // 0 outside a block, 1 mine, 2 base, 3 theirs
	for _, l := range splitLines(tm.Merged) {
		switch {
		case strings.HasPrefix(l, "<<<<<<< "):
			section = 1
		case strings.HasPrefix(l, "||||||| "):
			section = 2
		case l == "=======\n":
			section = 3
		case strings.HasPrefix(l, ">>>>>>> "):
			section = 0
		case section <= 1:
			b.WriteString(l)
		}
	}
	return b.String()
}

// A generated object: each leaf (a scalar, an atomic list, a multi-line
// text) by its path, list items of keyed lists named by their name field.
// An item's own path stands for its presence.
type leaves map[string]any

// flatten names every leaf of v under prefix; keyed says which list fields
// are keyed by name.
func flatten(out leaves, prefix string, v any, keyed map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(out, prefix+"."+k, e, keyed)
		}
		return
	case []any:
		field := prefix[strings.LastIndexByte(prefix, '.')+1:]
		if keyed[field] {
			for _, it := range x {
				name, _ := it.(map[string]any)["name"].(string)
				p := prefix + "[" + name + "]"
				out[p] = true
				flatten(out, p, it, keyed)
			}
			return
		}
	}
	out[prefix] = v
}

// changedPaths lists the leaves (and keyed items) a side added, removed or
// changed.
func changedPaths(base, side leaves) []string {
	var out []string
	for p, bv := range base {
		if sv, ok := side[p]; !ok || !equalJSON(bv, sv) {
			out = append(out, p)
		}
	}
	for p := range side {
		if _, ok := base[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// related says whether one path is the other or holds it.
func related(a, b string) bool {
	within := func(x, y string) bool {
		return x == y || strings.HasPrefix(x, y) && (x[len(y)] == '.' || x[len(y)] == '[')
	}
	return within(a, b) || within(b, a)
}

// checkObjectKept checks the property on objects: a leaf one side changed,
// with no change of the other side at, above or below it, is in final as
// that side has it; a multi-line text both sides edited keeps each side's
// edits that are apart from the other's.
func checkObjectKept(t *testing.T, what string, base, mine, theirs, final *unstructured.Unstructured, keyed map[string]bool, texts map[string][3]sideText) {
	t.Helper()
	flat := func(o *unstructured.Unstructured) leaves {
		l := leaves{}
		s, err := stripped(o, false)
		if err != nil {
			t.Fatal(err)
		}
		flatten(l, "", s.Object, keyed)
		return l
	}
	b, m, th, f := flat(base), flat(mine), flat(theirs), flat(final)
	mc, tc := changedPaths(b, m), changedPaths(b, th)
	for _, s := range []struct {
		name        string
		side        leaves
		own, others []string
	}{{"mine", m, mc, tc}, {"theirs", th, tc, mc}} {
		for _, p := range s.own {
			// A change inside an item the side added or removed goes with
			// the item: the other side's change anywhere in it collides.
			outer := p
			for _, q := range s.own {
				if len(q) < len(outer) && related(q, p) {
					outer = q
				}
			}
			if slices.ContainsFunc(s.others, func(o string) bool { return related(o, outer) }) {
				tx, isText := texts[p]
				if !isText || !slices.Contains(s.others, p) {
					continue
				}
				// Both edited this text: the line merge decides.
				mt, _ := m[p].(string)
				tt, _ := th[p].(string)
				got, _ := f[p].(string)
				if mt == tx[1].text && tt == tx[2].text {
					checkTextKept(t, what+" "+p, tx[0].text, tx[1], tx[2], got)
				}
				continue
			}
			sv, sok := s.side[p]
			fv, fok := f[p]
			if sok != fok || sok && !equalJSON(sv, fv) {
				t.Fatalf("%s: %s's change of %s (%v, present %v) is not in the final object (%v, present %v)\nbase %v\nmine %v\ntheirs %v\nfinal %v",
					what, s.name, p, sv, sok, fv, fok, base.Object, mine.Object, theirs.Object, final.Object)
			}
		}
	}
}

// objectCase is a random base and two sides, with the texts each side
// edited by path.
type objectCase struct {
	base, mine, theirs *unstructured.Unstructured
	keyed              map[string]bool
	texts              map[string][3]sideText
	opts               []Option
}

// textPool hands out the random texts of one case, so that a side's edit
// of a text is one of the prepared edits.
type textPool struct {
	r     *rand.Rand
	texts map[string][3]sideText
}

// text returns base's text for path, and records the sides' versions.
func (p *textPool) text(path string) string {
	base, mine, theirs := randomTexts(p.r, strings.NewReplacer(".", "", "[", "", "]", "").Replace(path))
	p.texts[path] = [3]sideText{{text: base}, mine, theirs}
	return base
}

// edit gives side (1 mine, 2 theirs) its version of the text at path.
func (p *textPool) edit(path string, side int) string { return p.texts[path][side].text }

func configMapCase(r *rand.Rand) objectCase {
	pool := &textPool{r: r, texts: map[string][3]sideText{}}
	data := map[string]any{"a": "1", "b": "1", "c": "1"}
	for _, k := range []string{"app.conf", "nginx.conf"} {
		data[k] = pool.text(".data." + k)
	}
	base := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "default", "labels": map[string]any{"app": "web"}},
		"data":     data,
	}}
	edit := func(side int) *unstructured.Unstructured {
		o := base.DeepCopy()
		d := o.Object["data"].(map[string]any)
		for _, k := range []string{"app.conf", "nginx.conf"} {
			if r.IntN(4) > 0 {
				d[k] = pool.edit(".data."+k, side)
			}
		}
		for range r.IntN(3) {
			k := []string{"a", "b", "c", "d"}[r.IntN(4)]
			if r.IntN(3) == 0 {
				delete(d, k)
			} else {
				d[k] = fmt.Sprint(r.IntN(3))
			}
		}
		if r.IntN(3) == 0 {
			o.SetLabels(map[string]string{"app": "web", "tier": fmt.Sprint(r.IntN(2))})
		}
		return o
	}
	return objectCase{base: base, mine: edit(1), theirs: edit(2), texts: pool.texts}
}

func deploymentCase(r *rand.Rand) objectCase {
	pool := &textPool{r: r, texts: map[string][3]sideText{}}
	container := func(i int) map[string]any {
		return map[string]any{
			"name": fmt.Sprintf("c%d", i), "image": fmt.Sprintf("img%d:1", i),
			"args": []any{"--x"},
			"env": []any{
				map[string]any{"name": "A", "value": "1"},
				map[string]any{"name": "SCRIPT", "value": pool.text(fmt.Sprintf(".spec.template.spec.containers[c%d].env[SCRIPT].value", i))},
			},
		}
	}
	base := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "d", "namespace": "default"},
		"spec": map[string]any{
			"replicas": int64(1),
			"template": map[string]any{"spec": map[string]any{"containers": []any{container(0), container(1), container(2)}}},
		},
	}}
	edit := func(side int) *unstructured.Unstructured {
		o := base.DeepCopy()
		spec := o.Object["spec"].(map[string]any)
		ps := spec["template"].(map[string]any)["spec"].(map[string]any)
		for range 1 + r.IntN(4) {
			cs := ps["containers"].([]any)
			i := r.IntN(len(cs))
			c := cs[i].(map[string]any)
			switch r.IntN(8) {
			case 0:
				c["image"] = fmt.Sprintf("img:%d", r.IntN(3))
			case 1:
				c["args"] = []any{"--x", fmt.Sprint(r.IntN(3))}
			case 2:
				env := c["env"].([]any)
				env[0].(map[string]any)["value"] = fmt.Sprint(r.IntN(3))
			case 3:
				// A name twice would make the list one value (no item
				// can be told from the other), which is not the case here.
				name := fmt.Sprintf("N%d", r.IntN(2))
				env := c["env"].([]any)
				if !slices.ContainsFunc(env, func(e any) bool { return e.(map[string]any)["name"] == name }) {
					c["env"] = append(env, map[string]any{"name": name, "value": fmt.Sprint(side)})
				}
			case 4, 5:
				for _, e := range c["env"].([]any) {
					if e := e.(map[string]any); e["name"] == "SCRIPT" {
						e["value"] = pool.edit(fmt.Sprintf(".spec.template.spec.containers[%s].env[SCRIPT].value", c["name"]), side)
					}
				}
			case 6:
				if len(cs) > 1 {
					ps["containers"] = slices.Delete(slices.Clone(cs), i, i+1)
				}
			case 7:
				spec["replicas"] = int64(r.IntN(3))
			}
		}
		return o
	}
	return objectCase{base: base, mine: edit(1), theirs: edit(2), texts: pool.texts,
		keyed: map[string]bool{"containers": true, "env": true}}
}

// gadgetSchemas is the schema a CRD would publish for example.com/v1
// Gadget: spec.ports is a list of type map keyed by name, spec.tags a set.
func gadgetSchemas(t testing.TB) Schemas {
	t.Helper()
	const doc = `{
  "com.example.v1.Gadget": {
    "type": "object",
    "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Gadget"}],
    "properties": {
      "apiVersion": {"type": "string"},
      "kind": {"type": "string"},
      "metadata": {"type": "object", "additionalProperties": {"x-kubernetes-preserve-unknown-fields": true}},
      "spec": {
        "type": "object",
        "properties": {
          "mode": {"type": "string"},
          "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
          "ports": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {
              "name": {"type": "string"}, "port": {"type": "integer"},
              "protocol": {"type": "string"}, "config": {"type": "string"}
            }}
          }
        }
      }
    }
  }
}`
	var defs map[string]*spec.Schema
	if err := json.Unmarshal([]byte(doc), &defs); err != nil {
		t.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(defs, false)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func gadgetCase(r *rand.Rand, schemas Schemas) objectCase {
	pool := &textPool{r: r, texts: map[string][3]sideText{}}
	port := func(name string, n int64) map[string]any {
		return map[string]any{"name": name, "port": n, "protocol": "TCP", "config": pool.text(".spec.ports[" + name + "].config")}
	}
	base := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": "w", "namespace": "default"},
		"spec": map[string]any{
			"mode":  "a",
			"ports": []any{port("a", 80), port("b", 443), port("c", 8080)},
			"tags":  []any{"x", "y"},
		},
	}}
	edit := func(side int) *unstructured.Unstructured {
		o := base.DeepCopy()
		spec := o.Object["spec"].(map[string]any)
		for range 1 + r.IntN(4) {
			ps := spec["ports"].([]any)
			i := r.IntN(len(ps))
			p := ps[i].(map[string]any)
			switch r.IntN(7) {
			case 0:
				p["port"] = int64(9000 + r.IntN(3))
			case 1:
				p["protocol"] = []string{"UDP", "SCTP"}[r.IntN(2)]
			case 2, 3:
				p["config"] = pool.edit(".spec.ports["+p["name"].(string)+"].config", side)
			case 4:
				if len(ps) > 1 {
					spec["ports"] = slices.Delete(slices.Clone(ps), i, i+1)
				}
			case 5:
				spec["tags"] = append(slices.Clone(spec["tags"].([]any)), fmt.Sprintf("s%d-%d", side, r.IntN(2)))
			case 6:
				spec["mode"] = fmt.Sprint(r.IntN(3))
			}
		}
		return o
	}
	return objectCase{base: base, mine: edit(1), theirs: edit(2), texts: pool.texts,
		keyed: map[string]bool{"ports": true}, opts: []Option{WithSchemas(schemas)}}
}

func TestResolutionsKeepOneSidedChanges(t *testing.T) {
	seeds := 150
	if testing.Short() {
		seeds = 25
	}
	gadgets := gadgetSchemas(t)
	kinds := []struct {
		name string
		make func(*rand.Rand) objectCase
		want SchemaSource
	}{
		{"configmap", configMapCase, SchemaBuiltin},
		{"deployment", deploymentCase, SchemaBuiltin},
		{"crd", func(r *rand.Rand) objectCase { return gadgetCase(r, gadgets) }, SchemaGiven},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			conflicts := 0
			base := testseed.Fixed(t, 0)
			for i := range seeds {
				seed := base + uint64(i)
				r := rand.New(rand.NewPCG(seed, 9))
				c := k.make(r)
				m, err := MergeObjects(c.base, c.mine, c.theirs, c.opts...)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if m.Schema != k.want {
					t.Fatalf("seed %d: merged with the %s schema, want %s", seed, m.Schema, k.want)
				}
				conflicts += len(m.Conflicts)
				forEachResolution(t, r, m, func(final *unstructured.Unstructured, choices []Choice) {
					checkObjectKept(t, fmt.Sprintf("seed %d, choices %v (conflicts %v)", seed, choices, conflictPaths(m)),
						c.base, c.mine, c.theirs, final, c.keyed, c.texts)
				})
			}
			// The cases must collide, or the property is checked on
			// clean merges only.
			if conflicts < seeds/4 {
				t.Errorf("only %d conflicts in %d merges", conflicts, seeds)
			}
			t.Logf("%d conflicts in %d merges", conflicts, seeds)
		})
	}
}
