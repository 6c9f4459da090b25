package timeline

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

// press sends k (a key name or runes) and returns the view and the
// intent it answers with, nil for none.
func press(m Model, k tea.KeyMsg) (Model, tea.Msg) {
	m, cmd := m.Update(k)
	if cmd == nil {
		return m, nil
	}
	return m, cmd()
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// logCM is a ConfigMap version as the audit log stores it; no foo when
// foo is "-".
func logCM(rv, foo string) *unstructured.Unstructured {
	data := map[string]any{}
	if foo != "-" {
		data["foo"] = foo
	}
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "testmap", "namespace": "default", "uid": "u", "resourceVersion": rv}, "data": data}}
}

// TestFollowAPath: / then a path and enter asks the app for the values
// of the versions kedit saw and shows the field's value in each version
// in a column titled with the path, those only the audit log holds read
// from the log; a version without it says absent; a value is escaped and
// "" shows as a value. Typed keys are text (q does not quit); a bad path
// is said and stays to be corrected; esc stops following, and a second
// esc closes the timeline.
func TestFollowAPath(t *testing.T) {
	alice := history.Client{User: "alice", UserAgent: "kubectl"}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ev := func(s int, verb, rv, req, foo string) history.Event {
		at := t0.Add(time.Duration(s) * time.Second)
		return history.Event{Verb: verb, Client: alice, Received: at, Time: at, Code: 200, Object: logCM(rv, foo), RequestRV: req}
	}
	h := history.Analyze([]history.Event{ev(0, history.VerbCreate, "1", "", "1"), ev(1, history.VerbUpdate, "2", "1", "2"), ev(2, history.VerbUpdate, "3", "2", "-")})
	live := []model.Entry{
		{ID: 0, ResourceVersion: "4", Observed: t0.Add(time.Minute), Manager: "kedit", Operation: "Update"},
		{ID: 1, ResourceVersion: "5", Observed: t0.Add(2 * time.Minute), Manager: "bob", Operation: "Update"},
	}
	content := Content{Object: "ConfigMap/testmap", Format: model.FormatYAML, Live: live}

	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(120, 20)
	m.Open(content)
	read := m.ReadHistory(context.Background(), func(context.Context) (*history.History, error) { return h, nil })
	m, _ = m.Update(read())

	m, got := press(m, runes("/"))
	if got != nil || !m.Typing() {
		t.Fatalf("/ answers %#v, typing %v", got, m.Typing())
	}
	for _, k := range []string{".data.q", "x"} {
		if m, got = press(m, runes(k)); got != nil {
			t.Errorf("typing %q answers %#v", k, got)
		}
	}
	if out := ansi.Strip(m.View()); !strings.Contains(out, "follow the value of: .data.qx") {
		t.Errorf("the path typed is not shown:\n%s", out)
	}
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyCtrlU})
	m, _ = press(m, runes(".data["))
	if m, got = press(m, tea.KeyMsg{Type: tea.KeyEnter}); !m.Typing() {
		t.Errorf("a bad path was taken")
	} else if out := ansi.Strip(m.View()); got != nil || !strings.Contains(out, `".data[" is not a field path`) {
		t.Errorf("a bad path answers %#v, and the view does not say why under it:\n%s", got, out)
	}
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyBackspace})
	m, _ = press(m, runes(".foo"))
	if m, got = press(m, tea.KeyMsg{Type: tea.KeyEnter}); got != (FollowPathMsg{}) || m.Typing() || m.Path().String() != ".data.foo" {
		t.Fatalf("enter answers %#v, typing %v, path %q", got, m.Typing(), m.Path())
	}
	if out := ansi.Strip(m.View()); strings.Contains(out, "is not a field path") {
		t.Errorf("the bad path's error outlives the path followed:\n%s", out)
	}
	// The app's answer: the values of the versions kedit saw.
	content.PathValues = map[int]history.PathValue{0: {State: history.PathSet, Value: "mine\x1b[2J"}, 1: {State: history.PathSet, Value: ""}}
	m.SetContent(content)
	view := m.View()
	out := ansi.Strip(view)
	lines := strings.Split(out, "\n")
	row := func(rv string) string {
		for _, l := range lines {
			if f := strings.Fields(strings.TrimPrefix(l, ">")); len(f) > 0 && f[0] == rv {
				return l
			}
		}
		t.Errorf("no row of rv %s:\n%s", rv, out)
		return ""
	}
	for rv, want := range map[string]string{"5": ` "" `, "4": ` "mine\x1b[2J" `, "3": " absent ", "2": ` "2" `, "1": ` "1" `} {
		if r := row(rv); !strings.Contains(r, want) {
			t.Errorf("rv %s: %q, want %q in it", rv, r, want)
		}
	}
	column := regexp.MustCompile(`OPERATION  \.data\.foo +CHANGED`)
	if !column.MatchString(out) {
		t.Errorf("no column titled with the path:\n%s", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("a raw escape from a value on the screen:\n%q", out)
	}
	if !strings.Contains(common.FooterLine(m.styles, m.ShortHelp(), m.keys.Help, 200, 1), "esc stop following") {
		t.Errorf("the footer does not say esc stops following")
	}

	if m, got = press(m, tea.KeyMsg{Type: tea.KeyEsc}); got != (FollowPathMsg{}) || !m.Path().IsZero() {
		t.Errorf("esc answers %#v, path %q; want it dropped", got, m.Path())
	}
	if out := ansi.Strip(m.View()); column.MatchString(out) || strings.Contains(out, "absent") {
		t.Errorf("the column stays after esc:\n%s", out)
	}
	if _, got = press(m, tea.KeyMsg{Type: tea.KeyEsc}); got != (CloseMsg{}) {
		t.Errorf("the second esc answers %#v, want CloseMsg", got)
	}
}

