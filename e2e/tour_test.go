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
// its last, on a projector's 80×24, doing what its top line says, word for
// word (the draft's step then says what e read and why): press a key,
// change foo to a value (the editor then does it), save and quit the
// editor, wait for a text. A step that starts from foo "1" says it is
// getting ready until the demo writer has set it back. After the
// conflict's step the line says what went over the wire: kedit's PUT
// with its resourceVersion, the 409 and the version the server held;
// after the resolution, the resubmit's 200; after blame, demo-writer's
// reset; after the lost update, kedit's save, alice's version brought by
// the watch and the undo's save on it; after the race, ten PATCHes: one
// 200 and nine 422s, and foo is 2 on the server.
func TestE2ETourWalkedAsItSays(t *testing.T) {
	env, tmp := demoEnv(t)
	value := filepath.Join(t.TempDir(), "value")
	env.editor = editorScript(t, `sed -i "s/^  foo: .*/  foo: $(cat `+value+`)/" "$1"`)
	// A projector's 80×24: the tour's lines wrap at words, and the test
	// reads them as a reader does, whole.
	term := env.run(t, 80, 24, "demo", "--tour")
	term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`, "tour 1/")

	said := map[int]string{}
	for step := 1; ; step++ {
		var top string
		// A step that starts from foo "1" is getting ready until the
		// watch brings the demo writer's reset.
		term.waitUntil(screenWait, "a step's line or the end", func(s string) bool {
			top, _, _ = tourLines(s)
			return strings.HasPrefix(top, "tour done") || tourLineRE.MatchString(top)
		})
		noCutLines(t, term.screen())
		if strings.HasPrefix(top, "tour done") {
			break
		}
		m := tourLineRE.FindStringSubmatch(top)
		if m == nil || m[1] != itoa(step) {
			t.Fatalf("step %d: the top line is not the step's:\n%s", step, top)
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
			now, _, _ := tourLines(s)
			return now != top
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
	// The draft's e read the schema and asked about access: said, with
	// why, and that nothing was written (the request pane's rows hold
	// them: GET /openapi/v3, POST ...selfsubjectaccessreviews).
	if !regexp.MustCompile(`^kedit read the schema to check the draft as the server will \(GET /openapi/v3[^)]*\) and asked whether you may save it \(POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews\); nothing was written: the draft is on your disk, based on rv \d+$`).MatchString(said[1]) ||
		!strings.Contains(said[5], "nothing was sent") {
		t.Errorf("after the draft and the timeline: %q, %q", said[1], said[5])
	}
	if !regexp.MustCompile(`^demo-writer sent PUT with rv \d+; 200: stored as rv \d+; then nothing more was sent: blame reads the managedFields`).MatchString(said[6]) {
		t.Errorf("after blame: %q", said[6])
	}
	lost := regexp.MustCompile(`^kedit sent PUT with rv \d+; 200: stored as rv (\d+); then the watch brought rv (\d+) by kubectl-edit, another client: its request is not kedit's; then kedit sent PUT with rv (\d+); 200: stored as rv \d+$`).FindStringSubmatch(said[7])
	if lost == nil || lost[3] != lost[2] || lost[1] == lost[2] {
		t.Errorf("after the lost update: %q", said[7])
	}
	race := said[8]
	if !strings.HasPrefix(race, "demo-writer sent PUT with rv ") || !strings.Contains(race, "; then kedit sent 10 PATCH requests with rv none at once: ") ||
		!regexp.MustCompile(`1 × 200 \(stored as rv \d+\)`).MatchString(race) || !strings.Contains(race, "9 × 422 Unprocessable Entity: nothing was written") {
		t.Errorf("after the race: %q", race)
	}
	if len(said) != 8 {
		t.Errorf("the tour had %d steps, want 8", len(said))
	}
	term.waitUntil(screenWait, "the race's answer", func(s string) bool {
		flat := flatWords(s)
		return strings.Contains(flat, "1 won (200, rv ") && strings.Contains(flat, "9 refusals (9 × 422 Unprocessable Entity)") && wordsOf(`foo: "2"`)(s)
	})
	// The tour's writes (its resets, the w of its steps) hand foo back
	// and forth with kedit: a fight, said to be the tour's.
	if flat := flatWords(term.screen()); strings.Contains(flat, "fight: ") && !strings.Contains(flat, "(the tour's: demo-writer writes as each step prepares)") {
		t.Errorf("the tour's fight is not said to be the tour's:\n%s", term.screen())
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, "kedit-demo-*"))
	if len(dirs) != 1 {
		t.Fatalf("demo directories: %v", dirs)
	}
	if data, err := configMapDataAt(t, filepath.Join(dirs[0], "cluster", "kubeconfig"), "default", "testmap"); err != nil || data["foo"] != "2" {
		t.Errorf("foo = %q after the race (%v), want 2", data["foo"], err)
	}
	// The request pane: the race's PATCHes with their statuses, and the
	// demo writer's requests, through kedit's client, marked as its own.
	term.send("L")
	term.waitFor(screenWait, "PATCH", "422 Unprocessable Entity")
	// At 80 columns a row's sender is said in the strip under the rows,
	// for the selected row: up through the rows (the race's PATCHes
	// first) to a request of the demo writer's (its GET or PUT before
	// the race), as a student would.
	sender := regexp.MustCompile(`(\S+) \d{3}[^;]*; rv sent [^;]*; took [^;]*; at [^,;]*, sent by demo-writer`)
	screen, _ := term.waitUntil(screenWait, "the strip naming a request of demo-writer's", func(s string) bool {
		m := sender.FindStringSubmatch(flatWords(s))
		if m == nil {
			term.send("k")
			return false
		}
		if m[1] == "PATCH" {
			t.Errorf("a PATCH is marked as demo-writer's (the race's PATCHes are kedit's; the writer GETs and PUTs):\n%s", s)
		}
		return true
	})
	t.Logf("the demo writer's request in the strip:\n%s", screen)
}

