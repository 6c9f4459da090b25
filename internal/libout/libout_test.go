package libout

import (
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// TestCaptureHoldsWhatLibrariesPrint: what is written to os.Stderr and
// the standard logger while a capture runs is caught, a line each, and
// nothing of it after stop; the kustomize API's own warnings among it.
func TestCaptureHoldsWhatLibrariesPrint(t *testing.T) {
	before := os.Stderr
	c, stop := Start(true)
	if Terminal() != before || os.Stderr == before {
		t.Fatal("the terminal's stderr is not kept aside")
	}
	mark := c.Mark()
	fmt.Fprintln(os.Stderr, "to stderr")
	log.Print("to the log")
	fs := filesys.MakeFsInMemory()
	_ = fs.WriteFile("/k/kustomization.yaml", []byte("commonLabels:\n  app: x\nresources:\n- cm.yaml\n"))
	_ = fs.WriteFile("/k/cm.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"))
	if _, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/k"); err != nil {
		t.Fatal(err)
	}
	got := c.Since(mark)
	stop()
	if len(got) < 3 || got[0] != "to stderr" || !slices.ContainsFunc(got, func(l string) bool { return strings.HasSuffix(l, "to the log") }) {
		t.Fatalf("caught %q", got)
	}
	if !slices.ContainsFunc(got, func(l string) bool {
		return l == "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically."
	}) {
		t.Errorf("kustomize's warning was not caught: %q", got)
	}
	if Running() != nil || os.Stderr == nil || Terminal() != os.Stderr {
		t.Error("stop left the capture running")
	}
	if again := c.Since(0); len(again) != len(got) {
		t.Errorf("after stop: %q", again)
	}
}

// TestSinceKeepsTheLatest: a capture keeps its latest lines; Since a mark
// older than those gives what is kept.
func TestSinceKeepsTheLatest(t *testing.T) {
	c := newCapture()
	for i := range keep + 10 {
		c.add(fmt.Sprint(i))
	}
	if got := c.Since(5); len(got) != keep || got[0] != "10" {
		t.Errorf("Since(5): %d lines from %q", len(got), got[0])
	}
	if got := c.Since(keep + 8); !slices.Equal(got, []string{fmt.Sprint(keep + 8), fmt.Sprint(keep + 9)}) {
		t.Errorf("Since(keep+8): %q", got)
	}
}
