package diff

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

func TestRemovedFields(t *testing.T) {
	base := obj(t, cm("  a: \"1\"\n  b: \"1\"\n"))
	mine := obj(t, cmHead)
	removed, err := RemovedFields(base, mine)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".data.a", ".data.b"} {
		found := false
		removed.Iterate(func(p fieldpath.Path) { found = found || p.String() == want })
		if !found {
			t.Errorf("removed %v has no %s", removed, want)
		}
	}
	if removed, _ := RemovedFields(base, base); !removed.Empty() {
		t.Errorf("nothing removed gives %v", removed)
	}
}

func TestOwnershipConflicts(t *testing.T) {
	base := obj(t, cm("  foo: \"1\"\n  bar: \"1\"\n"))
	mine := obj(t, cm("  foo: mine\n  bar: \"1\"\n  new: x\n"))
	theirs := base.DeepCopy()
	theirs.SetResourceVersion("9")
	m, err := OwnershipConflicts(base, mine, theirs, map[string]string{".data.foo": "kubectl-patch", ".data.gone": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Conflicts) != 1 {
		t.Fatalf("conflicts %v", conflictPaths(m))
	}
	c := m.Conflicts[0]
	if c.Where() != ".data.foo" || c.Owner != "kubectl-patch" || c.Mine.Value != "mine" || c.Base.Value != "1" || c.Theirs.Value != "1" {
		t.Errorf("conflict %+v", c)
	}
	if len(m.Changes) != 1 || m.Changes[0].Path.String() != ".data.new" {
		t.Errorf("changes %v", m.Changes)
	}
	if _, err := m.Resolve(0, Resolution{Choice: TakeTheirs}); err != nil {
		t.Fatal(err)
	}
	final, err := m.Final()
	if err != nil {
		t.Fatal(err)
	}
	applied, err := m.FinalWithout(func(i int) bool { return m.Resolutions[i].Choice == TakeTheirs })
	if err != nil {
		t.Fatal(err)
	}
	if d := final.Object["data"].(map[string]any); d["foo"] != "1" || d["new"] != "x" {
		t.Errorf("final data %v", d)
	}
	if d := applied.Object["data"].(map[string]any); len(d) != 2 || d["new"] != "x" || d["bar"] != "1" {
		t.Errorf("applied data %v, want foo left out", d)
	}
	if applied.GetResourceVersion() != "9" {
		t.Errorf("applied at rv %q, want theirs'", applied.GetResourceVersion())
	}
	// mine was not changed by any of it.
	if v, _, _ := unstructured.NestedString(mine.Object, "data", "foo"); v != "mine" {
		t.Errorf("mine changed: %v", mine.Object)
	}
	if _, err := OwnershipConflicts(base, mine, obj(t, cm("  foo: theirs\n  bar: \"1\"\n")), map[string]string{".data.foo": "x"}); err == nil {
		t.Error("theirs with other content is taken as an ownership conflict")
	}
}

func TestNotStored(t *testing.T) {
	base := obj(t, cm("  keep: \"1\"\n  baz: \"1\"\n  set: \"1\"\n  conf: |\n    a\n    b\n    c\n    d\n"))
	sent := obj(t, cm("  keep: \"1\"\n  set: \"2\"\n  added: x\n  conf: |\n    A\n    b\n    c\n    D\n"))
	stored := obj(t, cm("  keep: \"1\"\n  baz: \"1\"\n  set: \"3\"\n  added: x\n  defaulted: y\n  conf: |\n    A\n    b\n    c\n    d\n"))
	ms, err := NotStored(base, sent, stored)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Path.String())
	}
	if want := ".data.baz .data.conf .data.set"; strings.Join(got, " ") != want {
		t.Fatalf("mismatches %v, want %s", got, want)
	}
	if ms[0].Sent.Present || !ms[0].Stored.Present || ms[2].Sent.Value != "2" || ms[2].Stored.Value != "3" {
		t.Errorf("mismatches %+v", ms)
	}
	if ms[1].Stored.Value != "A\nb\nc\nd\n" {
		t.Errorf("the text is stored as %q", ms[1].Stored.Value)
	}
	if ms, _ := NotStored(base, sent, sent); len(ms) != 0 {
		t.Errorf("stored as sent: %v", ms)
	}
}
