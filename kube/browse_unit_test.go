package kube

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestTrimForRow: the informer keeps only what a row shows, so a large
// annotation or many field sets cost nothing once listed.
func TestTrimForRow(t *testing.T) {
	at := func(sec int) *metav1.Time {
		tm := metav1.NewTime(time.Date(2026, 11, 22, 12, 0, sec, 0, time.UTC))
		return &tm
	}
	fields := metav1.NewFieldsV1(`{"f:data":{"f:foo":{}}}`)
	in := &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "big", Namespace: "team-a", UID: "u-1", ResourceVersion: "812",
			CreationTimestamp: *at(0),
			Labels:            map[string]string{"app": "web"},
			Annotations:       map[string]string{"kubectl.kubernetes.io/last-applied-configuration": strings.Repeat("x", 1<<20)},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, Time: at(0), FieldsV1: fields},
				{Manager: "no-time", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: fields},
				{Manager: "kubectl-patch", Operation: metav1.ManagedFieldsOperationUpdate, Time: at(30), FieldsV1: fields},
				{Manager: "kedit", Operation: metav1.ManagedFieldsOperationApply, Time: at(20), FieldsV1: fields},
			},
		},
	}
	out, err := trimForRow(in)
	if err != nil {
		t.Fatal(err)
	}
	m := out.(*metav1.PartialObjectMetadata)
	if m.Name != "big" || m.Namespace != "team-a" || m.UID != "u-1" || m.ResourceVersion != "812" || !m.CreationTimestamp.Equal(at(0)) {
		t.Errorf("identity lost: %+v", m.ObjectMeta)
	}
	if m.Labels != nil || m.Annotations != nil {
		t.Errorf("labels %v, annotations of %d keys kept", m.Labels, len(m.Annotations))
	}
	if len(m.ManagedFields) != 1 || m.ManagedFields[0].Manager != "kubectl-patch" || m.ManagedFields[0].FieldsV1 != nil {
		t.Errorf("managedFields %+v, want kubectl-patch's entry alone, without its fields", m.ManagedFields)
	}
	if in.Annotations == nil || len(in.ManagedFields) != 4 {
		t.Error("the informer's input was changed")
	}
	row := rowOf(m)
	if row.ChangedBy != "kubectl-patch" || !row.Changed.Equal(at(30).Time) || !row.Created.Equal(at(0).Time) || row.UID != "u-1" {
		t.Errorf("row %+v", row)
	}
	// Not an object of ours: passed through untouched.
	if out, _ := trimForRow("tombstone"); out != "tombstone" {
		t.Errorf("trimForRow(tombstone) = %v", out)
	}
}

func TestNewestManagedFields(t *testing.T) {
	at := func(sec int) *metav1.Time {
		tm := metav1.NewTime(time.Unix(int64(sec), 0))
		return &tm
	}
	cases := []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
		want    string
	}{
		{"none", nil, ""},
		{"no times", []metav1.ManagedFieldsEntry{{Manager: "a"}}, ""},
		{"newest", []metav1.ManagedFieldsEntry{{Manager: "a", Time: at(5)}, {Manager: "b", Time: at(9)}, {Manager: "c", Time: at(7)}}, "b"},
		// Times have a resolution of a second; the server appends.
		{"a tie goes to the later entry", []metav1.ManagedFieldsEntry{{Manager: "a", Time: at(5)}, {Manager: "b", Time: at(5)}}, "b"},
	}
	for _, c := range cases {
		e, ok := newestManagedFields(c.entries)
		if ok != (c.want != "") || e.Manager != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, e.Manager, ok, c.want)
		}
	}
}

func TestCollectionWords(t *testing.T) {
	col := configMapCollection("team-a")
	col.Context = "kind-dev"
	if col.Resource() != "configmaps" || col.Where() != `in namespace "team-a"` || col.ListNamespace() != "team-a" {
		t.Errorf("%s %s %s", col.Resource(), col.Where(), col.ListNamespace())
	}
	all := col.InAllNamespaces()
	if all.Where() != "in all namespaces" || all.ListNamespace() != "" || col.AllNamespaces {
		t.Errorf("-A: %s, lists %q; the original changed: %v", all.Where(), all.ListNamespace(), col.AllNamespaces)
	}
	if back := all.InNamespace("team-b"); back.AllNamespaces || back.ListNamespace() != "team-b" {
		t.Errorf("back to one namespace: %+v", back)
	}
	err := &ForbiddenListError{Verb: "watch", Collection: col, Err: errString("configmaps is forbidden")}
	if want := `not allowed to watch configmaps in namespace "team-a" (context "kind-dev"): configmaps is forbidden`; err.Error() != want {
		t.Errorf("%q\nwant %q", err.Error(), want)
	}
	ne := &NotEditableError{Type: "bindings", Resource: "bindings", Verbs: []string{"create"}}
	if want := "bindings cannot be edited: the server allows only create on it; editing needs get, list, watch, and update or patch"; ne.Error() != want {
		t.Errorf("%q", ne.Error())
	}
	if !Editable([]string{"get", "list", "watch", "patch"}) || Editable([]string{"get", "list", "update"}) || Editable([]string{"list", "watch", "update"}) {
		t.Error("Editable")
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestCollectionTargetCarriesTheServer: an object opened from the browser
// keeps its drafts with its cluster, as one named on the command line does.
func TestCollectionTargetCarriesTheServer(t *testing.T) {
	col := configMapCollection("team-a")
	col.Context, col.Server = "kind-dev", "https://127.0.0.1:6443"
	tg := col.Target("team-a", "settings")
	if tg.Server != col.Server || tg.Context != col.Context || tg.Namespace != "team-a" || tg.Name != "settings" {
		t.Errorf("Target = %+v", tg)
	}
	if back := tg.Collection(); back.Server != col.Server || back.Namespace != "team-a" || back.AllNamespaces {
		t.Errorf("Collection = %+v", back)
	}
}
