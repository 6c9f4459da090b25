package model

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
		e := Entry{ID: i, Manager: m, Observed: t0.Add(time.Duration(i) * 30 * time.Second)}
		if i > 0 {
			e.Changes = []FieldChange{{Path: ".spec.replicas"}}
		}
		es = append(es, e)
	}
	fs := TimelineFights(es)
	if len(fs) != 1 || fs[0].Banner() != "fight: .spec.replicas changed hands 3 times between hpa and argocd in 1 min" {
		t.Fatalf("fights %+v", fs)
	}
	if want := []int{2, 3, 4}; !reflect.DeepEqual(fs[0].IDs, want) {
		t.Errorf("the fight's entries %v, want %v", fs[0].IDs, want)
	}
}

// TestSessionNamesALiveFight: hpa and argocd take .spec.replicas from each
// other on the watch (the first version kedit saw sets nothing); the
// session names the fight at the third hand-over, and not before.
func TestSessionNamesALiveFight(t *testing.T) {
	replicas := func(rv string, n int64, manager string, sec int) *unstructured.Unstructured {
		return withManaged(deploy(rv, "app:1", n), mf{manager, "Update", sec, `{"f:spec":{"f:replicas":{}}}`})
	}
	s := NewSession(deployRef)
	must(t, s, Opened{Object: replicas("1", 2, "argocd", 0), At: at(0)})
	for i, manager := range []string{"hpa", "argocd", "hpa", "argocd", "hpa"} {
		sec := 60 * (i + 1)
		must(t, s, LiveChanged{Type: LiveModified, Object: replicas(strconv.Itoa(i+2), int64(2+3*((i+1)%2)), manager, sec), At: at(sec)})
		fs := s.Fights()
		if i < 3 {
			if len(fs) != 0 {
				t.Fatalf("after %d hand-overs, fights %+v", i, fs)
			}
			continue
		}
		want := fmt.Sprintf("fight: .spec.replicas changed hands %d times between hpa and argocd in %d min", i, i-1)
		if len(fs) != 1 || fs[0].Banner() != want {
			t.Fatalf("after %d hand-overs: fights %+v, want %q", i, fs, want)
		}
	}
}
