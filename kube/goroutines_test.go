package kube

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
)

// assertNoGoroutines fails the test when goroutines of an informer (the
// informer, its reflector, the watch stream's decoder) or of owner (a
// function name, "kedit/kube.(*Watch)") outlive Stop: they get 5 s to end.
// Connections the HTTP transport keeps for reuse are no one's and are not
// looked for.
func assertNoGoroutines(t *testing.T, owner string) {
	t.Helper()
	markers := []string{"k8s.io/client-go/tools/cache.", "k8s.io/apimachinery/pkg/watch.", owner}
	var leaked string
	if testwait.Until(5*time.Second, func() bool { leaked = goroutinesWith(markers); return leaked == "" }) {
		return
	}
	t.Errorf("goroutines outlived Stop:\n%s", leaked)
}

// goroutinesWith returns the stacks of the running goroutines that hold
// one of markers.
func goroutinesWith(markers []string) string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found strings.Builder
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, m := range markers {
			if strings.Contains(g, m) {
				found.WriteString(g + "\n\n")
				break
			}
		}
	}
	return found.String()
}
