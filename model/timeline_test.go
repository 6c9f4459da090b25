package model

import (
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

func TestWriter(t *testing.T) {
	tests := []struct {
		name    string
		entries []mf
		changed []FieldChange
		want    string
	}{
		{"no managedFields", nil, nil, ""},
		{
			"latest time wins",
			[]mf{{"kubectl-create", "Update", 0, `{"f:data":{"f:foo":{}}}`}, {"kubectl-patch", "Update", 5, `{"f:data":{"f:bar":{}}}`}, {"helm", "Update", 3, ""}},
			nil, "kubectl-patch",
		},
		{
			"same second: the manager owning a changed field",
			[]mf{{"a", "Update", 5, `{"f:data":{"f:foo":{}}}`}, {"b", "Apply", 5, `{"f:data":{"f:bar":{}}}`}},
			[]FieldChange{{Path: ".data.bar", Kind: diff.Modified}}, "b",
		},
		{
			"same second: a map added whole is owned key by key",
			[]mf{{"a", "Update", 5, `{"f:data":{"f:foo":{}}}`}, {"b", "Update", 5, `{"f:metadata":{"f:labels":{"f:team":{}}}}`}},
			[]FieldChange{{Path: ".metadata.labels", Kind: diff.Added}}, "b",
		},
		{
			"same second: a removed field's parent",
			[]mf{{"a", "Update", 5, `{"f:spec":{"f:replicas":{}}}`}, {"b", "Update", 5, `{"f:data":{".":{}}}`}},
			[]FieldChange{{Path: ".data.gone", Kind: diff.Removed}}, "b",
		},
		{
			"same second: the field's owner beats the owner of its map",
			[]mf{{"kubectl-create", "Update", 5, `{"f:data":{".":{},"f:bar":{}}}`}, {"kubectl-patch", "Update", 5, `{"f:data":{"f:foo":{}}}`}},
			[]FieldChange{{Path: ".data.foo", Kind: diff.Modified}}, "kubectl-patch",
		},
		{
			// Either may have written it: naming one could name the wrong one.
			"same second, no owner of the change: unknown",
			[]mf{{"a", "Update", 5, `{"f:data":{"f:foo":{}}}`}, {"b", "Update", 5, `{"f:data":{"f:bar":{}}}`}},
			[]FieldChange{{Path: ".spec.x", Kind: diff.Modified}}, "",
		},
		{
			"same second, nothing changed known: unknown",
			[]mf{{"demo-writer", "Update", 5, `{"f:data":{"f:bar":{}}}`}, {"kedit", "Update", 5, `{"f:data":{"f:foo":{}}}`}},
			nil, "",
		},
		{
			"same second, one manager's two entries: that manager",
			[]mf{{"a", "Update", 5, `{"f:data":{"f:foo":{}}}`}, {"a", "Apply", 5, `{"f:data":{"f:bar":{}}}`}},
			nil, "a",
		},
		{
			"a prefix of a key is not its parent",
			[]mf{{"a", "Update", 5, `{"f:data":{"f:foo":{}}}`}, {"b", "Update", 5, `{"f:data":{"f:foobar":{}}}`}},
			[]FieldChange{{Path: ".data.foobar", Kind: diff.Modified}}, "b",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := cm("1")
			if tt.entries != nil {
				withManaged(obj, tt.entries...)
			}
			if got := Writer(obj, tt.changed); got.Manager != tt.want {
				t.Errorf("Writer = %+v, want manager %q", got, tt.want)
			}
		})
	}
}

func TestChangesIgnoreServerNoise(t *testing.T) {
	a := withManaged(cm("1", "foo", "1"), mf{"a", "Update", 0, `{"f:data":{"f:foo":{}}}`})
	b := withManaged(cm("2", "foo", "1"), mf{"a", "Update", 9, `{"f:data":{"f:foo":{}}}`})
	b.SetGeneration(7)
	ch, err := Changes(a, b)
	if err != nil || len(ch) != 0 {
		t.Fatalf("Changes = %v, %v; want none", ch, err)
	}
}

