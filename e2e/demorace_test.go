package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// patchRowRE is a PATCH row of the request pane: when it was sent (to
// the millisecond) and how long its answer took.
var patchRowRE = regexp.MustCompile(`(\d\d:\d\d:\d\d\.\d{3}) PATCH\s+\S+\s+none\s+(?:200\s+\d+|422 Unprocessable Entity)\s+(\d[\d.]*(?:ns|µs|ms|s))`)

// TestE2EDemoRaceAfterASave: in kedit demo, after the writer's two writes
// and a save of foo (kedit's client has spent most of client-go's burst
// of requests), A's winner's version is said to be kedit's in the header
// (demo-writer's reset of the same second is not), and A's ten
// conditional patches all leave before the first answer comes back, by
// the request pane's times: they race, none is held back by the client's
// rate limit to be refused after the winner.
func TestE2EDemoRaceAfterASave(t *testing.T) {
	term, _ := startDemo(t, 200, 50)
	term.send("w")
	term.waitFor(screenWait, "demo-writer set .data.foo = ")
	term.send("w")
	term.waitFor(screenWait, "demo-writer set .data.bar = ")
	term.editAndWait("foo: mine")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	term.send("A")
	screen, _ := term.waitUntil(screenWait, "the race's answer", func(s string) bool {
		return strings.Contains(flatWords(s), "1 won (200, rv ") && strings.Contains(flatWords(s), "9 refusals")
	})
	// The winner's version is kedit's (kedit set's field manager), though
	// demo-writer's reset came within the same second: the header names
	// kedit, never demo-writer.
	won := regexp.MustCompile(`1 won \(200, rv (\d+)\)`).FindStringSubmatch(flatWords(screen))
	if won == nil {
		t.Fatalf("no winner's rv:\n%s", screen)
	}
	screen, _ = term.waitUntil(screenWait, "the winner's version shown", func(s string) bool {
		return strings.Contains(s, "rv "+won[1]+"  connected") && strings.Contains(s, "live object by")
	})
	if !strings.Contains(screen, "live object by kedit; e edits a draft") {
		t.Errorf("the header does not name kedit as the writer of the race's version rv %s:\n%s", won[1], screen)
	}

	term.send("L")
	screen, _ = term.waitUntil(screenWait, "the race's ten PATCHes in the pane", func(s string) bool {
		return len(patchRowRE.FindAllString(s, -1)) == 10
	})
	var sent, answered []time.Time
	for _, m := range patchRowRE.FindAllStringSubmatch(screen, -1) {
		at, err := time.Parse("15:04:05.000", m[1])
		took, err2 := time.ParseDuration(m[2])
		if err != nil || err2 != nil {
			t.Fatalf("a PATCH row: %q: %v %v", m[0], err, err2)
		}
		sent, answered = append(sent, at), append(answered, at.Add(took))
	}
	first := answered[0]
	for _, a := range answered {
		if a.Before(first) {
			first = a
		}
	}
	// The pane's times are cut to the millisecond.
	for i, s := range sent {
		if s.After(first.Add(time.Millisecond)) {
			t.Errorf("PATCH %d sent at %s, after the first answer (%s): not in the race\n%s",
				i+1, s.Format("15:04:05.000"), first.Format("15:04:05.000"), screen)
		}
	}
}
