package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tourLineRE is the tour's line at the top of the screen.
var tourLineRE = regexp.MustCompile(`^tour (\d+)/(\d+): (.*)$`)

// TestE2ETourWalkedAsItSays walks kedit demo --tour from its first step to
// its last doing what its top line says, word for word: press a key,
// change foo to a value (the editor then does it), save and quit the
// editor, wait for a text. After the conflict's step the line says what
// went over the wire: kedit's PUT with its resourceVersion, the 409 and
// the version the server held; after the resolution, the resubmit's 200.
func TestE2ETourWalkedAsItSays(t *testing.T) {
	env, _ := demoEnv(t)
	value := filepath.Join(t.TempDir(), "value")
	env.editor = editorScript(t, `sed -i "s/^  foo: .*/  foo: $(cat `+value+`)/" "$1"`)
	term := env.run(t, 300, 40, "demo", "--tour")
	term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`, "tour 1/")

	said := map[int]string{}
	for step := 1; ; step++ {
		screen := term.waitFor(screenWait, "tour ")
		top := strings.Split(screen, "\n")[0]
		if strings.HasPrefix(top, "tour done") {
			break
		}
		m := tourLineRE.FindStringSubmatch(strings.TrimSpace(top))
		if m == nil || m[1] != itoa(step) {
			t.Fatalf("step %d: the top line is not the step's:\n%s", step, screen)
		}
		if step > 10 {
			t.Fatal("the tour does not end")
		}
		follow(t, term, value, m[3])
		var next string
		// The line under the instruction says what the step did, until
		// the next step is done.
		term.waitUntil(screenWait, "the next step's line", func(s string) bool {
			next = s
			return !strings.HasPrefix(s, top)
		})
		said[step] = wireLine(next)
		t.Logf("step %d: %s\n  on the wire: %s", step, m[3], said[step])
	}

	// The conflict: demo-writer's write, kedit's PUT on the old version,
	// refused with 409, both versions named.
	conflict := regexp.MustCompile(`demo-writer sent PUT with rv (\d+); 200: stored as rv (\d+); then kedit sent PUT with rv (\d+); the server holds rv (\d+); 409 Conflict: nothing was overwritten`).FindStringSubmatch(said[2])
	if conflict == nil || conflict[3] != conflict[1] || conflict[4] != conflict[2] || conflict[3] == conflict[4] {
		t.Errorf("after the conflict's step: %q", said[2])
	}
	resubmit := regexp.MustCompile(`^kedit sent PUT with rv (\d+); 200: stored as rv (\d+)$`).FindStringSubmatch(said[3])
	if resubmit == nil || conflict == nil || resubmit[1] != conflict[4] {
		t.Errorf("after the resolution: %q (the conflict's %q)", said[3], said[2])
	}
	if !regexp.MustCompile(`demo-writer sent PUT .*; then kedit sent PUT with rv \d+; the server holds rv \d+; 409 Conflict: nothing was overwritten; then kedit sent PUT with rv \d+; 200: stored as rv \d+$`).MatchString(said[4]) {
		t.Errorf("after the clean rebase: %q", said[4])
	}
	if !strings.Contains(said[1], "nothing was sent") || !strings.Contains(said[5], "nothing was sent") {
		t.Errorf("after the draft and the timeline: %q, %q", said[1], said[5])
	}
	if len(said) < 5 {
		t.Errorf("the tour had %d steps, want at least 5", len(said))
	}
	term.waitFor(screenWait, "timeline of ConfigMap/testmap")
}

// follow does what the tour's instruction says, in its order.
func follow(t *testing.T, term *terminal, value, do string) {
	t.Helper()
	do = strings.ReplaceAll(do, "save and quit your editor", "save-and-quit")
	parts := regexp.MustCompile(`, then |; then |, |; `).Split(do, -1)
	// What the user types in the editor is the editor's to do: it reads
	// the value when the e before it runs it, so it is there first.
	for _, part := range parts {
		if v, ok := strings.CutPrefix(part, "change foo to "); ok {
			if err := os.WriteFile(value, []byte(v), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, part := range parts {
		switch {
		case strings.HasPrefix(part, "press "):
			term.send(strings.TrimPrefix(part, "press "))
		case strings.HasPrefix(part, "change foo to "):
		case part == "save-and-quit":
			// The editor did; kedit shows the draft.
			term.waitFor(screenWait, "unsaved draft")
		case strings.HasPrefix(part, `wait for "`):
			// Below the tour's own two lines, which quote it.
			want := strings.TrimSuffix(strings.TrimPrefix(part, `wait for "`), `"`)
			term.waitUntil(screenWait, want+" below the tour's lines", func(s string) bool {
				lines := strings.SplitN(s, "\n", 3)
				return len(lines) == 3 && strings.Contains(lines[2], want)
			})
		default:
			t.Fatalf("the tour says %q, which this test cannot follow (all of it: %q)", part, do)
		}
	}
}

// wireLine is what the screen's tour says went over the wire: its second
// line (the screen is wide enough for it not to wrap).
func wireLine(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) < 2 {
		return ""
	}
	return strings.TrimPrefix(strings.TrimSpace(lines[1]), "on the wire: ")
}
