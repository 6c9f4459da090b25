package main

import (
	"os"
	"strings"
	"testing"

	"github.com/kedit/kedit/ui/tour"
)

// TestREADMETutorialIsTheTour holds README's "Try it in two minutes" and
// kedit demo --tour together: each of the tour's steps is a numbered step
// of the tutorial, in the same order, with its title in bold and the
// tour's instruction word for word after it, before the next step.
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
	for i, s := range tour.Steps {
		title := strings.Index(section[at:], ". **"+s.Title+"**")
		if title < 0 {
			t.Fatalf("tour step %d: the tutorial has no step %q after the tour's step before it", i+1, s.Title)
		}
		at += title
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
