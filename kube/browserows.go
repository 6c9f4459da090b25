package kube

import (
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ObjectRow is one object of a Browse, from its metadata only.
type ObjectRow struct {
	// Namespace is empty for cluster-scoped kinds.
	Namespace       string
	Name            string
	UID             types.UID
	ResourceVersion string
	Created         time.Time
	// Changed is when the newest managedFields entry was written, and
	// ChangedBy its field manager: who touched the object last, and when.
	// Both are zero for an object without managedFields.
	Changed   time.Time
	ChangedBy string
}

// rowsOf turns the informer's trimmed objects into rows, ordered by
// namespace and name.
func rowsOf(objs []any) []ObjectRow {
	rows := make([]ObjectRow, 0, len(objs))
	for _, o := range objs {
		if m, ok := o.(*metav1.PartialObjectMetadata); ok {
			rows = append(rows, rowOf(m))
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Namespace != rows[j].Namespace {
			return rows[i].Namespace < rows[j].Namespace
		}
		return rows[i].Name < rows[j].Name
	})
	return rows
}

func rowOf(m *metav1.PartialObjectMetadata) ObjectRow {
	r := ObjectRow{
		Namespace:       m.Namespace,
		Name:            m.Name,
		UID:             m.UID,
		ResourceVersion: m.ResourceVersion,
		Created:         m.CreationTimestamp.Time,
	}
	if e, ok := newestManagedFields(m.ManagedFields); ok {
		r.Changed, r.ChangedBy = e.Time.Time, e.Manager
	}
	return r
}

// newestManagedFields returns the entry written last. Entries without a
// time (allowed by the API) never count as newest.
func newestManagedFields(entries []metav1.ManagedFieldsEntry) (metav1.ManagedFieldsEntry, bool) {
	var newest metav1.ManagedFieldsEntry
	found := false
	for _, e := range entries {
		if e.Time == nil {
			continue
		}
		// Later entries win ties: the server appends, and managedFields'
		// times have a resolution of one second.
		if !found || !e.Time.Time.Before(newest.Time.Time) {
			newest, found = e, true
		}
	}
	return newest, found
}

// trimForRow is the informer's transform: it keeps what rowOf reads and
// what the informer itself needs (name, namespace, resourceVersion), and
// drops the rest, labels, annotations and field sets included.
func trimForRow(obj any) (any, error) {
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		return obj, nil // a tombstone or a bookmark: the informer's own
	}
	out := &metav1.PartialObjectMetadata{TypeMeta: m.TypeMeta}
	out.Name, out.Namespace, out.UID = m.Name, m.Namespace, m.UID
	out.ResourceVersion = m.ResourceVersion
	out.CreationTimestamp = m.CreationTimestamp
	if e, ok := newestManagedFields(m.ManagedFields); ok {
		out.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: e.Manager, Operation: e.Operation, Time: e.Time, Subresource: e.Subresource}}
	}
	return out, nil
}
