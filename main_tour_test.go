package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/ui/tour"
)

// TestREADMETutorialIsTheTour holds README's "Try it in two minutes" and
// kedit demo --tour together: each of the tour's steps is a numbered step
// of the tutorial, in the same order, with its title in bold and the
// tour's instruction word for word after it, before the next step. The
// README quotes what the screen says after the steps before it, without
// the tour's resets: the lost update's step reads and sets back foo as the
// steps before left it (the last value they changed it to), and the race's
// step says that A sets foo back to "1" first, which the race needs.
// (TestE2EREADMETutorialAt80x24 walks it through the binary.)
func TestREADMETutorialIsTheTour(t *testing.T) {
	b, err := os.ReadFile("README.md")
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
	at := 0
	// foo as the steps before each leave it, without the tour's resets.
	foo := `"1"`
	for i, s := range tour.Steps {
		title := strings.Index(section[at:], ". **"+s.Title+"**")
		if title < 0 {
			t.Fatalf("tour step %d: the tutorial has no step %q after the tour's step before it", i+1, s.Title)
		}
		at += title
		// This step's text: up to the next step's title.
		step := section[at:]
		if i+1 < len(tour.Steps) {
			if next := strings.Index(step, ". **"+tour.Steps[i+1].Title+"**"); next >= 0 {
				step = step[:next]
			}
		}
		if strings.Contains(s.Do, "press W") {
			for _, want := range []string{"alice's kubectl edit read .data.foo = " + strconv.Quote(strings.Trim(foo, `"`)), "alice's kubectl edit set .data.foo back to " + strconv.Quote(strings.Trim(foo, `"`))} {
				if !strings.Contains(step, want) {
					t.Errorf("tour step %d (%s): after the steps before it foo is %s; the tutorial does not quote %q", i+1, s.Title, foo, want)
				}
			}
		}
		if strings.Contains(s.Do, "press A") && !strings.Contains(step, "has demo-writer set `foo` back to `\""+demo.RaceFrom+"\"` first") {
			t.Errorf("tour step %d (%s): the tutorial does not say that A sets foo back to %q first", i+1, s.Title, demo.RaceFrom)
		}
		if m := regexp.MustCompile(`change foo to (\w+)`).FindAllStringSubmatch(s.Do, -1); m != nil {
			foo = m[len(m)-1][1]
		}
		do := strings.Index(section[at:], "*tour:* `"+s.Do+"`")
		if do < 0 {
			t.Fatalf("tour step %d (%s): the tutorial does not say *tour:* `%s` after it", i+1, s.Title, s.Do)
		}
		if i+1 < len(tour.Steps) {
			if next := strings.Index(section[at:], ". **"+tour.Steps[i+1].Title+"**"); next >= 0 && next < do {
				t.Errorf("tour step %d (%s): its instruction is under the next step", i+1, s.Title)
			}
		}
	}
}