func TestChanges(t *testing.T) {
	status := func(obj *unstructured.Unstructured, ready int64) *unstructured.Unstructured {
		obj.Object["status"] = map[string]any{"readyReplicas": ready, "conditions": []any{map[string]any{"type": "Available", "status": "True"}}}
		return obj
	}
	labelled := cm("2", "foo", "1")
	labelled.SetLabels(map[string]string{"team": "a"})
	tests := []struct {
		name       string
		prev, next *unstructured.Unstructured
		want       []FieldChange
	}{
		{
			"configmap keys",
			cm("1", "foo", "1", "bar", "1"), cm("2", "foo", "2", "baz", "1"),
			[]FieldChange{{".data.bar", diff.Removed}, {".data.baz", diff.Added}, {".data.foo", diff.Modified}},
		},
		{"labels added", cm("1", "foo", "1"), labelled, []FieldChange{{".metadata.labels", diff.Added}}},
		{
			"container by name",
			deploy("1", "nginx:1", 1), deploy("2", "nginx:2", 1),
			[]FieldChange{{`.spec.template.spec.containers[name="app"].image`, diff.Modified}},
		},
		{
			"status",
			status(deploy("1", "nginx:1", 1), 0), status(deploy("2", "nginx:1", 1), 1),
			[]FieldChange{{".status.readyReplicas", diff.Modified}},
		},
		{
			"status appears",
			deploy("1", "nginx:1", 1), status(deploy("2", "nginx:1", 1), 1),
			[]FieldChange{{".status.conditions", diff.Added}, {".status.readyReplicas", diff.Added}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Changes(tt.prev, tt.next)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Changes = %v, want %v", got, tt.want)
			}
		})
	}
}

// entrySummary is what a timeline test checks of an entry.
type entrySummary struct {
	RV      string
	Manager string
	Deleted bool
	Paths   []string
}

func summarize(es []Entry) []entrySummary {
	var out []entrySummary
	for _, e := range es {
		s := entrySummary{RV: e.ResourceVersion, Manager: e.Manager, Deleted: e.Deleted}
		for _, c := range e.Changes {
			s.Paths = append(s.Paths, c.Kind.String()+" "+c.Path)
		}
		out = append(out, s)
	}
	return out
}

