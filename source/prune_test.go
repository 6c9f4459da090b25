package source

import (
	"math/rand/v2"
	"testing"

	"github.com/kedit/kedit/internal/testseed"
)

// TestMayBuildPassesByNoneThatBuilds: of the random layouts and those of
// real repositories, every kustomization whose build holds an object is
// one mayBuild says may build it; and it passes by some that do not.
func TestMayBuildPassesByNoneThatBuilds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(testseed.Seed(t), 0))
	layouts := []map[string]string{ldapLayout, springbootLayout, multibasesLayout, boutique(true), fleetOf(5, false), fleetOf(5, true)}
	for range 15 {
		files, _ := randomLayout(rng)
		layouts = append(layouts, files)
	}
	passed := 0
	for i, files := range layouts {
		tr := mustTree(t, writeLayout(t, files))
		var all []Ref
		for _, d := range tr.kustomizations() {
			objs, err := tr.build(d, nil)
			if err != nil {
				continue // a component
			}
			for _, o := range objs {
				all = append(all, o.ref)
				if !tr.mayBuild(d, o.ref) {
					t.Errorf("%d: %s builds %s, and mayBuild passes it by", i, displayDir(d), o.ref)
				}
			}
		}
		for _, d := range tr.kustomizations() {
			for _, r := range all {
				if !tr.mayBuild(d, r) {
					passed++
				}
			}
		}
	}
	if passed == 0 {
		t.Error("mayBuild passed by no kustomization")
	}
}
