package history

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func deployment(rv int, replicas int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "uid": "u1", "resourceVersion": strconv.Itoa(rv)},
		"spec":     map[string]any{"replicas": replicas},
	}}
}

func scale(rv int, replicas int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "resourceVersion": strconv.Itoa(rv)},
		"spec":     map[string]any{"replicas": replicas},
	}}
}

// TestFightBetweenHPAAndGitOps: an HPA writing .spec.replicas through the
// scale subresource and a GitOps controller patching it back, each having
// watched the object: a fight, and no lost update (both saw every version).
func TestFightBetweenHPAAndGitOps(t *testing.T) {
	hpa := Client{User: "system:serviceaccount:kube-system:horizontal-pod-autoscaler", UserAgent: "kube-controller-manager/v1.36.3"}
	argo := Client{User: "system:serviceaccount:argocd:argocd-application-controller", UserAgent: "argocd-application-controller/v2.13"}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	events := []Event{
		{Verb: VerbCreate, Client: argo, Received: at(0), Time: at(0), Code: 201, Object: deployment(1, 2)},
		{Verb: VerbWatch, Client: hpa, Received: at(0), Time: at(0), Open: true},
		{Verb: VerbWatch, Client: argo, Received: at(0), Time: at(0), Open: true},
	}
	rv := 1
	for i, c := range []Client{hpa, argo, hpa, argo, hpa} {
		rv++
		ev := Event{Verb: VerbPatch, Client: c, Received: at(i + 1), Time: at(i + 1), Code: 200}
		if c == hpa {
			ev.Subresource, ev.Object = "scale", scale(rv, 5)
		} else {
			ev.Object = deployment(rv, 2)
		}
		events = append(events, ev)
	}
	h := Analyze(events)
	if len(h.Versions) != 6 {
		t.Fatalf("%d versions, want 6", len(h.Versions))
	}
	if len(h.LostUpdates) != 0 || len(h.BlindWrites) != 0 {
		t.Errorf("lost %+v blind %+v: both watched every version", h.LostUpdates, h.BlindWrites)
	}
	if len(h.Fights) != 1 {
		t.Fatalf("fights %+v", h.Fights)
	}
	f := h.Fights[0]
	if f.Path != ".spec.replicas" || f.Count != 4 || len(f.Times) != 4 || f.Clients != [2]Client{hpa, argo} ||
		!slices.Equal(f.Versions, []int{2, 3, 4, 5}) {
		t.Errorf("fight %+v", f)
	}
	// Each write that took the field is marked on the timeline.
	for _, r := range Rows(h, nil) {
		if want := r.Version >= 2; (len(r.Fights) > 0) != want {
			t.Errorf("version %d: fights %v", r.Version, r.Fights)
		}
	}
	// Two hand-overs are no fight.
	h = Analyze(events[:6])
	if len(h.Fights) != 0 {
		t.Errorf("fights after 2 hand-overs: %+v", h.Fights)
	}
}

// TestTestedWritesTakeNoFieldInAFight: two clients setting .data.foo in
// turn, four rounds, one of them with kedit set --if (a JSON Patch testing
// the field it sets): each of its writes knew the value it replaced, so
// its hand-overs are not counted and the other side's alone are no fight,
// nor does it lose or replace blind what it tested, and every write is
// judged though it reads nothing else. The same writes without the test
// are a fight.
func TestTestedWritesTakeNoFieldInAFight(t *testing.T) {
	alice := Client{User: "alice", UserAgent: "kedit/v1"}
	bob := Client{User: "bob", UserAgent: "kubectl/v1.33.0"}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	events := func(tests []string) []Event {
		evs := []Event{{Verb: VerbCreate, Client: bob, Received: at(0), Time: at(0), Code: 201, Object: cmWith("1", "0")},
			{Verb: VerbWatch, Client: bob, Received: at(0), Time: at(0), Open: true}}
		for i, c := range []Client{alice, bob, alice, bob, alice, bob, alice, bob, alice} {
			ev := Event{Verb: VerbPatch, Client: c, Received: at(i + 1), Time: at(i + 1), Code: 200, Object: cmWith(strconv.Itoa(i+2), c.User+strconv.Itoa(i))}
			if c == alice {
				ev.Tests = tests
			}
			evs = append(evs, ev)
		}
		return evs
	}
	h := Analyze(events(nil))
	if len(h.Fights) != 1 || len(h.BlindWrites) == 0 {
		t.Fatalf("untested: fights %+v, blind writes %d; want a fight and alice's blind writes", h.Fights, len(h.BlindWrites))
	}
	h = Analyze(events([]string{"/data/foo"}))
	if len(h.Fights) != 0 || len(h.BlindWrites) != 0 || len(h.LostUpdates) != 0 || len(h.Reverted) != 0 {
		t.Errorf("tested: fights %+v, blind %+v, lost %+v, reverted %+v; want none", h.Fights, h.BlindWrites, h.LostUpdates, h.Reverted)
	}
	// Alice never reads but through her tests, which read every field
	// she changes: every write is judged.
	if !h.Coverage.Judged() {
		t.Errorf("tested: coverage %+v; want every write judged", h.Coverage)
	}
	for i, v := range h.Versions[1:] {
		if v.Verdict != VerdictOK {
			t.Errorf("version %d (%s): verdict %q, want ok", i+1, v.Client.User, v.Verdict)
		}
	}
	// A test of another field reads only that one.
	h = Analyze(events([]string{"/data/bar"}))
	if len(h.BlindWrites) == 0 {
		t.Errorf("a test of /data/bar: no blind write of foo")
	}
}
