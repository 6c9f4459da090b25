package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/tour"
)

// tourLine is the tour's instruction as one line: "tour N/M: ...".
func tourLine(m App) string {
	line := strings.Join(strings.Fields(ansi.Strip(m.tour.View())), " ")
	if i := strings.Index(line, " off the step's path"); i >= 0 {
		line = line[:i]
	}
	if i := strings.Index(line, " on the wire: "); i >= 0 {
		line = line[:i]
	}
	return line
}

// followTour does what the tour's line says, word for word, as a user
// would on the fake server: w writes the field the tour asked the writer
// for (foo or bar) and the watch brings it. It stops before W, whose
// kubectl edit the fake writer does not make; false then.
func followTour(t *testing.T, d *driver, fake *tourDemo, r *fakeRunner) bool {
	t.Helper()
	line := tourLine(d.m)
	do := regexp.MustCompile(`^tour \d+/\d+: `).ReplaceAllString(line, "")
	if do == line {
		t.Fatalf("not a step's line: %q", line)
	}
	do = strings.TrimPrefix(strings.ReplaceAll(do, "save and quit your editor", "save-and-quit"), "first ")
	value := ""
	for _, part := range regexp.MustCompile(`, then |; then |, |; `).Split(do, -1) {
		switch {
		case strings.HasPrefix(part, "change foo to "):
			value = strings.TrimPrefix(part, "change foo to ")
		case part == "press e" || part == "save-and-quit":
			// The editor e opens makes the change on save and quit.
			if part == "save-and-quit" {
				text, err := d.m.Session().DraftText()
				if err != nil {
					t.Fatal(err)
				}
				changed := regexp.MustCompile(`(?m)^  foo: .*$`).ReplaceAllString(text, "  foo: "+value)
				d.send(effect.EditorFinished{Original: text, Text: changed})
				d.settle()
			}
		case part == "press w":
			d.send(keyMsg("w"))
			select {
			case <-fake.now:
			default:
			}
			_, next, _ := fake.counts()
			field, v := "bar", "2"
			if len(next) > 0 && next[len(next)-1] {
				field = "foo"
			}
			obj := r.server.DeepCopy()
			unstructured.SetNestedField(obj.Object, v, "data", field)
			rv, _ := strconv.Atoi(obj.GetResourceVersion())
			obj.SetResourceVersion(strconv.Itoa(rv + 1))
			r.server = obj
			d.send(shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj.DeepCopy(), ResourceVersion: obj.GetResourceVersion()}))
			d.settle()
		case part == "press W":
			return false
		case strings.HasPrefix(part, "press "):
			d.send(keyMsg(strings.TrimPrefix(part, "press ")))
			d.settle()
		case strings.HasPrefix(part, `wait for "`):
			text := strings.TrimSuffix(strings.TrimPrefix(part, `wait for "`), `"`)
			if text == "1 won" {
				// The fake writer races no one: its answer is the tour's
				// fact.
				d.m.tourRaces++
				d.m.tourUpdate()
				continue
			}
			if flat := strings.Join(strings.Fields(plain(d.m)), " "); !strings.Contains(flat, text) {
				t.Fatalf("after %q of %q: no %q on the screen:\n%s", part, line, text, plain(d.m))
			}
		default:
			t.Fatalf("the tour says %q, which this test cannot follow (all of it: %q)", part, line)
		}
	}
	return true
}

// skipEachStepThenFollow skips the tour's steps up to and with step i
// (from the state each skip leaves), then does what the next step's
// line says: the step is then done.
func skipEachStepThenFollow(t *testing.T, i int) {
	fake := &tourDemo{fakeDemo: fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}}
	r := &fakeRunner{}
	d := newDriver(t, newApp(t, 160, 30, r, func(c *Config) { c.Object.Demo, c.Tour = fake, true }))
	for d.m.tour.Step() <= i {
		d.send(altN)
		d.settle()
	}
	line := tourLine(d.m)
	if i == 0 {
		if d := d.m.Session().Draft(); d == nil || dataFoo(d.Object) != "mine" {
			t.Fatalf("skipping step 1 made no draft with foo: mine")
		}
		if wire := ansi.Strip(d.m.tour.View()); !strings.Contains(strings.Join(strings.Fields(wire), " "), "step 1 skipped: the tour made its draft, foo changed to mine; nothing was sent") {
			t.Errorf("the skip does not say the draft it made:\n%s", wire)
		}
	}
	if !followTour(t, d, fake, r) {
		t.Logf("step %d: %q (not followed past W)", i+2, line)
		return
	}
	if d.m.tour.Step() != i+2 {
		t.Fatalf("step %d, skipped to and followed (%q), is not done: step %d\n%s", i+2, line, d.m.tour.Step()+1, plain(d.m))
	}
	t.Logf("step %d done: %q", i+2, line)
}

// skipHalfDoneStep3: the conflict's step done, its resolution skipped
// with the conflict open: the clean rebase's line says to resolve and
// save first, and is done by its words.
func skipHalfDoneStep3(t *testing.T) {
	fake := &tourDemo{fakeDemo: fakeDemo{now: make(chan struct{}, 1), writes: make(chan demo.Write)}}
	r := &fakeRunner{}
	d := newDriver(t, newApp(t, 160, 30, r, func(c *Config) { c.Object.Demo, c.Tour = fake, true }))
	d.send(altN)
	d.settle()
	followTour(t, d, fake, r)
	if d.m.tour.Step() != 2 || d.m.Session().Rebase() == nil {
		t.Fatalf("no conflict open at step 3:\n%s", plain(d.m))
	}
	d.send(altN)
	d.settle()
	if line := tourLine(d.m); !strings.HasPrefix(line, "tour 4/8: first press m, then press s, wait for \"saved rv\"; then "+tour.Steps[3].Do) {
		t.Fatalf("the clean rebase over the skipped resolution's conflict: %q", line)
	}
	followTour(t, d, fake, r)
	if d.m.tour.Step() != 4 {
		t.Fatalf("the clean rebase is not done:\n%s", plain(d.m))
	}
}
