package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ETimelineScrollsSideways: at 80 columns a version that changed
// three long keys has its changed fields cut at the edge; l scrolls the
// list right, half a screen at a time, the selection and the RV column
// staying, until the last field shows and no further; h scrolls back.
func TestE2ETimelineScrollsSideways(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "wide", "--from-literal=a=1")
	term := openKedit(t, ns, "wide", "true", 80, 24)
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "wide", "--type=merge", "--field-manager=dave", "-p",
		`{"data":{"first-rather-long-key-name":"1","second-rather-long-key-name":"1","third-rather-long-key-name":"1"}}`)
	// The watch brought the patch before t: the timeline opens on it.
	term.waitFor(screenWait, "third-rather-long-key-name")
	term.send("t")
	screen := term.waitFor(screenWait, "timeline of ConfigMap/wide: 2 versions", "dave")
	selected := regexp.MustCompile(`(?m)^> .*$`)
	row := strings.TrimRight(selected.FindString(screen), " ")
	if !strings.HasSuffix(row, "…") || strings.Contains(row, "third-rather-long-key-name") {
		t.Fatalf("at 80 columns the newest row is not cut: %q\n%s", row, screen)
	}
	rv := strings.Fields(row)[1]
	// Half a screen at a time, and no further than the widest row's end.
	term.send("l", "l", "l")
	screen, _ = term.waitUntil(screenWait, "the row scrolled right", func(s string) bool {
		r := strings.TrimRight(selected.FindString(s), " ")
		return strings.HasPrefix(r, "> "+rv+"  …") && strings.HasSuffix(r, ".data.third-rather-long-key-name")
	})
	if strings.Contains(selected.FindString(screen), "dave") {
		t.Errorf("scrolled right, the manager column still shows:\n%s", screen)
	}
	term.waitFor(screenWait, "←/h left")
	term.send("h", "h")
	term.waitUntil(screenWait, "the row scrolled back", func(s string) bool {
		return strings.Contains(selected.FindString(s), "dave")
	})
}
