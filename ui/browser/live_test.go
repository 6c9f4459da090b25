package browser

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// The browser's live list, marks, escapes, refusals, golden screens and\n// benchmarks.

func TestBrowserFollowsSnapshots(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = press(t, m, "j", "j", "j") // payments-config
	// A new object sorts before the selected one: the selection stays on
	// its object.
	rows := append([]Row{row("default", "aaa-new", time.Second, time.Second, "kubectl-create")}, fixtureRows(false)...)
	m, cmd := m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{Rows: rows, Generation: 2, Synced: true}})
	if selectedName(m) != "payments-config" || len(m.Rows()) != 7 {
		t.Errorf("after a creation: selected %q, %d rows", selectedName(m), len(m.Rows()))
	}
	if cmd != nil {
		t.Error("a snapshot of a list without a channel reads on")
	}
	// The selected object is deleted: the selection stays in place.
	var without []Row
	for _, r := range rows {
		if r.Name != "payments-config" {
			without = append(without, r)
		}
	}
	m, _ = m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{Rows: without, Generation: 3, Synced: true}})
	if selectedName(m) != "payments-flags" {
		t.Errorf("after the selected object's deletion: selected %q", selectedName(m))
	}
	// Only the connection changed: the rows are not redone.
	m, _ = m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{Rows: nil, Generation: 3, Synced: true,
		Connection: Connection{Text: escape.Textf("reconnecting since %s", browserNow.Local().Format("15:04:05"))}}})
	if len(m.Rows()) != 6 || !strings.Contains(m.header(), "reconnecting since") {
		t.Errorf("a connection change: %d rows, header %q", len(m.Rows()), m.header())
	}
	// A snapshot of a list replaced meanwhile is dropped, and its reader
	// ends.
	old := m.list
	m.SetList(browserCollection(true), nil)
	m, cmd = m.Update(SnapshotMsg{List: old, Snapshot: Snapshot{Rows: rows, Generation: 4, Synced: true}})
	if len(m.Rows()) != 0 || cmd != nil {
		t.Errorf("a stale snapshot shows %d rows, reads on: %v", len(m.Rows()), cmd != nil)
	}
	if !strings.Contains(m.header(), "listing ...") || !strings.Contains(m.View(), "listing configmaps in all namespaces ...") {
		t.Errorf("before the first list:\n%s", m.View())
	}
	// The list ended.
	m, _ = m.Update(listClosedMsg{list: m.list})
	if !strings.Contains(m.header(), "stopped") {
		t.Errorf("header %q after the list closed", m.header())
	}
}

// TestBrowserReadsItsChannel runs the commands SetList returns the way the
// program does: a snapshot on the channel arrives through Update, and the
// next read follows it.
func TestBrowserReadsItsChannel(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 24)
	ch := make(chan Snapshot, 1)
	cmd := m.SetList(browserCollection(false), func() (Snapshot, bool) { s, ok := <-ch; return s, ok })
	ch <- Snapshot{Rows: fixtureRows(false), Generation: 1, Synced: true}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("SetList's command gives %T", cmd())
	}
	msg := batch[0]()
	if !m.Handles(msg) || m.Handles(tea.KeyMsg{}) {
		t.Fatalf("Handles(%T) is false", msg)
	}
	m, next := m.Update(msg)
	if len(m.Rows()) != 6 || next == nil {
		t.Fatalf("%d rows, next read %v", len(m.Rows()), next != nil)
	}
	close(ch)
	m, next = m.Update(next())
	if next != nil || !strings.Contains(m.header(), "stopped") {
		t.Errorf("a closed channel: header %q, reads on %v", m.header(), next != nil)
	}
	// The age tick goes on while its list is current.
	if _, next := m.Update(TickMsg{List: m.list}); next == nil {
		t.Error("the age tick stopped")
	}
	if _, next := m.Update(TickMsg{List: m.list - 1}); next != nil {
		t.Error("an old list's age tick goes on")
	}
}

