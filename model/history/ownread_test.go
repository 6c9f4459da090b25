package history

import (
	"strings"
	"testing"
	"time"
)

// TestACommandsOwnReadIsNotItsUsersRead: the shapes of real kubectl
// commands' requests, as localcluster's audit log records them. alice read
// configmap cm (foo "1") at 10 s, bob set foo at 20 s, and alice writes foo
// at 30 s:
//   - kubectl replace of her file without a resourceVersion: its own GET 7
//     ms before its PUT, which carries the resourceVersion that GET read:
//     a lost update, the evidence naming the command's read;
//   - kubectl replace of a file with the resourceVersion she read last,
//     made by kubectl get 300 ms before (a pipeline): the server took it,
//     so she had read bob's value: nothing found;
//   - kubectl patch (its own GET 1 ms before): a lost update;
//   - kubectl edit, whose GET is what her editor showed at 25 s: nothing
//     found;
//   - the same kubectl patch with no read of hers in the log but a list
//     of the namespace before cm was created: blind, and the evidence says
//     she never read it.
func TestACommandsOwnReadIsNotItsUsersRead(t *testing.T) {
	alice := Client{User: "alice", UserAgent: "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0"}
	bob := Client{User: "bob", UserAgent: "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0"}
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	at := func(s int, ms int) time.Time {
		return t0.Add(time.Duration(s)*time.Second + time.Duration(ms)*time.Millisecond)
	}
	get := func(c Client, s, ms int) Event {
		return Event{Verb: VerbGet, Client: c, Received: at(s, ms), Time: at(s, ms+1), Code: 200}
	}
	story := func(aliceReads bool, write ...Event) []Event {
		var evs []Event
		if !aliceReads {
			evs = append(evs, Event{Verb: VerbList, Client: alice, Received: at(0, 0), Time: at(0, 2), Code: 200})
		}
		evs = append(evs, Event{Verb: VerbCreate, Client: bob, Manager: "kubectl-create", Received: at(1, 0), Time: at(1, 3), Code: 201, Object: cmWith("1", "1")})
		if aliceReads {
			evs = append(evs, get(alice, 10, 0))
		}
		evs = append(evs, get(bob, 20, 0),
			Event{Verb: VerbPatch, Client: bob, Manager: "kubectl-patch", Received: at(20, 2), Time: at(20, 5), Code: 200, Object: cmWith("2", "bob")})
		return append(evs, write...)
	}
	aliceWrites := func(verb, manager, rv string) Event {
		return Event{Verb: verb, Client: alice, Manager: manager, RequestRV: rv, Received: at(30, 8), Time: at(30, 20), Code: 200, Object: cmWith("3", "alice")}
	}
	for _, c := range []struct {
		name     string
		events   []Event
		verdict  Verdict
		evidence []string
	}{
		{"kubectl replace of a file without a resourceVersion", story(true, get(alice, 30, 0), aliceWrites(VerbUpdate, "kubectl-replace", "2")), VerdictLost,
			[]string{"alice's kubectl replace carried resourceVersion 2, which it read itself 7ms before it wrote (its file had none): not what alice's file was made from",
				"alice last read the object at 2026-12-07T09:00:10.001000Z (resourceVersion 1), before bob set .data.foo"}},
		{"kubectl get piped to kubectl replace", story(true, get(alice, 29, 700), aliceWrites(VerbUpdate, "kubectl-replace", "2")), VerdictOK, nil},
		{"kubectl patch", story(true, get(alice, 30, 6), aliceWrites(VerbPatch, "kubectl-patch", "")), VerdictLost,
			[]string{"alice's kubectl patch carried no resourceVersion; it read the object itself 1ms before it wrote, which is not what alice saw"}},
		{"kubectl edit", story(true, get(alice, 25, 0), aliceWrites(VerbPatch, "kubectl-edit", "")), VerdictOK, nil},
		{"kubectl patch, never read", story(false, get(alice, 30, 6), aliceWrites(VerbPatch, "kubectl-patch", "")), VerdictBlind,
			[]string{"alice never read configmap/cm in this log: the last read by alice was a list at 2026-12-07T09:00:00.002000Z, before it was created"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := Analyze(c.events)
			w := h.Versions[len(h.Versions)-1]
			if w.Verdict != c.verdict {
				t.Fatalf("verdict %q, want %q; lost %+v blind %+v", w.Verdict, c.verdict, h.LostUpdates, h.BlindWrites)
			}
			var evidence string
			for _, l := range append(h.LostUpdates, h.BlindWrites...) {
				evidence += l.Evidence
			}
			for _, want := range c.evidence {
				if !strings.Contains(evidence, want) {
					t.Errorf("the evidence lacks %q:\n%s", want, evidence)
				}
			}
		})
	}
}

