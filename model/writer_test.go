package model

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestWriterSince: a version's writer is known only by a managedFields
// entry that changed since the version before; a writer that left none
// (a JSON patch that only removes) is unknown, never the manager whose
// entry predates the version.
func TestWriterSince(t *testing.T) {
	carol := mf{"carol", "Update", 0, `{"f:data":{"f:a":{},"f:b":{}}}`}
	carolTrimmed := mf{"carol", "Update", 0, `{"f:data":{"f:a":{}}}`}
	tests := []struct {
		name       string
		prev, cur  []mf
		prevKV     []string
		curKV      []string
		wantWriter string
	}{
		{"a removal that leaves no entry: unknown",
			[]mf{carol}, []mf{carolTrimmed},
			[]string{"a", "1", "b", "1"}, []string{"a", "1"}, ""},
		{"a new entry: its manager",
			[]mf{carol}, []mf{carol, {"dave", "Update", 9, `{"f:data":{"f:c":{}}}`}},
			[]string{"a", "1", "b", "1"}, []string{"a", "1", "b", "1", "c", "1"}, "dave"},
		{"an entry whose time moved, though another's is later",
			[]mf{{"bob", "Update", 5, `{"f:data":{"f:b":{}}}`}, {"carol", "Update", 0, `{"f:data":{"f:a":{}}}`}},
			[]mf{{"bob", "Update", 5, `{"f:data":{"f:b":{}}}`}, {"carol", "Update", 3, `{"f:data":{"f:a":{}}}`}},
			[]string{"a", "1", "b", "1"}, []string{"a", "2", "b", "1"}, "carol"},
		{"within the same second: the owner of the changed field",
			[]mf{{"bob", "Update", 5, `{"f:data":{"f:b":{}}}`}, {"carol", "Update", 5, `{"f:data":{"f:a":{}}}`}},
			[]mf{{"bob", "Update", 5, `{"f:data":{"f:b":{}}}`}, {"carol", "Update", 5, `{"f:data":{"f:a":{}}}`}},
			[]string{"a", "1", "b", "1"}, []string{"a", "2", "b", "1"}, "carol"},
		{"a removal beside a same-second entry that owns only the map: unknown",
			[]mf{{"bob", "Update", 5, `{"f:data":{".":{},"f:b":{}}}`}},
			[]mf{{"bob", "Update", 5, `{"f:data":{".":{}}}`}},
			[]string{"b", "1"}, nil, ""},
		{"the same manager through another operation is another entry",
			[]mf{carol}, []mf{carol, {"carol", "Apply", 0, `{"f:data":{"f:c":{}}}`}},
			[]string{"a", "1", "b", "1"}, []string{"a", "1", "b", "1", "c", "1"}, "carol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prev := withManaged(cm("1", tt.prevKV...), tt.prev...)
			cur := withManaged(cm("2", tt.curKV...), tt.cur...)
			ch, err := Changes(prev, cur)
			if err != nil {
				t.Fatal(err)
			}
			if got := WriterSince(prev, cur, ch); got.Manager != tt.wantWriter {
				t.Errorf("WriterSince = %+v, want manager %q (changes %v)", got, tt.wantWriter, ch)
			}
		})
	}
	if got := WriterSince(nil, withManaged(cm("2"), carol), nil); got.Manager != "carol" {
		t.Errorf("without the version before, WriterSince = %+v, want Writer's carol", got)
	}
}

// TestTimelineCreditsOnlyAKnownWriter: on the timeline, dave's removal
// (no entry) is by an unknown writer, and carol's later write is hers.
func TestTimelineCreditsOnlyAKnownWriter(t *testing.T) {
	var tl Timeline
	v1 := withManaged(cm("1", "a", "1", "b", "1"), mf{"carol", "Update", 0, `{"f:data":{"f:a":{},"f:b":{}}}`})
	v2 := withManaged(cm("2", "a", "1"), mf{"carol", "Update", 0, `{"f:data":{"f:a":{}}}`})
	v3 := withManaged(cm("3", "a", "2"), mf{"carol", "Update", 7, `{"f:data":{"f:a":{}}}`})
	for i, v := range []*unstructured.Unstructured{v1, v2, v3} {
		tl.Observe(v, t0.Add(time.Duration(i)*time.Second), false)
	}
	es := tl.Entries()
	if es[1].Manager != "" || es[1].Operation != "" {
		t.Errorf("the removal is credited to %q (%q), want no one", es[1].Manager, es[1].Operation)
	}
	if es[2].Manager != "carol" {
		t.Errorf("carol's write is credited to %q", es[2].Manager)
	}
	// The banner over both versions: carol's entry moved since rv 1.
	if w := WriterSince(v1, v3, nil); w.Manager != "carol" {
		t.Errorf("since rv 1, the writer is %q, want carol", w.Manager)
	}
	if w := WriterSince(v1, v2, []FieldChange{{Path: ".data.b"}}); w.Manager != "" {
		t.Errorf("since rv 1 to rv 2, the writer is %q, want unknown", w.Manager)
	}
}