func TestBrowserDraftMarks(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m.SetDrafts(map[common.DraftKey]common.DraftPlace{
		{Resource: configMapsGR, Namespace: "default", Name: "payments-flags"}: common.DraftStored,
		{Resource: configMapsGR, Namespace: "default", Name: "web-frontend"}:   common.DraftInMemory,
		// The same names of another type or namespace are not these objects.
		{Resource: schema.GroupResource{Resource: "secrets"}, Namespace: "default", Name: "payments-config"}: common.DraftStored,
		{Resource: configMapsGR, Namespace: "other", Name: "kube-root-ca.crt"}:                               common.DraftStored,
	})
	marks := map[string]string{}
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 {
			name, last := f[0], f[len(f)-1]
			if name == ">" {
				name = f[1]
			}
			if last == "stored" || last == "memory" {
				marks[name] = last
			}
		}
	}
	if !reflect.DeepEqual(marks, map[string]string{"payments-flags": "stored", "web-frontend": "memory"}) {
		t.Errorf("draft marks %v:\n%s", marks, m.View())
	}
	if !m.HasDraftInMemory() {
		t.Error("HasDraftInMemory is false")
	}
	m.SetDrafts(nil)
	if m.HasDraftInMemory() {
		t.Error("HasDraftInMemory without drafts")
	}
}

// TestBrowserEscapesServerText: names and managers come from the server;
// none of their control characters reaches the terminal.
func TestBrowserEscapesServerText(t *testing.T) {
	rows := []Row{row("default", "evil\x1b[2J", time.Hour, time.Minute, "m\x1b]0;x\x07\u202e")}
	m := newBrowser(t, 120, 40, true, rows)
	m.SetDrafts(nil)
	v := m.View()
	if strings.ContainsAny(v, "\x1b\x07\u202e") {
		t.Errorf("raw control characters on the screen: %q", v)
	}
	if !strings.Contains(v, `evil\x1b[2J`) || !strings.Contains(v, `m\x1b]0;x\x07\u202e`) {
		t.Errorf("the escaped name and manager are not shown:\n%s", v)
	}
	m, _ = press(t, m, append([]string{"/"}, typed("EVIL")...)...)
	if len(m.Rows()) != 1 {
		t.Error("the filter does not find the escaped name")
	}
}

func TestBrowserRefused(t *testing.T) {
	m := newBrowser(t, 80, 24, false, nil)
	m, _ = m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{Generation: 1, Connection: Connection{
		Text:    "refused",
		Refused: fmt.Errorf(`not allowed to list configmaps in namespace "default" (context "kind-dev"): configmaps is forbidden: User "kedit-viewer" cannot list resource "configmaps" in API group "" in the namespace "default"`),
	}}})
	v := m.View()
	if !strings.Contains(v, "refused") || !strings.Contains(v, `not allowed to list configmaps in namespace "default"`) {
		t.Errorf("a refused list:\n%s", v)
	}
}

