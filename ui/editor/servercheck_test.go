package editor

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/ui/common"
)

// serverEditor is an editor on a two-line text with the server's checks
// on, typing long paused.
func serverEditor(t *testing.T) Model {
	t.Helper()
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 10)
	m.Open("replicas: -1\nkind: Deployment\n", false, nil)
	m.SetServerChecks(true)
	return m
}

// asked is the ServerCheckMsg cmd emits, if it does at once.
func asked(cmd tea.Cmd) (ServerCheckMsg, bool) {
	if cmd == nil {
		return ServerCheckMsg{}, false
	}
	msg, ok := cmd().(ServerCheckMsg)
	return msg, ok
}

// TestServerIsAskedWhatTheSchemaPasses: off, nothing is asked; on, a text
// the schema passes is asked once typing has paused, and the answer is
// said at the cursor as the server's; a text the schema refuses is not
// asked, and the server's word on an earlier text goes.
func TestServerIsAskedWhatTheSchemaPasses(t *testing.T) {
	m := serverEditor(t)
	m.SetServerChecks(false)
	if _, ok := asked(m.SetDiagnostics(m.Version(), nil)); ok {
		t.Fatal("asked with the server's checks off")
	}
	// Turned on, the text the schema passed is asked.
	msg, ok := asked(m.SetServerChecks(true))
	if !ok || msg.Version != m.Version() || msg.Opening != m.Opening() || msg.Text != m.Text() {
		t.Fatalf("not asked: %+v %v", msg, ok)
	}
	m.ServerChecked(msg.Opening, msg.Version, []Diagnostic{{Line: 1, Text: "replicas: Invalid value: -1: must be greater than or equal to 0"}})
	if v := m.View(); !strings.Contains(v, "↑ the server refuses: replicas: Invalid value: -1") {
		t.Fatalf("the server's word is not said:\n%s", v)
	}
	if _, ok := asked(m.SetDiagnostics(m.Version(), []Diagnostic{{Line: 2, Text: "kind: bad"}})); ok {
		t.Fatal("a text the schema refuses was asked")
	}
	if v := m.View(); strings.Contains(v, "the server refuses") {
		t.Fatalf("the server's word stays beside the schema's refusal:\n%s", v)
	}
	// A field the server will only drop is no refusal: asked. A text is
	// asked once.
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("z")})
	m.typedAt = time.Now().Add(-ServerQuiet)
	if _, ok := asked(m.SetDiagnostics(m.Version(), []Diagnostic{{Line: 2, Text: "the server will drop x (--validate=warn)", Dropped: true}})); !ok {
		t.Fatal("a text with only a dropped field was not asked")
	}
	m.ServerChecked(m.Opening(), m.Version(), nil)
	if _, ok := asked(m.SetDiagnostics(m.Version(), nil)); ok {
		t.Fatal("a text was asked twice")
	}
}

// TestServerIsAskedAfterAPause: a text just typed is asked only after
// ServerQuiet: the command is the pause's tick.
func TestServerIsAskedAfterAPause(t *testing.T) {
	m := serverEditor(t)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if _, ok := asked(m.SetDiagnostics(m.Version(), nil)); ok {
		t.Fatal("asked while typing had not paused")
	}
	m.typedAt = time.Now().Add(-ServerQuiet)
	m, cmd := m.Update(serverDueMsg{opening: m.Opening()})
	if msg, ok := asked(cmd); !ok || msg.Version != m.Version() {
		t.Fatalf("not asked after the pause: %+v", msg)
	}
}

