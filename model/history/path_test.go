package history

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

func TestParsePath(t *testing.T) {
	obj := map[string]any{
		"data": map[string]any{"foo": "1", "nginx.conf": "user nginx;", "a]b": "odd", "empty": "", "null": nil},
		"spec": map[string]any{"containers": []any{map[string]any{"image": "web:1"}}},
	}
	for _, c := range []struct{ path, want string }{
		{".data.foo", `"1"`},
		{"data.foo", `"1"`},
		{`.data["nginx.conf"]`, `"user nginx;"`},
		{`.data['nginx.conf']`, `"user nginx;"`},
		{`.data["a]b"]`, `"odd"`},
		{".data.empty", `""`},
		{".data.null", `null`},
		{".data.bar", "absent"},
		{".data.foo.deeper", "absent"},
		{".spec.containers[0].image", `"web:1"`},
		{".spec.containers[1].image", "absent"},
		{".spec.containers.image", "absent"},
		{".data", `{"a]b":"odd","empty":"","foo":"1","nginx.conf":"user nginx;","null":null}`},
	} {
		p, err := ParsePath(c.path)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", c.path, err)
			continue
		}
		if got := string(p.ValueIn(obj, false).Text()); got != c.want {
			t.Errorf("%s: %s, want %s", c.path, got, c.want)
		}
	}
	for _, bad := range []string{"", ".", ".data.", ".data[", ".data[x]", `.data["foo"`, ".data[-1]", "..data"} {
		if _, err := ParsePath(bad); err == nil || !strings.Contains(err.Error(), "is not a field path such as .data.foo") {
			t.Errorf("ParsePath(%q) = %v, want an error saying what a path is", bad, err)
		}
	}
}

// TestSecretPathValuesMasked: a Secret's values at a path are masked,
// whole or one by one, and the object given is not changed.
func TestSecretPathValuesMasked(t *testing.T) {
	obj := map[string]any{"kind": "Secret", "data": map[string]any{"password": "aHVudGVyMg=="}, "type": "Opaque"}
	for path, want := range map[string]string{".data.password": `"` + diff.SecretMask + `"`, ".data": `{"password":"` + diff.SecretMask + `"}`, ".type": `"Opaque"`, ".data.none": "absent"} {
		p, _ := ParsePath(path)
		if got := string(p.ValueIn(obj, true).Text()); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if obj["data"].(map[string]any)["password"] != "aHVudGVyMg==" {
		t.Error("masking changed the object given")
	}
}

// TestPathReport: the path's value in each version of the log, oldest
// first, in the text (a line of its changes and a table) and in the
// JSON; a version without the field says absent, never an empty value;
// what the log holds is escaped.
func TestPathReport(t *testing.T) {
	alice := Client{User: "alice", UserAgent: "kubectl"}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	noFoo := cmWith("3", "")
	unstructured.RemoveNestedField(noFoo.Object, "data", "foo")
	events := []Event{
		{Verb: VerbCreate, Client: alice, Received: at(0), Time: at(0), Code: 201, Object: cmWith("1", "1")},
		{Verb: VerbUpdate, Client: alice, Received: at(1), Time: at(1), Code: 200, Object: cmWith("2", "2"), RequestRV: "1"},
		{Verb: VerbUpdate, Client: alice, Received: at(2), Time: at(2), Code: 200, Object: noFoo, RequestRV: "2"},
		{Verb: VerbUpdate, Client: alice, Received: at(3), Time: at(3), Code: 200, Object: cmWith("4", "mine\x1b[2J"), RequestRV: "3"},
		{Verb: VerbUpdate, Client: alice, Received: at(4), Time: at(4), Code: 200, Object: cmWith("5", "mine\x1b[2J"), RequestRV: "4"},
	}
	h := Analyze(events)
	p, _ := ParsePath(".data.foo")
	rep := h.Report(ReportObject{Resource: "configmaps", Namespace: "ns", Name: "cm"})
	values := h.PathReport(p)
	rep.Path = &values
	text := rep.Text()
	if !strings.Contains(text, `VALUES OF .data.foo: "1" → "2" → absent → "mine\x1b[2J"`+"\n") {
		t.Errorf("no line of the values:\n%s", text)
	}
	if strings.Contains(text, "\x1b") {
		t.Errorf("raw escapes in the text:\n%q", text)
	}
	for _, row := range []string{"RV  TIME      USER   MANAGER  VALUE", `3   10:00:02  alice  -        absent`, `5   10:00:04  alice  -        "mine\x1b[2J"`} {
		if !strings.Contains(text, row) {
			t.Errorf("no row %q:\n%s", row, text)
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
	got := back.Path.Values
	if back.Path.Path != ".data.foo" || len(got) != 5 || got[2].State != PathAbsent || got[2].Value != nil ||
		got[0].State != PathSet || got[0].Value != "1" || got[3].Value != "mine\x1b[2J" || got[3].ResourceVersion != "4" {
		t.Errorf("the JSON's path: %+v", back.Path)
	}
	// No --path: no path in the JSON.
	plain, _ := h.Report(ReportObject{Name: "cm"}).JSON()
	if strings.Contains(string(plain), `"path"`) {
		t.Errorf("a report without a path has one:\n%s", plain)
	}
}
