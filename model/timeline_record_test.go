package model

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var secretRef = ObjectRef{
	Context:  "kind-dev",
	Resource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"},
	Kind:     "Secret", Namespace: "ns", Name: "creds",
}

// secret builds Secret ns/creds at rv with data given as key, plain value
// pairs (stored base64-encoded, as the API does).
func secret(rv string, kv ...string) *unstructured.Unstructured {
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i]] = base64.StdEncoding.EncodeToString([]byte(kv[i+1]))
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
		"metadata": map[string]any{"name": "creds", "namespace": "ns", "resourceVersion": rv, "uid": "s1"},
		"data":     data,
	}}
}

// appended collects the entries of the AppendTimeline effects among effects.
func appended(effects []Effect) []Entry {
	var out []Entry
	for _, e := range effects {
		if a, ok := e.(AppendTimeline); ok {
			out = append(out, a.Entries...)
		}
	}
	return out
}

func TestTimelineRecordsNeverHoldSecretValues(t *testing.T) {
	values := []string{"hunter2-first", "s3cr3t-second\nwith a second line", "third-value-9f8e"}
	s := NewSession(secretRef)
	s.EmitTimeline()
	var lines []string
	record := func(effects []Effect) {
		for _, e := range appended(effects) {
			b, err := EncodeTimelineEntry(secretRef, e)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(b), "}\n") || strings.Count(string(b), "\n") != 1 {
				t.Fatalf("not one JSON line: %q", b)
			}
			lines = append(lines, string(b))
		}
	}
	record(must(t, s, Opened{Object: secret("1", "password", values[0], "tls.crt", "x"), At: at(0)}))
	record(must(t, s, LiveChanged{Type: LiveModified, Object: withManaged(secret("2", "password", values[1], "tls.crt", "x"),
		mf{"kubectl-patch", "Update", 3, `{"f:data":{"f:password":{}}}`}), At: at(3)}))
	record(must(t, s, LiveChanged{Type: LiveModified, Object: secret("3", "password", values[2], "new-key", "y"), At: at(4)}))
	record(must(t, s, LiveChanged{Type: LiveDeleted, Object: secret("4", "password", values[2], "new-key", "y"), At: at(5)}))
	if len(lines) != 4 {
		t.Fatalf("%d lines for 4 versions:\n%s", len(lines), strings.Join(lines, ""))
	}
	all := strings.Join(lines, "")
	for _, v := range values {
		for _, form := range []string{v, base64.StdEncoding.EncodeToString([]byte(v)), strings.Split(v, "\n")[0]} {
			if strings.Contains(all, form) {
				t.Errorf("the timeline lines hold a Secret's value %q:\n%s", form, all)
			}
		}
	}
	// Keys and who wrote what are the point of the file.
	var second TimelineRecord
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if second.RV != "2" || second.Manager != "kubectl-patch" || second.Operation != "Update" || !second.Time.Equal(at(3)) ||
		len(second.Changes) != 1 || second.Changes[0] != (TimelineRecordChange{Path: ".data.password", Kind: "modified"}) ||
		second.Object != "secrets/creds -n ns" || second.Context != "kind-dev" {
		t.Errorf("second line: %+v", second)
	}
	for _, want := range []string{`"path":".data.new-key","kind":"added"`, `"path":".data.tls.crt","kind":"removed"`, `"deleted":true`} {
		if !strings.Contains(all, want) {
			t.Errorf("the lines lack %s:\n%s", want, all)
		}
	}
	// A comparison's error may quote a value: for a Secret it is not kept.
	rec := NewTimelineRecord(secretRef, Entry{Err: errors.New(`.data.password: invalid value "` + values[0] + `"`)})
	if strings.Contains(rec.Error, values[0]) {
		t.Errorf("a Secret's comparison error kept its value: %q", rec.Error)
	}
}

func TestAppendTimelineEffects(t *testing.T) {
	// Without EmitTimeline, no session returns the effect.
	quiet := opened(t, cmRef, cm("1", "foo", "1"))
	if got := appended(must(t, quiet, LiveChanged{Type: LiveModified, Object: cm("2", "foo", "2"), At: at(1)})); got != nil {
		t.Fatalf("AppendTimeline without EmitTimeline: %v", got)
	}

	s := NewSession(cmRef)
	s.EmitTimeline()
	rvs := func(es []Entry) string {
		var out []string
		for _, e := range es {
			out = append(out, e.ResourceVersion)
		}
		return strings.Join(out, ",")
	}
	steps := []struct {
		ev   Event
		want string
	}{
		{Opened{Object: cm("1", "foo", "1"), At: at(0)}, "1"},
		{LiveChanged{Type: LiveModified, Object: cm("2", "foo", "2"), At: at(1)}, "2"},
		{LiveChanged{Type: LiveModified, Object: cm("2", "foo", "2"), At: at(2)}, ""}, // a repeat
		{DraftEdited{Text: text(t, cm("2", "foo", "mine"))}, ""},
		{SaveRequested{}, ""},
		{Saved{Object: cm("4", "foo", "mine"), At: at(4)}, "4"},
		{LiveChanged{Type: LiveModified, Object: cm("3", "foo", "2", "bar", "x"), At: at(5)}, "3"}, // late, put in its place
	}
	for i, st := range steps {
		if got := rvs(appended(must(t, s, st.ev))); got != st.want {
			t.Errorf("step %d (%T): appended rv %q, want %q", i, st.ev, got, st.want)
		}
	}
}
