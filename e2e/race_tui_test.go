package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A race's kedit user: the real binary in tmux, opened on the object
// once (a GET and a watch: they see every version as it comes), each
// write made with e ($EDITOR setting one field) and s, a conflict taken as
// theirs is shown and resolved as mine, then resubmitted with theirs'
// resourceVersion: kedit's own save.

// raceTUI is a person's kedit.
type raceTUI struct {
	term *terminal
	// next is the sed script the editor runs on the next e.
	next string
	// base is the version kedit's draft is made from: the one it opened,
	// then the one its last save stored; saved is that save's
	// resourceVersion as kedit said it.
	base  int
	saved string
}

// openTUI starts the person's kedit on the object.
func (run *raceRun) openTUI(p *racePerson) {
	run.t.Helper()
	dir := filepath.Join(run.dir, "kedit-"+p.name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		run.t.Fatal(err)
	}
	next := filepath.Join(dir, "next.sed")
	env := newKeditEnv(run.t, editorScript(run.t, fmt.Sprintf(`sed -i -f %q "$1"`, next)))
	env.kubeconfig = run.env.c.Kubeconfig()
	run.script = append(run.script, fmt.Sprintf("kedit --as %s -n %s %s/obj   # in a terminal of its own", p.name, run.ns, run.kind.typ))
	term := env.run(run.t, 200, 50, "--as", p.name, "-n", run.ns, run.kind.typ+"/obj")
	term.waitFor(screenWait, "/obj", "apiVersion: ")
	p.tui = &raceTUI{term: term, next: next, base: run.latest()}
	// The watch is open from here on: the person sees every version.
	p.known, p.knownObj = run.latest(), run.versions[run.latest()].obj
}

// yamlKey is the key of the line f is on in kedit's YAML.
func (f raceField) yamlKey() string {
	i := strings.LastIndexByte(f.pointer, '/')
	key := f.pointer[i+1:]
	if f.name == "image" {
		key = "image"
	}
	return key
}

// tuiSave is the person's save of field f as value through kedit: e, the
// editor setting the field, s; a clean rebase or a conflict (mine taken)
// resubmitted. A value kedit's draft already holds is changed to another.
func (run *raceRun) tuiSave(p *racePerson, f raceField, value string) {
	run.t.Helper()
	if p.tui == nil {
		run.openTUI(p)
	}
	tui := p.tui
	// A value neither the draft's base nor the server holds: the edit
	// makes a draft, and the save something to write.
	was, _ := f.get(run.versions[tui.base].obj)
	now, _ := f.get(run.versions[run.latest()].obj)
	for _, v := range append([]string{value}, f.values...) {
		if v != was && v != now {
			value = v
			break
		}
	}
	literal := `"` + value + `"`
	if f.number {
		literal = value
	}
	sed := fmt.Sprintf(`s/^\(\( *\)\(- \)\?%s: \).*$/\1%s/`, f.yamlKey(), literal)
	if err := os.WriteFile(tui.next, []byte(sed+"\n"), 0o600); err != nil {
		run.t.Fatal(err)
	}
	run.script = append(run.script, fmt.Sprintf("# %s's kedit: e sets %s to %s, then s", p.name, f.name, value))
	tui.term.editAndWait()
	tui.term.send("s")
	// The save stored a version newer than the one kedit had: its "saved
	// rv N" is this save's, not the last one's still on the line.
	saved := func(s string) bool {
		m := savedRVOf.FindStringSubmatch(s)
		return m != nil && m[1] != tui.saved
	}
	screen, _ := tui.term.waitUntil(screenWait, "the save's outcome", func(s string) bool {
		return saved(s) || strings.Contains(s, "conflict: base rv") || strings.Contains(s, "clean rebase: ")
	})
	switch {
	case saved(screen):
	case strings.Contains(screen, "conflict: base rv"):
		run.script = append(run.script, "# a conflict: m (mine), s")
		tui.term.send("m")
		tui.term.send("s")
		screen, _ = tui.term.waitUntil(screenWait, "saved rv", saved)
	default:
		run.script = append(run.script, "# a clean rebase: s")
		tui.term.send("s")
		screen, _ = tui.term.waitUntil(screenWait, "saved rv", saved)
	}
	tui.saved = savedRVOf.FindStringSubmatch(screen)[1]
	// The save carried the resourceVersion of what kedit showed: the
	// latest, or theirs once a conflict showed it.
	run.record(raceVersion{person: p.name, informed: true}, "kedit save")
	tui.base = run.latest()
	p.known, p.knownObj = run.latest(), run.versions[run.latest()].obj
}

// savedRVOf finds the resourceVersion in kedit's status after a save.
var savedRVOf = regexp.MustCompile(`saved rv (\d+)`)
