package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// The verbs of the race harness's people, each a real command, and the
// random interleaving of them a seed draws.

// The kubectl verbs that write a field.
const (
	verbReplace     = "replace"      // a file without the resourceVersion
	verbReplaceRV   = "replace-rv"   // the file with the resourceVersion its person read
	verbApply       = "apply"        // client-side
	verbServerSide  = "apply-server" // server-side, refused on a conflict
	verbForceApply  = "apply-server-force"
	verbPatchMerge  = "patch-merge"
	verbPatchJSON   = "patch-json"
	verbPatchSMP    = "patch-strategic"
	verbFieldsOwnOf = "own" // label, annotate or scale: the field's own verb
)

// write runs the person's write of field f to value with verb, and
// records what it stored.
func (run *raceRun) write(p *racePerson, verb string, f raceField, value string) {
	run.t.Helper()
	v := raceVersion{person: p.name, base: p.known}
	refusable := false
	var args []string
	switch verb {
	case verbReplace:
		o := run.body(p, f, value, true)
		delete(o["metadata"].(map[string]any), "resourceVersion")
		args = []string{"replace", "-f", run.file(p.name, o)}
	case verbReplaceRV:
		args = []string{"replace", "-f", run.file(p.name, run.body(p, f, value, true))}
		v.informed, refusable = true, true
	case verbApply:
		args = []string{"apply", "-f", run.file(p.name, run.body(p, f, value, false))}
	case verbServerSide:
		args = []string{"apply", "--server-side", "-f", run.file(p.name, run.body(p, f, value, false))}
		refusable = true
	case verbForceApply:
		args = []string{"apply", "--server-side", "--force-conflicts", "-f", run.file(p.name, run.body(p, f, value, false))}
	case verbPatchMerge, verbPatchSMP:
		b, _ := json.Marshal(f.patch(value))
		args = []string{"patch", run.kind.typ, "obj", "-p", string(b)}
		if verb == verbPatchMerge {
			args = append(args, "--type", "merge")
		}
	case verbPatchJSON:
		b, _ := json.Marshal([]map[string]any{{"op": "add", "path": f.pointer, "value": jsonValue(f, value)}})
		args = []string{"patch", run.kind.typ, "obj", "--type", "json", "-p", string(b)}
	case verbFieldsOwnOf:
		switch f.verb {
		case "label", "annotate":
			args = []string{f.verb, run.kind.typ, "obj", f.key + "=" + value, "--overwrite"}
		case "scale":
			args = []string{"scale", run.kind.typ, "obj", "--replicas=" + value}
		default:
			panic("field " + f.name + " has no verb of its own")
		}
	default:
		panic("no verb " + verb)
	}
	out, err := run.kubectl(p.name, nil, args...)
	if err != nil {
		if !refusable || !(strings.Contains(out, "conflict") || strings.Contains(out, "has been modified")) {
			run.t.Fatalf("kubectl --as %s %s: %v\n%s\n%s", p.name, strings.Join(args, " "), err, out, run.replay())
		}
		run.script = append(run.script, "# refused: "+firstLine(out))
	}
	before := len(run.versions)
	run.record(v, "kubectl "+verb)
	if verb == verbApply && len(run.versions) == before && err == nil {
		// "unchanged": the object holds what the file does, every field
		// the person set, and kubectl said so (it read the object and
		// sent nothing).
		run.script = append(run.script, "# unchanged: "+p.name+" now knows the object holds their file")
		p.known, p.knownObj = run.latest(), deepCopy(run.versions[run.latest()].obj)
	}
}