// follow does what the tour's instruction says, in its order.
func follow(t *testing.T, term *terminal, value, do string) {
	t.Helper()
	followThen(t, term, value, do, nil)
}

// followThen is follow, with after called after each part of the
// instruction is done (its words as the instruction says them). A text
// waited for is found with its words whole, wherever the screen wrapped
// it (a narrow screen wraps a status line).
func followThen(t *testing.T, term *terminal, value, do string, after func(part string)) {
	t.Helper()
	do = strings.ReplaceAll(do, "save and quit your editor", "save-and-quit")
	// "first X; then DO": what a skipped step left to do, then the step.
	do = strings.TrimPrefix(do, "first ")
	parts := regexp.MustCompile(`, then |; then |, |; `).Split(do, -1)
	for i, part := range parts {
		if i > 0 && strings.HasPrefix(part, "change foo to ") && strings.HasPrefix(parts[i-1], "press ") {
			// "press e, change foo to X": the editor e opens makes the
			// change, so the value is ready before the key.
			parts[i-1], parts[i] = parts[i], parts[i-1]
		}
	}
	for _, part := range parts {
		shown := strings.ReplaceAll(part, "save-and-quit", "save and quit your editor")
		switch {
		case strings.HasPrefix(part, "press "):
			// kedit's names of keys, as tmux names them.
			k := strings.TrimPrefix(part, "press ")
			if named, ok := map[string]string{"esc": "Escape", "enter": "Enter"}[k]; ok {
				k = named
			}
			term.send(k)
		case strings.HasPrefix(part, "change foo to "):
			// The editor the next e runs sets it.
			if err := os.WriteFile(value, []byte(strings.TrimPrefix(part, "change foo to ")), 0o600); err != nil {
				t.Fatal(err)
			}
		case part == "save-and-quit":
			// The editor did; kedit shows the draft.
			term.waitUntil(screenWait, "unsaved draft", func(s string) bool { return strings.Contains(underTour(s), "unsaved draft") })
		case strings.HasPrefix(part, `wait for "`):
			// On the screen under the tour's lines, which quote it.
			text := strings.TrimSuffix(strings.TrimPrefix(part, `wait for "`), `"`)
			term.waitUntil(screenWait, text, func(s string) bool { return strings.Contains(flatWords(underTour(s)), text) })
		default:
			t.Fatalf("the tour says %q, which this test cannot follow (all of it: %q)", part, do)
		}
		if after != nil {
			after(shown)
		}
	}
}

// wireLine is what the screen's tour says went over the wire, its lines
// read as one.
func wireLine(screen string) string {
	_, wire, _ := tourLines(screen)
	return strings.TrimPrefix(wire, "on the wire: ")
}

// underTour is the screen under the tour's lines: its instruction, and
// what the last step did on the wire.
func underTour(screen string) string {
	_, _, rest := tourLines(screen)
	return rest
}

