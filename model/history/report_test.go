package history

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func cmWith(rv, foo string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "ns", "uid": "u1", "resourceVersion": rv},
		"data":     map[string]any{"foo": foo},
	}}
}

// TestReportEscapesWhatTheLogSays: user names, user agents, managers and
// values from the log can hold terminal escapes; the text report shows
// them escaped, and the JSON report holds them as \u escapes only.
func TestReportEscapesWhatTheLogSays(t *testing.T) {
	evil := Client{User: "mallory\x1b]0;pwned\x07", UserAgent: "agent\u202e"}
	alice := Client{User: "alice", UserAgent: "kubectl"}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	events := []Event{
		{Verb: VerbCreate, Client: alice, Received: t0, Time: t0, Code: 201, Object: cmWith("1", "1")},
		{Verb: VerbGet, Client: alice, Received: t0.Add(time.Second), Time: t0.Add(time.Second), Code: 200},
		{Verb: VerbPatch, Client: evil, Manager: "m\x1b[31m", Received: t0.Add(2 * time.Second), Time: t0.Add(2 * time.Second), Code: 200, Object: cmWith("2", "\x1b[2Jbad")},
		{Verb: VerbPatch, Client: alice, Received: t0.Add(3 * time.Second), Time: t0.Add(3 * time.Second), Code: 200, Object: cmWith("3", "alice")},
	}
	h := Analyze(events)
	if len(h.LostUpdates) != 1 {
		t.Fatalf("lost updates %+v", h.LostUpdates)
	}
	rep := h.Report(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"})
	text := rep.Text()
	js, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{text, string(js)} {
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("raw control characters in the report:\n%q", out)
		}
	}
	if !strings.Contains(text, `mallory\x1b]0;pwned\x07`) {
		t.Errorf("the text report does not show the user escaped:\n%s", text)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.LostUpdates[0].LostAt.User != evil.User || back.LostUpdates[0].LostValue != "\x1b[2Jbad" {
		t.Errorf("the JSON report does not read back to the log's values: %+v", back.LostUpdates[0])
	}
}