func TestSessionTimeline(t *testing.T) {
	v1 := withManaged(cm("1", "foo", "1", "bar", "1"), mf{"kubectl-create", "Update", 0, `{"f:data":{".":{},"f:foo":{},"f:bar":{}}}`})
	v2 := withManaged(cm("2", "foo", "1", "bar", "2"),
		mf{"kubectl-create", "Update", 0, `{"f:data":{".":{},"f:foo":{}}}`},
		mf{"kubectl-patch", "Update", 10, `{"f:data":{"f:bar":{}}}`})
	v3 := withManaged(cm("3", "foo", "1", "bar", "2", "baz", "x"),
		mf{"kubectl-create", "Update", 0, `{"f:data":{".":{},"f:foo":{}}}`},
		mf{"kubectl-patch", "Update", 10, `{"f:data":{"f:bar":{}}}`},
		mf{"helm", "Apply", 20, `{"f:data":{"f:baz":{}}}`})
	// noise: only managedFields and resourceVersion move.
	v4 := withManaged(cm("4", "foo", "1", "bar", "2", "baz", "x"),
		mf{"kubectl-create", "Update", 0, `{"f:data":{".":{},"f:foo":{}}}`},
		mf{"kubectl-patch", "Update", 10, `{"f:data":{"f:bar":{}}}`},
		mf{"helm", "Apply", 30, `{"f:data":{"f:baz":{}}}`})
	v5 := withManaged(cm("5", "foo", "9", "bar", "2", "baz", "x"),
		mf{"kedit", "Update", 40, `{"f:data":{"f:foo":{}}}`},
		mf{"kubectl-patch", "Update", 10, `{"f:data":{"f:bar":{}}}`},
		mf{"helm", "Apply", 30, `{"f:data":{"f:baz":{}}}`})

	s := NewSession(cmRef)
	must(t, s, Opened{Object: v1, At: at(0)})
	must(t, s, LiveChanged{Type: LiveModified, Object: v2, At: at(10)})
	must(t, s, LiveChanged{Type: LiveModified, Object: v3, At: at(20)})
	must(t, s, LiveChanged{Type: LiveModified, Object: v4, At: at(30)})
	// kedit's own save; the informer then repeats v4 late and v5.
	must(t, s, DraftEdited{Text: text(t, cm("4", "foo", "9", "bar", "2", "baz", "x"))})
	must(t, s, SaveRequested{})
	must(t, s, Saved{Object: v5, At: at(40)})
	must(t, s, LiveChanged{Type: LiveModified, Object: v4, At: at(41)})
	must(t, s, LiveChanged{Type: LiveModified, Object: v5, At: at(42)})
	must(t, s, LiveChanged{Type: LiveDeleted, Object: v5, At: at(50)})

	got := summarize(s.Timeline())
	want := []entrySummary{
		{RV: "1", Manager: "kubectl-create"},
		{RV: "2", Manager: "kubectl-patch", Paths: []string{"modified .data.bar"}},
		{RV: "3", Manager: "helm", Paths: []string{"added .data.baz"}},
		{RV: "4", Manager: "helm"},
		{RV: "5", Manager: "kedit", Paths: []string{"modified .data.foo"}},
		{RV: "5", Deleted: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline:\n got %+v\nwant %+v", got, want)
	}
	es := s.Timeline()
	if !es[1].Observed.Equal(at(10)) || es[1].Operation != "Update" || es[2].Operation != "Apply" {
		t.Errorf("entry 1 observed %v op %q, entry 2 op %q", es[1].Observed, es[1].Operation, es[2].Operation)
	}
}

func TestTimelineObserveDedupes(t *testing.T) {
	var tl Timeline
	if !tl.Observe(cm("1"), at(0), false) || tl.Observe(cm("1"), at(1), false) || tl.Observe(nil, at(2), false) {
		t.Fatal("Observe reported a repeat or nil as new")
	}
	if tl.Len() != 1 {
		t.Fatalf("Len = %d", tl.Len())
	}
}

func TestTimelineOutOfOrder(t *testing.T) {
	// theirs read from the server (rv 3) before the informer delivers
	// rv 2: each entry is compared with the one before it in rv order.
	var tl Timeline
	tl.Observe(cm("1", "foo", "1", "bar", "1"), at(0), false)
	tl.Observe(cm("3", "foo", "2", "bar", "2"), at(1), false)
	tl.Observe(cm("2", "foo", "2", "bar", "1"), at(2), false)
	got := summarize(tl.Entries())
	want := []entrySummary{
		{RV: "1"},
		{RV: "2", Paths: []string{"modified .data.foo"}},
		{RV: "3", Paths: []string{"modified .data.bar"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline:\n got %+v\nwant %+v", got, want)
	}
}

func TestTimelineIsBounded(t *testing.T) {
	var tl Timeline
	for i := 1; i <= MaxTimeline+5; i++ {
		tl.Observe(cm(strconv.Itoa(i), "n", strconv.Itoa(i)), at(i), false)
	}
	es := tl.Entries()
	if len(es) != MaxTimeline || tl.Dropped() != 5 || es[0].ResourceVersion != "6" {
		t.Fatalf("%d entries, %d dropped, first rv %s", len(es), tl.Dropped(), es[0].ResourceVersion)
	}
	if len(es[0].Changes) != 1 {
		t.Errorf("first kept entry lost its changes: %v", es[0].Changes)
	}
}

// TestTimelineEachIsObject: the one pass over the timeline gives each
// entry, newest first, the object Object rebuilds for it alone.
func TestTimelineEachIsObject(t *testing.T) {
	var tl Timeline
	tl.Observe(cm("1", "foo", "1"), at(0), false)
	tl.Observe(cm("2", "foo", "2", "bar", "1"), at(1), false)
	tl.Observe(cm("3", "bar", "2"), at(2), false)
	tl.Observe(cm("4", "foo", "mine", "bar", "2"), at(3), false)
	var ids []int
	tl.each(func(e Entry, obj map[string]any) {
		ids = append(ids, e.ID)
		want, _ := tl.Object(e.ID)
		if !reflect.DeepEqual(obj, want.Object) {
			t.Errorf("entry %d (rv %s): each gives %v, Object %v", e.ID, e.ResourceVersion, obj, want.Object)
		}
	})
	if !reflect.DeepEqual(ids, []int{3, 2, 1, 0}) {
		t.Errorf("each went through %v, want newest first", ids)
	}
}