// TestFollowedSecretIsMasked: the values of a Secret's versions only the
// log holds are masked.
func TestFollowedSecretIsMasked(t *testing.T) {
	secret := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "creds", "namespace": "default", "uid": "u", "resourceVersion": "1"}, "data": map[string]any{"password": "aHVudGVyMg=="}}}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := history.Analyze([]history.Event{{Verb: history.VerbCreate, Client: history.Client{User: "alice"}, Received: t0, Time: t0, Code: 201, Object: secret}})
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(120, 20)
	m.Open(Content{Object: "Secret/creds", Secret: true, Format: model.FormatYAML})
	read := m.ReadHistory(context.Background(), func(context.Context) (*history.History, error) { return h, nil })
	m, _ = m.Update(read())
	m, _ = press(m, runes("/"))
	m, _ = press(m, runes(".data.password"))
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyEnter})
	out := ansi.Strip(m.View())
	if strings.Contains(out, "aHVudGVyMg") || !strings.Contains(out, `"`+common.SecretMask+`"`) {
		t.Errorf("the Secret's value is not masked:\n%s", out)
	}
}

// TestPathPromptAt80: the prompt's examples are fields this object's
// versions changed (.data.foo, not another object's .data["nginx.conf"]);
// a backslash typed is escaped once in the error (was twice: "[[[\\\\");
// the prompt and the error wrap at words within 80 columns, none cut.
func TestPathPromptAt80(t *testing.T) {
	live := []model.Entry{
		{ID: 0, ResourceVersion: "4", Manager: "kedit-demo", Operation: "Update"},
		{ID: 1, ResourceVersion: "5", Manager: "kedit", Operation: "Update", Changes: []model.FieldChange{{Path: ".data.foo"}}},
		{ID: 2, ResourceVersion: "6", Manager: "demo-writer", Operation: "Update", Changes: []model.FieldChange{{Path: ".data.bar"}, {Path: `.spec.containers[name="app"].image`}}},
	}
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 20)
	m.Open(Content{Object: "ConfigMap/testmap", Format: model.FormatYAML, Live: live})
	m, _ = press(m, runes("/"))
	out := ansi.Strip(m.View())
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "(such as .data.bar, .data.foo; enter follows it, esc cancels)") || strings.Contains(out, "nginx.conf") {
		t.Errorf("the prompt's examples are not this object's fields:\n%s", out)
	}
	m, _ = press(m, runes(`[[[\`))
	m, _ = press(m, tea.KeyMsg{Type: tea.KeyEnter})
	out = ansi.Strip(m.View())
	if !strings.Contains(out, `"[[[\\" is not a field path`) {
		t.Errorf("the backslash typed is not escaped once:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, `is not a field path such as .data.foo or .metadata.labels["app.kubernetes.io/name"]: the key in brackets is not a quoted string`) &&
		!strings.Contains(flat, `is not a field path such as .data.foo or .metadata.labels["app.kubernetes.io/name"]:`) {
		t.Errorf("the error is cut:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line wider than 80: %q", l)
		}
	}
}
