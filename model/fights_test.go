package model

import (
	"testing"
	"time"
)

func TestFightsAndBanner(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	var ws []FieldWrite
	for i, who := range []string{"argocd", "hpa", "argocd", "carol", "hpa", "argocd", "hpa"} {
		ws = append(ws, FieldWrite{Who: who, At: t0.Add(time.Duration(i) * 2 * time.Minute), Paths: []string{".spec.replicas"}})
	}
	fs := Fights(ws)
	// argocd→hpa, hpa→argocd, hpa→argocd (after carol's), argocd→hpa;
	// the hand-overs to and from carol do not count.
	if len(fs) != 1 || fs[0].Count != 4 || fs[0].Between != [2]string{"argocd", "hpa"} {
		t.Fatalf("fights %+v", fs)
	}
	if got, want := fs[0].Banner(), "fight: .spec.replicas changed hands 4 times between argocd and hpa in 10 min"; got != want {
		t.Errorf("banner %q, want %q", got, want)
	}
	if fs := Fights(ws[:3]); len(fs) != 0 {
		t.Errorf("two hand-overs make a fight: %+v", fs)
	}
}

func TestTimelineFights(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	var es []Entry
	for i, m := range []string{"kubectl-create", "hpa", "argocd", "hpa", "argocd"} {
		e := Entry{Manager: m, Observed: t0.Add(time.Duration(i) * 30 * time.Second)}
		if i > 0 {
			e.Changes = []FieldChange{{Path: ".spec.replicas"}}
		}
		es = append(es, e)
	}
	fs := TimelineFights(es)
	if len(fs) != 1 || fs[0].Banner() != "fight: .spec.replicas changed hands 3 times between hpa and argocd in 1 min" {
		t.Fatalf("fights %+v", fs)
	}
}
