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

// TestReportSaysRevertsRecreationsAndTools: carol reads the object after
// bob's change and sets foo back to what it was (a revert, not a lost
// update: she may have read it); alice reads, the object is deleted and
// created again, and her write from that read loses dave's value (the
// evidence names her read of the deleted object); alice writes under two
// field managers (a note says a loss between them is not seen).
func TestReportSaysRevertsRecreationsAndTools(t *testing.T) {
	alice := Client{User: "alice", UserAgent: "kubectl"}
	bob := Client{User: "bob", UserAgent: "kubectl"}
	carol := Client{User: "carol", UserAgent: "kubectl"}
	dave := Client{User: "dave", UserAgent: "kubectl"}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	recreated := cmWith("6", "dave")
	recreated.SetUID("u2")
	events := []Event{
		{Verb: VerbCreate, Client: alice, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201, Object: cmWith("1", "1")},
		{Verb: VerbPatch, Client: bob, Received: at(1), Time: at(1), Code: 200, Object: cmWith("2", "bob")},
		{Verb: VerbGet, Client: carol, Received: at(2), Time: at(2), Code: 200},
		{Verb: VerbUpdate, Client: carol, Manager: "kubectl-replace", Received: at(3), Time: at(3), Code: 200, Object: cmWith("3", "1")},
		{Verb: VerbGet, Client: alice, Received: at(4), Time: at(4), Code: 200},
		// alice's kubectl patch of another key: its own get first, and
		// her first field manager.
		{Verb: VerbGet, Client: alice, Received: at(4).Add(400 * time.Millisecond), Time: at(4).Add(401 * time.Millisecond), Code: 200},
		{Verb: VerbPatch, Client: alice, Manager: "kubectl-patch", Received: at(4).Add(402 * time.Millisecond), Time: at(4).Add(405 * time.Millisecond), Code: 200,
			Object: func() *unstructured.Unstructured {
				o := cmWith("4", "1")
				o.Object["data"].(map[string]any)["bar"] = "alice"
				return o
			}()},
		{Verb: VerbDelete, Client: dave, Received: at(5), Time: at(5), Code: 200, UID: "u1"},
		{Verb: VerbCreate, Client: dave, Received: at(6), Time: at(6), Code: 201, Object: recreated},
		{Verb: VerbPatch, Client: alice, Manager: "kubectl-edit", Received: at(7), Time: at(7), Code: 200, Object: func() *unstructured.Unstructured {
			o := cmWith("7", "alice")
			o.SetUID("u2")
			return o
		}()},
	}
	h := Analyze(events)
	if len(h.Reverted) != 1 || h.Reverted[0].Path.String() != ".data.foo" || h.Versions[h.Reverted[0].OverwrittenBy].Client != carol {
		t.Fatalf("reverted %+v; want carol's foo", h.Reverted)
	}
	if len(h.LostUpdates) != 1 || !strings.Contains(h.LostUpdates[0].Evidence, "that read was of the deleted object (uid u1)") ||
		!strings.Contains(h.LostUpdates[0].Evidence, "created again (uid u2) by dave") {
		t.Fatalf("lost updates %+v; want dave's foo, the evidence naming alice's read of the deleted object", h.LostUpdates)
	}
	rep := h.Report(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"})
	text := rep.Text()
	for _, want := range []string{"created again (uid u2)", "REVERTED: 1", `.data.foo: "bob" set by bob`, "set back by carol (kubectl-replace)",
		"not called a lost update, as carol may have read it: carol last read the object at 2025-03-01T10:00:02.000000Z (resourceVersion 2), after that change",
		"note: alice (kubectl) wrote under 2 field managers (kubectl-patch, kubectl-edit)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
	js, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Reverted) != 1 || len(back.ToolChanges) != 1 || back.ToolChanges[0].Write.Manager != "kubectl-edit" || !back.Versions[5].CreatedAgain || back.Versions[5].UID != "u2" {
		t.Errorf("JSON report: reverted %+v, tool changes %+v, versions %+v", back.Reverted, back.ToolChanges, back.Versions)
	}
}

// TestToolChangesCountOnlyNamedManagers: a write whose request named no
// field manager (GKE's entries have no request URI) is credited the one
// managedFields give; that guess is no change of tool.
func TestToolChangesCountOnlyNamedManagers(t *testing.T) {
	alice := Client{User: "alice", UserAgent: "kubectl"}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	guessed := cmWith("2", "2")
	guessed.SetManagedFields(nil)
	_ = unstructured.SetNestedSlice(guessed.Object, []any{map[string]any{"manager": "someone-else", "operation": "Update", "apiVersion": "v1",
		"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:foo": map[string]any{}}}}}, "metadata", "managedFields")
	h := Analyze([]Event{
		{Verb: VerbCreate, Client: alice, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201, Object: cmWith("1", "1")},
		{Verb: VerbPatch, Client: alice, Received: at(1), Time: at(1), Code: 200, Object: guessed},
		{Verb: VerbPatch, Client: alice, Manager: "kubectl-create", Received: at(2), Time: at(2), Code: 200, Object: cmWith("3", "3")},
	})
	if h.Versions[1].Manager != "someone-else" || len(h.ToolChanges) != 0 {
		t.Errorf("manager %q, tool changes %+v; want the guess kept out", h.Versions[1].Manager, h.ToolChanges)
	}
}