// TestServerChecksAreOneAtATime: a random walk of typing, the schema's
// word and the server's answers: never two questions out at once; every
// text the schema passed last is asked once the answer before is back;
// an answer of a text changed since is never drawn.
func TestServerChecksAreOneAtATime(t *testing.T) {
	seed := testseed.Seed(t)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	for walk := range 50 {
		m := serverEditor(t)
		var out []ServerCheckMsg
		take := func(cmd tea.Cmd) {
			if msg, ok := asked(cmd); ok {
				out = append(out, msg)
				if len(out) > 1 {
					t.Fatalf("walk %d: two questions out: %+v", walk, out)
				}
			}
		}
		for range 40 {
			switch rng.IntN(3) {
			case 0:
				m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
				m.typedAt = time.Now().Add(-ServerQuiet)
			case 1:
				take(m.SetDiagnostics(m.Version(), nil))
			case 2:
				if len(out) == 0 {
					continue
				}
				q := out[0]
				out = out[1:]
				stale := q.Version != m.Version()
				take(m.ServerChecked(q.Opening, q.Version, []Diagnostic{{Line: 1, Text: escape.Safe("asked at " + itoa(q.Version))}}))
				drawn := strings.Contains(m.View(), "asked at "+itoa(q.Version))
				if stale && drawn {
					t.Fatalf("walk %d: the answer of version %d drawn on version %d", walk, q.Version, m.Version())
				}
			}
		}
		if len(out) == 0 && m.schemaVersion == m.Version() && m.server.wanted == m.Version() && !m.ServerChecking() && !m.server.ticking {
			t.Fatalf("walk %d: version %d the schema passed is never asked", walk, m.Version())
		}
	}
}

func itoa(v uint64) string {
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v /= 10 {
		b = append([]byte{byte('0' + v%10)}, b...)
	}
	return string(b)
}

// TestServerIsAskedWhenTurnedOn: the app may learn that it may ask only
// after the schema passed the text (the access check's answer comes
// later): turned on, the text is asked at once; turned on again, not
// twice.
func TestServerIsAskedWhenTurnedOn(t *testing.T) {
	m := serverEditor(t)
	m.SetServerChecks(false)
	if _, ok := asked(m.SetDiagnostics(m.Version(), nil)); ok {
		t.Fatal("asked with the server's checks off")
	}
	msg, ok := asked(m.SetServerChecks(true))
	if !ok || msg.Version != m.Version() {
		t.Fatalf("not asked when turned on: %+v", msg)
	}
	if _, ok := asked(m.SetServerChecks(true)); ok {
		t.Fatal("asked again when turned on twice")
	}
}

// TestServerPauseOfAnotherOpeningIsDropped: a pause under way when the
// editor opens again ends unheard; the new opening's text is still asked
// after a pause of its own.
func TestServerPauseOfAnotherOpeningIsDropped(t *testing.T) {
	m := serverEditor(t)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if cmd := m.SetDiagnostics(m.Version(), nil); cmd == nil || !m.server.ticking {
		t.Fatal("no pause started")
	}
	old := m.Opening()
	m.Open("replicas: 2\n", false, nil)
	m, _ = m.Update(serverDueMsg{opening: old})
	m.typedAt = time.Now()
	if cmd := m.SetDiagnostics(m.Version(), nil); cmd == nil {
		t.Fatal("the new opening's text starts no pause: the old one's holds it")
	}
	m.typedAt = time.Now().Add(-ServerQuiet)
	m, cmd := m.Update(serverDueMsg{opening: m.Opening()})
	if msg, ok := asked(cmd); !ok || msg.Opening != m.Opening() || msg.Text != "replicas: 2\n" {
		t.Fatalf("the new opening's text is not asked: %+v", msg)
	}
}

// TestServerAndSchemaSayALineOnce: the schema and the server saying the
// same of a line (a field each says the server drops) is one note.
func TestServerAndSchemaSayALineOnce(t *testing.T) {
	m := serverEditor(t)
	drop := Diagnostic{Line: 1, Text: "the server will drop x (--validate=warn)", Dropped: true}
	msg, _ := asked(m.SetDiagnostics(m.Version(), []Diagnostic{drop}))
	m.ServerChecked(msg.Opening, msg.Version, []Diagnostic{drop})
	if v := m.View(); strings.Count(v, "the server will drop x") != 1 {
		t.Fatalf("said other than once:\n%s", v)
	}
}