// viewStarts are how the views' first lines begin: where the tour's lines
// end, however many the width wrapped them into.
var viewStarts = []string{"ConfigMap/", "conflict: ", "clean rebase: ", "timeline of ", "LOST at ", "requests kedit sent", "keys of the "}

// tourLines splits screen into the tour's instruction and what it says
// went over the wire, each its lines read as one (words one space apart),
// and the rest of the screen; the instruction is "" when the screen has
// no tour.
func tourLines(screen string) (do, wire, rest string) {
	lines := strings.Split(screen, "\n")
	if len(lines) == 0 || !strings.HasPrefix(strings.TrimSpace(lines[0]), "tour ") {
		return "", "", screen
	}
	viewStart := func(l string) bool {
		for _, p := range viewStarts {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
		return false
	}
	var doLines, wireLines []string
	i := 0
	for ; i < len(lines) && !viewStart(lines[i]) && !strings.HasPrefix(lines[i], "on the wire: "); i++ {
		doLines = append(doLines, lines[i])
	}
	for ; i < len(lines) && !viewStart(lines[i]) && (len(wireLines) > 0 || strings.HasPrefix(lines[i], "on the wire: ")); i++ {
		wireLines = append(wireLines, lines[i])
	}
	return flatWords(strings.Join(doLines, " ")), flatWords(strings.Join(wireLines, " ")), strings.Join(lines[i:], "\n")
}

// TestE2ETourOnAKeptDemoStartsFromItsOwnState: a kept demo whose foo was
// saved as mine, started again with --dir --tour, starts the tour on foo
// "1", which the demo writer set back; alt+n, named in the footer, skips
// steps, each prepared as if the one before were done, down to the race,
// whose A ends the tour.
func TestE2ETourOnAKeptDemoStartsFromItsOwnState(t *testing.T) {
	env, _ := demoEnv(t)
	keep := filepath.Join(t.TempDir(), "class")
	term := env.run(t, 300, 40, "demo", "--demo-interval", "0", "--keep", keep)
	term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`)
	term.send("e")
	term.waitFor(screenWait, "unsaved draft", "foo: mine")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	term.send("q")
	term.waitFor(time.Minute, "EXIT=0", "kept "+keep)

	again := env.run(t, 300, 40, "demo", "--dir", keep, "--tour")
	again.waitUntil(2*time.Minute, `tour 1/8 on foo "1"`, func(s string) bool {
		return strings.HasPrefix(s, "tour 1/8: press e") && strings.Contains(underTour(s), `foo: "1"`)
	})
	again.waitFor(screenWait, `demo-writer set .data.foo = "1" (rv `, "alt+n tour: skip the step")
	for step := 2; step <= 6; step++ {
		again.send("M-n")
		again.waitUntil(screenWait, "step "+itoa(step), func(s string) bool {
			return strings.HasPrefix(s, "tour "+itoa(step)+"/8: ") && strings.Contains(s, "on the wire: step "+itoa(step-1)+" skipped")
		})
	}
	again.waitFor(screenWait, "tour 6/8: press b")
	again.send("b")
	again.waitFor(screenWait, "tour 7/8: press e", "on the wire: nothing more was sent: blame reads the managedFields")
	again.send("M-n")
	again.waitFor(screenWait, "tour 8/8: press A")
	again.send("A")
	again.waitFor(screenWait, "tour done", "1 won (200, rv ", "9 × 422 Unprocessable Entity")
	if strings.Contains(again.waitFor(screenWait, "tour done"), "alt+n") {
		t.Error("the footer names alt+n after the tour")
	}
	// The draft skipping the first step made is on disk: q asks.
	again.send("q")
	again.waitFor(screenWait, "quit with an unsaved draft?")
	again.send("y")
	again.waitFor(time.Minute, "EXIT=0", "kept "+keep)
}

// TestE2ETourSaysWhenAStepLeavesItsPath: in the clean rebase's step, w
// pressed before e spends the write the step prepared (bar) early; e, w
// and s then meet a conflict on foo, and the tour says that the session
// left the step's path and the ways back (alt+n, or finish and redo),
// at 80×24, with alt+n in the footer while a draft is open (and q quit
// and ? help kept at its end).
func TestE2ETourSaysWhenAStepLeavesItsPath(t *testing.T) {
	env, _ := demoEnv(t)
	term := env.run(t, 80, 24, "demo", "--tour")
	term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`, "tour 1/")
	for step := 2; step <= 4; step++ {
		term.send("M-n")
		term.waitUntil(screenWait, "step "+itoa(step), func(s string) bool { return strings.HasPrefix(s, "tour "+itoa(step)+"/8: ") })
	}
	term.send("w")
	term.waitUntil(screenWait, "the writer's early write", func(s string) bool { return strings.Contains(flatWords(s), "demo-writer set .data.bar = ") })
	term.editAndWait("foo: mine")
	if !strings.Contains(term.screen(), "alt+n tour: skip the step") {
		t.Errorf("with a draft open, the footer does not name alt+n:\n%s", term.screen())
	}
	// More keys than two rows of 80 hold: the footer keeps q and ?, which
	// names the rest.
	if lines := strings.Split(strings.TrimRight(term.screen(), "\n"), "\n"); !strings.HasSuffix(strings.TrimSpace(lines[len(lines)-1]), "q quit • ? help") {
		t.Errorf("at 80×24 with a draft in the tour, the footer does not keep q quit and ? help:\n%s", term.screen())
	}
	term.send("w")
	// The draft skipping step 1 made is older than bar's write: the
	// banner shows already, so the wait is for foo's.
	term.waitUntil(screenWait, "foo's write", func(s string) bool { return strings.Contains(flatWords(s), "demo-writer set .data.foo = ") })
	term.send("s")
	screen, _ := term.waitUntil(screenWait, "the tour's word", func(s string) bool {
		return strings.Contains(flatWords(s), "off the step's path: a conflict opened, not a clean rebase: demo-writer wrote foo, which your draft changes; alt+n skips to the next step, prepared")
	})
	if do, _, _ := tourLines(screen); !strings.HasPrefix(do, "tour 4/8: ") {
		t.Errorf("the tour left step 4:\n%s", screen)
	}
	noCutLines(t, screen)
	term.send("M-n")
	term.waitUntil(screenWait, "step 5", func(s string) bool {
		return strings.HasPrefix(s, "tour 5/8: ") && !strings.Contains(flatWords(s), "off the step's path")
	})
}

// TestE2ETourSkipPreparesTheNextStep: alt+n at the draft's step makes
// the draft it would have made (foo: mine, said on the wire), and the
// conflict's step is then done by its own words; alt+n at the conflict's
// step too leaves no conflict to resolve, and the resolution's line says
// to make one first: done by its words, it moves on.
func TestE2ETourSkipPreparesTheNextStep(t *testing.T) {
	env, _ := demoEnv(t)
	value := filepath.Join(t.TempDir(), "value")
	env.editor = editorScript(t, `sed -i "s/^  foo: .*/  foo: $(cat `+value+`)/" "$1"`)
	for _, skips := range []int{1, 2} {
		term := env.run(t, 80, 24, "demo", "--tour")
		term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`, "tour 1/")
		for step := 2; step <= skips+1; step++ {
			term.send("M-n")
			term.waitUntil(screenWait, "step "+itoa(step), func(s string) bool {
				top, _, _ := tourLines(s)
				return strings.HasPrefix(top, "tour "+itoa(step)+"/8: ")
			})
		}
		screen := term.screen()
		if skips == 1 && (!strings.Contains(wireLine(screen), "step 1 skipped: the tour made its draft, foo changed to mine; nothing was sent") ||
			!strings.Contains(underTour(screen), "unsaved draft") || !strings.Contains(underTour(screen), "foo: mine")) {
			t.Errorf("after alt+n at the draft's step, no draft of foo: mine said and shown:\n%s", screen)
		}
		top, _, _ := tourLines(screen)
		m := tourLineRE.FindStringSubmatch(top)
		if m == nil {
			t.Fatalf("after %d skips: %q", skips, top)
		}
		if skips == 2 && !strings.HasPrefix(m[3], `first press w, wait for "changed on server", press s, wait for "1 conflict"; then press m, then press s`) {
			t.Errorf("the resolution's step with no conflict: %q", m[3])
		}
		follow(t, term, value, m[3])
		next := itoa(skips + 2)
		term.waitUntil(screenWait, "step "+next, func(s string) bool {
			top, _, _ := tourLines(s)
			return strings.HasPrefix(top, "tour "+next+"/8: ")
		})
		t.Logf("after %d skips, %q done:\n%s", skips, m[3], term.screen())
		// Run 1 ends on a conflict, whose draft q asks about.
		term.send("q")
		if skips == 1 {
			term.waitFor(screenWait, "quit with an unsaved draft?")
			term.send("y")
		}
		term.waitFor(time.Minute, "EXIT=")
	}
}
