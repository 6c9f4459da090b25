package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/editfile"
	"github.com/kedit/kedit/ui/internal/effect"
)

// lineOf is the 1-based line of text holding sub, 0 for none.
func lineOf(text, sub string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	return 0
}

// secondItem is where the second item of a YAML List starts.
func secondItem(list string) int {
	first := strings.Index(list, "\n- ")
	return first + 1 + strings.Index(list[first+1:], "\n- ") + 1
}

// TestSetListFileDiagnostics: a field the schema refuses, typed into one
// object of a set's List file, is said on that object's row and in the
// status bar with its line in the List; s asks first and sends nothing,
// s again sends every draft; e opens the List again with the reason at
// the top, its line counted with the head's lines.
func TestSetListFileDiagnostics(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 200, 30, "a", "b")
	for _, st := range m.set.states {
		st.opened.Check = refuseBaz
	}
	var list string
	m = setEdit(t, m, func(s string) string {
		s = strings.ReplaceAll(s, `foo: "1"`, `foo: mine`)
		at := secondItem(s)
		at += strings.Index(s[at:], "data:\n") + len("data:\n")
		list = s[:at] + "    baz: typed\n" + s[at:]
		return list
	})
	want := lineOf(list, "baz: typed")
	wantText := fmt.Sprintf("the schema refuses 1 field: line %d of the List: baz: unknown field, did you mean bar?", want)
	if r := rowOf(t, m, "b"); !strings.Contains(string(r.Note), wantText) {
		t.Fatalf("b's row: %q, want %q\n%s", r.Note, wantText, plain(m))
	}
	if r := rowOf(t, m, "a"); strings.Contains(string(r.Note), "schema") {
		t.Errorf("a's row: %q", r.Note)
	}
	if s := plain(m); !strings.Contains(s, fmt.Sprintf("the schema refuses 1 field of configmaps/b: line %d of the List", want)) {
		t.Errorf("the status bar:\n%s", s)
	}
	m = drive(t, m, keys("s")...)
	if s := plain(m); runnerOf(c, "a").saves+runnerOf(c, "b").saves != 0 || !strings.Contains(s, "s again sends it") {
		t.Fatalf("s did not ask first (%d, %d saves):\n%s", runnerOf(c, "a").saves, runnerOf(c, "b").saves, s)
	}
	// The List again, before the second s: its head names b's field.
	m = pressE(t, m)
	e := m.set.edit
	head := m.setRefusedHead(e)
	file := editfile.WithHead(head, e.Text)
	re := regexp.MustCompile(`^# line (\d+): configmaps/b: baz: unknown field`)
	var named int
	for _, l := range head {
		if g := re.FindStringSubmatch(l); g != nil {
			named, _ = strconv.Atoi(g[1])
		}
	}
	if named == 0 || named != lineOf(file, "baz: typed") {
		t.Fatalf("the head %q names line %d; baz is on line %d of\n%s", head, named, lineOf(file, "baz: typed"), file)
	}
	m = drive(t, m, effect.EditorFinished{Original: e.Text, Text: e.Text})
	m = drive(t, m, keys("s")...)
	if runnerOf(c, "a").saves != 1 || runnerOf(c, "b").saves != 1 {
		t.Fatalf("s again did not send both drafts (%d, %d saves):\n%s", runnerOf(c, "a").saves, runnerOf(c, "b").saves, plain(m))
	}
}

// TestSetListFileHeadNamesServerRefusals: a draft of the set the server
// refused comes back in the List with the server's cause at the top, on
// its object's line.
func TestSetListFileHeadNamesServerRefusals(t *testing.T) {
	c := newFakeCluster(t)
	m := setApp(t, c, 160, 30, "a", "b")
	m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
	runnerOf(c, "b").fail = &apiError{Kind: model.ErrorInvalid, Message: "data.foo: Invalid value", Causes: []model.FieldCause{{Field: "data.foo", Message: "Invalid value: not allowed"}}}
	m = drive(t, m, keys("s")...)
	m = pressE(t, m)
	e := m.set.edit
	head := m.setRefusedHead(e)
	file := editfile.WithHead(head, e.Text)
	at := secondItem(file)
	wantLine := strings.Count(file[:at], "\n") + lineOf(file[at:], "foo: mine")
	want := fmt.Sprintf("# line %d: configmaps/b: data.foo: Invalid value: not allowed", wantLine)
	if len(head) != 2 || head[1] != want {
		t.Fatalf("head %q, want %q\n%s", head, want, file)
	}
}