func TestBrowserGolden(t *testing.T) {
	drafts := map[common.DraftKey]common.DraftPlace{
		{Resource: configMapsGR, Namespace: "default", Name: "payments-flags"}: common.DraftStored,
		{Resource: configMapsGR, Namespace: "default", Name: "web-frontend"}:   common.DraftInMemory,
	}
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) Model
	}{
		{"list", func(t *testing.T, w, h int) Model {
			m := newBrowser(t, w, h, false, fixtureRows(false))
			m.SetDrafts(drafts)
			m, _ = press(t, m, "j", "j", "j")
			return m
		}},
		{"all_namespaces", func(t *testing.T, w, h int) Model {
			m := newBrowser(t, w, h, true, fixtureRows(true))
			m.SetDrafts(drafts)
			return m
		}},
		{"filter", func(t *testing.T, w, h int) Model {
			m := newBrowser(t, w, h, true, fixtureRows(true))
			m, _ = press(t, m, append([]string{"o", "/"}, typed("pay")...)...)
			return m
		}},
		{"prompt", func(t *testing.T, w, h int) Model {
			m := newBrowser(t, w, h, false, fixtureRows(false))
			m.SetTypes(browserTypes)
			m, _ = press(t, m, ":", "s", "e", "r", "v", "tab")
			return m
		}},
		{"namespaces", func(t *testing.T, w, h int) Model {
			m := newBrowser(t, w, h, false, fixtureRows(false))
			m, _ = press(t, m, append(append([]string{":"}, typed("ns")...), "enter")...)
			m.SetNamespaces([]string{"default", "kube-public", "kube-system", "payments-prod"}, nil)
			m, _ = press(t, m, "down", "down")
			return m
		}},
		{"listing", func(t *testing.T, w, h int) Model {
			m := New(DefaultKeyMap(), common.NewStyles())
			m.now = func() time.Time { return browserNow }
			m.SetList(browserCollection(false), nil)
			m.SetSize(w, h)
			return m
		}},
	}
	for _, c := range cases {
		for _, s := range []struct {
			name string
			w, h int
		}{{"80x24", 80, 24}, {"120x40", 120, 40}} {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				out := ansi.Strip(c.build(t, s.w, s.h).View())
				if n := strings.Count(out, "\n") + 1; n != s.h {
					t.Errorf("the view has %d lines, want %d", n, s.h)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > s.w {
						t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, s.w, l)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// benchRows is n rows with names as a busy namespace has them.
func benchRows(n int) []Row {
	rng := rand.New(rand.NewPCG(1, 2))
	teams := []string{"payments", "orders", "web", "search", "billing", "auth", "inventory", "shipping"}
	kinds := []string{"config", "flags", "settings", "env", "routes", "limits", "secrets-index", "cache"}
	rows := make([]Row, n)
	for i := range rows {
		name := fmt.Sprintf("%s-%s-%05d", teams[rng.IntN(len(teams))], kinds[rng.IntN(len(kinds))], i)
		rows[i] = row("default", name, time.Duration(rng.IntN(1000))*time.Hour, time.Duration(rng.IntN(100000))*time.Second, "kubectl-edit")
	}
	// kube delivers rows ordered by namespace and name.
	sortRows(rows)
	return rows
}

func sortRows(rows []Row) {
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
}

// BenchmarkBrowserFilterKeystroke is one key typed into the filter at
// 5,000 rows, and the screen drawn after it: the goal is 5 ms. Keys
// alternate between typing and erasing, so every op filters all rows.
func BenchmarkBrowserFilterKeystroke(b *testing.B) {
	m := newBrowser(b, 120, 40, false, benchRows(5000))
	m, _ = press(b, m, "/", "p", "a", "y")
	keys := []tea.KeyMsg{bkey("m"), bkey("backspace")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
}

// BenchmarkBrowserSnapshot is a new snapshot of 5,000 rows taken and
// drawn: what every change on the server costs the UI.
func BenchmarkBrowserSnapshot(b *testing.B) {
	rows := benchRows(5000)
	m := newBrowser(b, 120, 40, false, rows)
	m, _ = press(b, m, "o") // by last change: a real sort
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m, _ = m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{Rows: rows, Generation: uint64(i + 2), Synced: true}})
		_ = m.View()
	}
}

// TestBrowserKeysTypedTogether: keys typed faster than the terminal is
// read arrive as one message; the first one still opens the prompt or the
// filter, which takes the rest as text.
func TestBrowserKeysTypedTogether(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":deploy")})
	if cmd != nil || m.mode != modePrompt || m.prompt.line != "deploy" {
		t.Errorf(":deploy at once: mode %d, prompt %q", m.mode, m.prompt.line)
	}
	m = newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/pay")})
	if m.Filter() != "pay" || len(m.Rows()) != 2 {
		t.Errorf("/pay at once: filter %q, rows %v", m.Filter(), m.Rows())
	}
	m = newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if selectedName(m) != "orders-settings-with-a-rather-long-name-that-does-not-fit" {
		t.Errorf("jj at once selects %q", selectedName(m))
	}
}