// TestValuesAreEscapedOnce: a value with quotes and a backslash is
// printed as its JSON literal, once escaped; a terminal escape in it as a
// \u escape.
func TestValuesAreEscapedOnce(t *testing.T) {
	for in, want := range map[string]string{
		`say "hi"`:          `"say \"hi\""`,
		`C:\dir`:            `"C:\\dir"`,
		"bell\x07":          `"bell\u0007"`,
		"right\u202eleft":   `"right\u202eleft"`,
		"a<b>&c":            `"a<b>&c"`,
		"zero\u200bwidth":   `"zero\u200bwidth"`,
		"emoji 👩‍👩‍👧 stays": `"emoji 👩‍👩‍👧 stays"`,
	} {
		if got := value(in, 200); got != want {
			t.Errorf("value(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestLastAppliedIsSaidOnce: a client-side kubectl apply of a stale file
// sets back both the field and its own record of the file applied (the
// last-applied annotation, which bob's kubectl edit had rewritten): one
// finding, the annotation said in its evidence.
func TestLastAppliedIsSaidOnce(t *testing.T) {
	carol := Client{User: "carol", UserAgent: "kubectl/v1.33.1"}
	bob := Client{User: "bob", UserAgent: "kubectl/v1.33.1"}
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	with := func(rv, foo, applied string) Event {
		o := cmWith(rv, foo)
		o.SetAnnotations(map[string]string{"kubectl.kubernetes.io/last-applied-configuration": applied})
		return Event{Object: o, Code: 200}
	}
	v1, v2, v3 := with("1", "1", `{"data":{"foo":"1"}}`), with("2", "bob", `{"data":{"foo":"bob"}}`), with("3", "1", `{"data":{"foo":"1"}}`)
	v1.Verb, v1.Client, v1.Manager, v1.Received, v1.Time = VerbCreate, carol, "kubectl-client-side-apply", at(0), at(0)
	v2.Verb, v2.Client, v2.Manager, v2.Received, v2.Time = VerbPatch, bob, "kubectl-edit", at(2), at(2)
	v3.Verb, v3.Client, v3.Manager, v3.Received, v3.Time = VerbPatch, carol, "kubectl-client-side-apply", at(4), at(4)
	events := []Event{v1,
		{Verb: VerbGet, Client: bob, Received: at(1), Time: at(1), Code: 200}, v2,
		{Verb: VerbGet, Client: carol, Received: at(3), Time: at(3), Code: 200},
		{Verb: VerbGet, Client: carol, Received: at(4).Add(-100 * time.Millisecond), Time: at(4).Add(-99 * time.Millisecond), Code: 200}, v3}
	h := Analyze(events)
	if len(h.Reverted) != 1 || h.Reverted[0].Path.String() != ".data.foo" || len(h.LostUpdates)+len(h.BlindWrites) != 0 {
		t.Fatalf("reverted %+v, lost %+v, blind %+v; want only .data.foo set back", h.Reverted, h.LostUpdates, h.BlindWrites)
	}
	if ev := h.Reverted[0].Evidence; !strings.Contains(ev, `it also replaced bob's .metadata.annotations.kubectl.kubernetes.io/last-applied-configuration (kubectl apply's record`) {
		t.Errorf("evidence: %s", ev)
	}
}

// TestUnstampedBuildsAreSaidSo: client-go's user agent of a binary built
// without version stamps is said as such, not with its placeholders.
func TestUnstampedBuildsAreSaidSo(t *testing.T) {
	for in, want := range map[string]string{
		"localcluster/v0.0.0 (linux/amd64) kubernetes/$Format": "localcluster (linux/amd64), a build without version stamps",
		"kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0":     "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0",
		"kedit/v0.3.0 (linux/amd64)":                           "kedit/v0.3.0 (linux/amd64)",
		"tool/v1.2.3 (darwin/arm64) kubernetes/$Format":        "tool/v1.2.3 (darwin/arm64), a build without version stamps",
	} {
		if got := UserAgentText(in); got != want {
			t.Errorf("UserAgentText(%q) = %q, want %q", in, got, want)
		}
	}
}