// jsonValue is value as f holds it in JSON.
func jsonValue(f raceField, value string) any {
	if f.number {
		var n int64
		fmt.Sscan(value, &n)
		return n
	}
	return value
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// keditSet is the person's kedit set of field f to value, if the field
// still holds the value they know of it (the one they read or were told,
// else the repository's): a JSON Patch that tests it. When the condition
// does not hold, kedit prints the value now, which they know from then on.
func (run *raceRun) keditSet(p *racePerson, f raceField, value string) {
	run.t.Helper()
	want, ok := p.values[f.name]
	if !ok {
		src := run.kind.manifest(run.ns)
		if p.knownObj != nil {
			src = p.knownObj
		}
		want, _ = f.get(src)
	}
	op := "="
	if f.number {
		op = ":="
	}
	set := []string{run.kind.typ + "/obj", f.pointer + op + value, "--if", f.pointer + op + want}
	run.script = append(run.script, "kedit "+shellJoin(append([]string{"set", "--as", p.name, "-n", run.ns}, set...)))
	out, stderr, code := runBinary(run.t, "", append([]string{"set", "--kubeconfig", run.env.c.Kubeconfig(), "--as", p.name, "-n", run.ns}, set...)...)
	switch code {
	case 0:
		run.record(raceVersion{person: p.name, base: p.known, tested: map[string]bool{f.name: true}}, "kedit set --if")
		p.values[f.name] = value
	case 3:
		run.script = append(run.script, "# the condition did not hold: "+firstLine(out+stderr))
		run.record(raceVersion{}, "")
		now, _ := f.get(run.versions[run.latest()].obj)
		p.values[f.name] = now
	default:
		run.t.Fatalf("kedit set as %s: exit %d\n%s%s\n%s", p.name, code, out, stderr, run.replay())
	}
}

// list is the person's kubectl get of the type in the namespace: a read
// of the object once it exists.
func (run *raceRun) list(p *racePerson) {
	run.t.Helper()
	out, err := run.kubectl(p.name, nil, "get", run.kind.typ, "-o", "json")
	if err != nil {
		run.t.Fatalf("kubectl get %s as %s: %v\n%s", run.kind.typ, p.name, err, out)
	}
	var l struct{ Items []map[string]any }
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		run.t.Fatalf("kubectl get -o json printed no list: %v\n%s", err, out)
	}
	if len(l.Items) == 1 {
		run.learn(p, l.Items[0])
	}
}

// race plays steps random steps of the people, from r: reads, kubectl
// edits that wait while others write, and writes by every verb; kedit's
// people write with kedit set --if. Some people list the namespace before
// the object is created.
func (run *raceRun) race(r *rand.Rand, steps int) {
	run.t.Helper()
	for _, p := range run.people {
		if r.IntN(3) == 0 {
			run.list(p)
		}
	}
	run.create()
	fields := run.kind.fields
	for range steps {
		p := run.people[r.IntN(len(run.people))]
		f := fields[r.IntN(len(fields))]
		value := f.values[r.IntN(len(f.values))]
		switch {
		case p.editing != nil:
			if r.IntN(2) == 0 {
				run.finishEdit(p, f, value)
			}
		case p.kedit:
			run.keditSet(p, f, value)
		case p.tuiUser:
			run.tuiSave(p, f, value)
		default:
			run.kubectlStep(r, p, f, value)
		}
	}
	for _, p := range run.people {
		if p.editing != nil {
			f := fields[r.IntN(len(fields))]
			run.finishEdit(p, f, f.values[r.IntN(len(f.values))])
		}
	}
}

func (run *raceRun) kubectlStep(r *rand.Rand, p *racePerson, f raceField, value string) {
	switch n := r.IntN(100); {
	case n < 16:
		run.read(p)
	case n < 20:
		run.list(p)
	case n < 30:
		run.startEdit(p)
	case n < 38:
		run.write(p, verbReplace, f, value)
	case n < 45 && p.knownObj != nil:
		run.write(p, verbReplaceRV, f, value)
	case n < 52:
		run.write(p, verbApply, f, value)
	case n < 58:
		run.write(p, verbServerSide, f, value)
	case n < 64:
		run.write(p, verbForceApply, f, value)
	case n < 71:
		run.write(p, verbPatchMerge, f, value)
	case n < 78:
		run.write(p, verbPatchJSON, f, value)
	case n < 85 || f.verb == "":
		run.write(p, verbPatchSMP, f, value)
	default:
		run.write(p, verbFieldsOwnOf, f, value)
	}
}

// replay is the run's commands, for a reader to play it again.
func (run *raceRun) replay() string {
	return fmt.Sprintf("# %s: the commands, in order (KUBECONFIG=%s)\n%s\n", run.name, run.env.c.Kubeconfig(), strings.Join(run.script, "\n"))
}
