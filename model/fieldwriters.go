package model

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// maxFieldWriters bounds the changes whose writers are told one by one:
// each asks every entry's owned fields.
const maxFieldWriters = 64

// FieldWriters names the writer of each of changed, the fields that
// changed from prev to cur, when more than one field manager's entry
// moved between them (WriterSince's rule, field by field): nil when one
// writer made them all, or when there are too many to tell one by one
// (then several is true: no one writer may be credited with them all).
func FieldWriters(prev, cur *unstructured.Unstructured, changed []FieldChange) (by []string, several bool) {
	if prev == nil || cur == nil || len(changed) < 2 || movedManagers(prev, cur) < 2 {
		return nil, false
	}
	if len(changed) > maxFieldWriters {
		return nil, true
	}
	by = make([]string, len(changed))
	for i, c := range changed {
		by[i] = WriterSince(prev, cur, []FieldChange{c}).Manager
	}
	for _, m := range by[1:] {
		if m != by[0] {
			return by, false
		}
	}
	return nil, false
}

// movedManagers counts the field managers whose entries are new or moved
// on from prev to cur.
func movedManagers(prev, cur *unstructured.Unstructured) int {
	before := map[string]*metav1.Time{}
	for _, e := range prev.GetManagedFields() {
		before[writerKey(e)] = e.Time
	}
	names := map[string]bool{}
	for _, e := range cur.GetManagedFields() {
		t, ok := before[writerKey(e)]
		if !ok || e.Time != nil && (t == nil || e.Time.After(t.Time)) {
			names[e.Manager] = true
		}
	}
	return len(names)
}
