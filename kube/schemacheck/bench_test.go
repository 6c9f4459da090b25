package schemacheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// deployment20 is a Deployment of 20 containers, each with arguments, a
// port, three variables, limits and a mount (the rebase's benchmark's).
func deployment20() string {
	var b strings.Builder
	b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      volumes:\n      - name: data\n        emptyDir: {}\n      containers:\n")
	for i := range 20 {
		fmt.Fprintf(&b, "      - name: c%02d\n        image: registry.example.com/app%02d:1.0\n        args: [--port=8080, --verbose]\n        ports:\n        - containerPort: %d\n          protocol: TCP\n        env:\n        - {name: A, value: \"1\"}\n        - {name: B, value: \"2\"}\n        - {name: C, value: \"3\"}\n        resources:\n          limits: {cpu: 500m, memory: 128Mi}\n        volumeMounts:\n        - {name: data, mountPath: /data}\n", i, i, 8080+i)
	}
	return b.String()
}

// BenchmarkCheckDeployment20 is the check of a Deployment of 20
// containers, as it runs off the UI's goroutine once typing pauses: valid,
// and with a field mistyped in each container.
func BenchmarkCheckDeployment20(b *testing.B) {
	s := serverSchema(b, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"})
	valid := deployment20()
	typos := strings.ReplaceAll(valid, "protocol:", "protocl:")
	for _, c := range []struct{ name, text string }{{"valid", valid}, {"typos", typos}} {
		want := 0
		if c.name == "typos" {
			want = 20
		}
		if got := s.Check(c.text); len(got) != want {
			b.Fatalf("%s: %d diagnostics, want %d: %+v", c.name, len(got), want, got)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			d := make([]time.Duration, 0, b.N)
			for range b.N {
				t0 := time.Now()
				_ = s.Check(c.text)
				d = append(d, time.Since(t0))
			}
			if len(d) > 0 {
				slices.Sort(d)
				b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), "p50-ns")
				b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds()), "p99-ns")
			}
		})
	}
}
