package diff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// appConf is a config file of n lines, with the given lines (1-based)
// replaced.
func appConf(n int, set map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if v, ok := set[i]; ok {
			b.WriteString(v + "\n")
			continue
		}
		fmt.Fprintf(&b, "setting%d = %d\n", i, i)
	}
	return b.String()
}

func confMap(text string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "default"},
		"data":     map[string]any{"app.conf": text},
	}}
}

// TestTakingMineKeepsTheirsCleanLines: taking mine keeps what theirs changed
// beside the collision. The draft
// changes lines 5 and 10 of a 40-line file, theirs lines 10 and 30. Only
// line 10 collides; taking mine must keep theirs' line 30.
func TestTakingMineKeepsTheirsCleanLines(t *testing.T) {
	base := appConf(40, nil)
	mine := appConf(40, map[int]string{5: "mine5", 10: "mine10"})
	theirs := appConf(40, map[int]string{10: "theirs10", 30: "theirs30"})
	m, err := MergeObjects(confMap(base), confMap(mine), confMap(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Conflicts) != 1 || m.Conflicts[0].Where() != ".data.app.conf line 10" {
		t.Fatalf("conflicts %v, want .data.app.conf line 10", conflictWheres(m))
	}
	var changes []string
	for _, c := range m.Changes {
		changes = append(changes, c.Where()+" "+c.Side.String())
	}
	if want := []string{".data.app.conf line 5 mine", ".data.app.conf line 30 theirs"}; strings.Join(changes, ", ") != strings.Join(want, ", ") {
		t.Errorf("changes %q, want %q", changes, want)
	}
	if h := m.Changes[1].Hunk; h == nil || strings.Join(h.BaseLines, "") != "setting30 = 30\n" || strings.Join(h.TheirsLines, "") != "theirs30\n" {
		t.Errorf("theirs' change has hunk %+v", m.Changes[1].Hunk)
	}
	// While open, the field holds theirs' line 10 and mine's line 5.
	if got, _, _ := unstructured.NestedString(m.Merged.Object, "data", "app.conf"); got != appConf(40, map[int]string{5: "mine5", 10: "theirs10", 30: "theirs30"}) {
		t.Errorf("merged while open:\n%s", got)
	}
	for _, tc := range []struct {
		choice Choice
		line10 string
	}{{TakeMine, "mine10"}, {TakeTheirs, "theirs10"}, {TakeBase, "setting10 = 10"}} {
		c := m.Clone()
		if _, err := c.Resolve(0, Resolution{Choice: tc.choice}); err != nil {
			t.Fatal(err)
		}
		final, err := c.Final()
		if err != nil {
			t.Fatal(err)
		}
		got, _, _ := unstructured.NestedString(final.Object, "data", "app.conf")
		if want := appConf(40, map[int]string{5: "mine5", 10: tc.line10, 30: "theirs30"}); got != want {
			t.Errorf("resolved to %v:\n%s\nwant\n%s", tc.choice, got, want)
		}
	}
}

func TestEachCollidingRegionIsAConflict(t *testing.T) {
	base := appConf(30, nil)
	mine := appConf(30, map[int]string{3: "m3", 4: "m4", 15: "m15", 25: "m25"})
	theirs := appConf(30, map[int]string{3: "t3", 15: "t15", 20: "t20"})
	m, err := MergeObjects(confMap(base), confMap(mine), confMap(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := conflictWheres(m), []string{".data.app.conf lines 3–4", ".data.app.conf line 15"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("conflicts %q, want %q", got, want)
	}
	// One by one: the first to theirs, the second by hand.
	if _, err := m.Resolve(0, Resolution{Choice: TakeTheirs}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Resolve(1, Resolution{Choice: TakeCustom, Value: FieldValue{Present: false}}); err == nil {
		t.Error("a custom value that removes the field was taken for one region")
	}
	text, err := m.YAML()
	if err != nil {
		t.Fatal(err)
	}
	// The open region is a block inside the literal text, with both sides'
	// clean lines and the resolved region merged around it.
	for _, want := range []string{
		"    setting2 = 2\n    t3\n    setting4 = 4\n",
		"    setting14 = 14\n    <<<<<<< mine\n    m15\n    ||||||| base\n    setting15 = 15\n    =======\n    t15\n    >>>>>>> theirs\n    setting16 = 16\n",
		"    t20\n", "    m25\n",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("YAML:\n%s\nwant it to hold\n%s", text, want)
		}
	}
	if _, err := ParseYAML(text); err == nil {
		t.Error("the YAML with a block left in parses")
	}
	if _, err := m.Resolve(1, Resolution{Choice: TakeCustom, Value: FieldValue{Present: true, Value: "both15\n"}}); err != nil {
		t.Fatal(err)
	}
	final, err := m.Final()
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := unstructured.NestedString(final.Object, "data", "app.conf")
	if want := appConf(30, map[int]string{3: "t3", 15: "both15", 20: "t20", 25: "m25"}); got != want {
		t.Errorf("final:\n%s\nwant\n%s", got, want)
	}
}

// TestWhere names regions by their lines in base.
func TestWhere(t *testing.T) {
	m, err := MergeObjects(confMap("a\nb\n"), confMap("m\na\nb\n"), confMap("t\na\nb\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictWheres(m); len(got) != 1 || got[0] != ".data.app.conf before line 1" {
		t.Errorf("an insertion at the top is %q", got)
	}
	m, err = MergeObjects(confMap("a\nb\n"), confMap("a\nm\nb\n"), confMap("a\nt\nb\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictWheres(m); len(got) != 1 || got[0] != ".data.app.conf after line 1" {
		t.Errorf("an insertion after line 1 is %q", got)
	}
}

// TestReportNamesLines: kedit merge --json lists each colliding region with
// its lines, and keeps the fields it always had.
func TestReportNamesLines(t *testing.T) {
	base := appConf(12, nil)
	mine := appConf(12, map[int]string{2: "m2", 10: "m10"})
	theirs := appConf(12, map[int]string{2: "t2", 10: "t10"})
	enc := func(o *unstructured.Unstructured) []byte {
		b, _ := json.Marshal(o.Object)
		return b
	}
	d, err := MergeDocuments(enc(confMap(mine)), enc(confMap(base)), enc(confMap(theirs)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(d.Report())
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Conflicts []map[string]any `json:"conflicts"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Conflicts) != 2 {
		t.Fatalf("report %s", out)
	}
	c := r.Conflicts[1]
	lines, _ := c["lines"].(map[string]any)
	mineLines, _ := lines["mine"].(map[string]any)
	if c["path"] != ".data.app.conf" || c["mine"] != mine || mineLines["start"] != float64(10) || mineLines["count"] != float64(1) || mineLines["text"] != "m10\n" {
		t.Errorf("second conflict %v", c)
	}
}

func conflictWheres(m *ObjectMerge) []string {
	var out []string
	for _, c := range m.Conflicts {
		out = append(out, c.Where())
	}
	return out
}

// TestBlockAroundFieldKeepsCleanLines: a text that YAML cannot write as a
// literal block (trailing spaces) gets its block around the field, and
// each section still holds both sides' clean lines, so keeping any one of
// them drops no change that did not collide.
func TestBlockAroundFieldKeepsCleanLines(t *testing.T) {
	base := "a \nb\nc\nd\ne\nf\ng\n"
	mine := "a \nM\nc\nd\ne\nf\nm7\n"
	theirs := "a \nT\nc\nd\nt5\nf\ng\n"
	m, err := MergeObjects(confMap(base), confMap(mine), confMap(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if got := conflictWheres(m); len(got) != 1 || got[0] != ".data.app.conf line 2" {
		t.Fatalf("conflicts %q", got)
	}
	text, err := m.YAML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`app.conf: "a \nM\nc\nd\nt5\nf\nm7\n"`,
		`app.conf: "a \nb\nc\nd\nt5\nf\nm7\n"`,
		`app.conf: "a \nT\nc\nd\nt5\nf\nm7\n"`,
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("YAML:\n%s\nhas no section %s", text, want)
		}
	}
}
