package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/ui/tour"
)

// TestE2EREADMETutorialAt80x24 walks README's "Try it in two minutes" as a
// newcomer does, on a projector's 80×24 and without the tour: kedit demo
// --demo-interval 0, each step's *tour:* instruction (tour.Steps, which
// TestREADMETutorialIsTheTour holds to the README) followed word for word
// after the steps before it. Where the README quotes what the screen says
// (a status line, a banner, a title, the race's answer), its quote, with
// any resourceVersion, time or count of versions, is on the screen with
// every word whole: a word cut with a "…" or split over two lines is not
// the README's word. The first screen says it is the demo. No line of a
// screen ends cut with a "…" but a list's row.
func TestE2EREADMETutorialAt80x24(t *testing.T) {
	steps := readmeTutorialSteps(t)
	env, _ := demoEnv(t)
	value := filepath.Join(t.TempDir(), "value")
	env.editor = editorScript(t, `sed -i "s/^  foo: .*/  foo: $(cat `+value+`)/" "$1"`)
	term := env.run(t, 80, 24, "demo", "--demo-interval", "0")
	term.waitFor(2*time.Minute, "ConfigMap/testmap", `foo: "1"`)

	// says waits until the README's quote starting with prefix, in step
	// n of the tutorial, is on the screen, each word whole.
	says := func(n int, prefix string) {
		t.Helper()
		quote := readmeQuote(t, steps, n, prefix)
		re := quotePattern(quote)
		screen, _ := term.waitUntil(screenWait, "README step "+itoa(n)+": "+quote, func(s string) bool { return re.MatchString(flatWords(s)) })
		noCutLines(t, screen)
	}
	screen := term.waitFor(screenWait, "kedit demo")
	if !wholeWords(screen, readmeDemoQuote(t)) {
		t.Errorf("the first screen does not say what the README says it says (%q):\n%s", readmeDemoQuote(t), screen)
	}
	noCutLines(t, screen)

	// After which part of which step the README quotes what.
	quotes := map[int]map[string][][2]any{
		0: {"save and quit your editor": {{1, "unsaved draft  based on rv"}}},
		1: {"press w": {{2, "demo-writer set .data.foo = "}, {2, "changed on server: rv"}},
			"press s": {{3, "conflict: base rv"}, {3, "> open    .data.foo  theirs by demo-writer"}}},
		2: {"press s": {{4, "saved rv"}}},
		3: {`wait for "clean rebase"`: {{5, "clean rebase: 2 changes merged"}}},
		4: {"press t": {{6, "timeline of ConfigMap/testmap:"}, {6, "audit log: 0 lost updates, 0 fights"}}},
		6: {`wait for "writes it back in 5 s"`: {{8, "alice's kubectl edit read .data.foo"}},
			"press s":                  {{8, "saved rv"}},
			`wait for "a lost update"`: {{8, "alice's kubectl edit set .data.foo back to"}},
			`wait for "LOST"`:          {{8, "audit log: 1 lost update, 0 fights; LOST: enter shows it, u undoes it"}},
			"press enter":              {{8, "LOST at rv"}},
			"press u":                  {{8, "the draft puts back .data.foo"}}},
		7: {`wait for "1 won"`: {{9, "demo-writer set .data.foo back to"}}},
	}
	for i, s := range tour.Steps {
		t.Logf("tour step %d: %s", i+1, s.Do)
		followThen(t, term, value, s.Do, func(part string) {
			for _, q := range quotes[i][part] {
				says(q[0].(int), q[1].(string))
			}
		})
		if strings.HasSuffix(s.Do, "press s") && !strings.Contains(s.Do, `wait for "changed on server", then press s`) {
			// A reader sees the save go through before the next step (the
			// conflict's step ends in the conflict).
			term.waitUntil(screenWait, "the save", func(s string) bool { return strings.Contains(flatWords(s), "saved rv") })
		}
	}
}

// readmeTutorialSteps are the numbered steps of README's "Try it in two
// minutes", by their number.
func readmeTutorialSteps(t *testing.T) map[int]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "## Try it in two minutes")
	if start < 0 {
		t.Fatal("README has no Try it in two minutes")
	}
	section := readme[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	steps := map[int]string{}
	at := regexp.MustCompile(`(?m)^(\d+)\. `).FindAllStringSubmatchIndex(section, -1)
	for i, m := range at {
		end := len(section)
		if i+1 < len(at) {
			end = at[i+1][0]
		}
		n := 0
		for _, c := range section[m[2]:m[3]] {
			n = n*10 + int(c-'0')
		}
		steps[n] = section[m[0]:end]
	}
	return steps
}

// readmeQuote is the README's quote in step n that starts with prefix:
// up to its closing backquote, or a code block's line.
func readmeQuote(t *testing.T, steps map[int]string, n int, prefix string) string {
	t.Helper()
	step := steps[n]
	i := strings.Index(step, prefix)
	if i < 0 {
		t.Fatalf("README's step %d quotes nothing that starts %q:\n%s", n, prefix, step)
	}
	rest := step[i:]
	end := strings.IndexByte(rest, '\n')
	if i > 0 && step[i-1] == '`' {
		end = strings.IndexByte(rest, '`')
	}
	if end < 0 {
		end = len(rest)
	}
	return rest[:end]
}

// readmeDemoQuote is what the reference's kedit demo page (docs/demo.md,
// where the README links to) says the first screen says.
func readmeDemoQuote(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/demo.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)Its first screen says that it is the demo.*?`(kedit demo \\(a cluster[^`]*)`").FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("docs/demo.md does not quote the demo's first screen")
	}
	return flatWords(m[1])
}

// quotePattern matches quote's words on a screen's words: the
// resourceVersions, the times and the count of versions any (they differ
// from run to run), every other word as quoted.
func quotePattern(quote string) *regexp.Regexp {
	p := regexp.QuoteMeta(flatWords(quote))
	for _, r := range []struct{ re, to string }{
		{`rv \d+`, `rv \d+`}, {`-> \d+`, `-> \d+`}, {`\d\d:\d\d:\d\d`, `\d\d:\d\d:\d\d`}, {`\d+ versions`, `\d+ versions`},
	} {
		p = regexp.MustCompile(r.re).ReplaceAllLiteralString(p, r.to)
	}
	return regexp.MustCompile(p)
}

// noCutLines fails for a line of screen cut with a "…" after a word,
// unless it is a row of a list (the timeline's, the conflict view's),
// whose columns are cut by design.
func noCutLines(t *testing.T, screen string) {
	t.Helper()
	row := regexp.MustCompile(`^[> ] +(\d|open|resolved|theirs|mine|base)`)
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimRight(l, " ")
		if strings.HasSuffix(l, "…") && !row.MatchString(l) {
			t.Errorf("a line is cut:\n%s\nof:\n%s", l, screen)
		}
	}
}
