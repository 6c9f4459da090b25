package kube

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
)

func TestTimelineLogAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "incident.jsonl")
	ref := model.ObjectRef{Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespace: "ns", Name: "testmap"}
	at := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	write := func(entries ...model.Entry) {
		t.Helper()
		l, err := OpenTimelineLog(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Append(ref, entries); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(model.Entry{ID: 0, ResourceVersion: "1", Observed: at})
	// A second session appends: nothing of the first is lost.
	write(model.Entry{ID: 0, ResourceVersion: "2", Observed: at.Add(time.Second), Manager: "kubectl-patch", Operation: "Update",
		Changes: []model.FieldChange{{Path: ".data.foo", Kind: diff.Modified}}},
		model.Entry{ID: 1, ResourceVersion: "3", Deleted: true})

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b)
	}
	var rec model.TimelineRecord
	if err := json.Unmarshal([]byte(lines[1]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.RV != "2" || rec.Manager != "kubectl-patch" || len(rec.Changes) != 1 || rec.Changes[0].Path != ".data.foo" {
		t.Errorf("line 2: %+v", rec)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if _, err := OpenTimelineLog(filepath.Join(t.TempDir(), "no", "such", "dir", "f")); err == nil {
		t.Error("opening a file in a missing directory did not fail")
	}
}
