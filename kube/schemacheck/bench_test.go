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

// thing1000 is a Thing (ThingCRD) whose keyed list holds 1,000 entries,
// each weighted weight.
func thing1000(weight int) string {
	var b strings.Builder
	b.WriteString("apiVersion: check.kedit.example.com/v1\nkind: Thing\nmetadata:\n  name: big\nspec:\n  size: 3\n  mode: fast\n  entries:\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "  - name: e%04d\n    weight: %d\n", i, weight)
	}
	return b.String()
}

// configMap1MiB is a ConfigMap of 50 keys of 400 lines (1 MiB), as the
// in-app editor's and the rebase's benchmarks hold.
func configMap1MiB(extra string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n" + extra + "data:\n")
	for k := range 50 {
		fmt.Fprintf(&b, "  conf%02d: |\n", k)
		for i := range 400 {
			fmt.Fprintf(&b, "    option%05d = value %d %s\n", i, i, strings.Repeat("x", 24))
		}
	}
	return b.String()
}

// BenchmarkCheckLarge is the check, as it runs off the UI's goroutine
// once typing pauses, of a custom resource whose keyed list holds 1,000
// items (valid, and with each item's weight refused) and of the 1 MiB
// ConfigMap (valid, and with a field mistyped).
func BenchmarkCheckLarge(b *testing.B) {
	InstallThing(b)
	thing := serverSchema(b, schema.GroupVersionKind{Group: "check.kedit.example.com", Version: "v1", Kind: "Thing"})
	cm := serverSchema(b, schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"})
	for _, c := range []struct {
		name string
		s    *Schema
		text string
		want int
	}{
		{"CRD1000/valid", thing, thing1000(1), 0},
		{"CRD1000/refused", thing, thing1000(-1), 1000},
		{"ConfigMap1MiB/valid", cm, configMap1MiB(""), 0},
		{"ConfigMap1MiB/refused", cm, configMap1MiB("immutabel: true\n"), 1},
	} {
		if got := c.s.Check(c.text); len(got) != c.want {
			b.Fatalf("%s: %d diagnostics, want %d: %+v", c.name, len(got), c.want, got[:min(len(got), 3)])
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			d := make([]time.Duration, 0, b.N)
			for range b.N {
				t0 := time.Now()
				_ = c.s.Check(c.text)
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
