package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/benchkeys"
	"github.com/kedit/kedit/ui/internal/effect"
)

// The rebase's benchmark: from the 409 to the conflict view drawn, on the
// 1 MiB ConfigMap of the merge benchmarks and on a 20-container
// Deployment, through the app as the program runs it (the save refused by
// the fake server, theirs read, the merge, the view laid out and drawn).
//
//	go test ./ui -run '^$' -bench Rebase -benchtime 20x

// rebaseCase builds an app with a draft whose save conflicts with theirs.
type rebaseCase struct {
	name string
	// base is the object; mine and theirs change its draft text and the
	// server's copy.
	base   func() *unstructured.Unstructured
	mine   func(text string) string
	theirs func(obj *unstructured.Unstructured)
}

// configLines is key k's config file with the given lines replaced.
func configLines(k int, set map[int]string) string {
	var b strings.Builder
	for i := range 400 {
		if v, ok := set[i]; ok {
			b.WriteString(v + "\n")
			continue
		}
		fmt.Fprintf(&b, "key%d.option%d = value %d of the configuration file, long enough to be typical\n", k, i, i)
	}
	return b.String()
}

var rebaseCases = []rebaseCase{
	{
		// 50 keys of 400 lines (1 MiB); mine edits keys 0-9, theirs keys
		// 8-17: key 8 on other lines (merged line by line), key 9 on the
		// same line (one conflict).
		name: "ConfigMap1MiB",
		base: func() *unstructured.Unstructured {
			data := map[string]any{}
			for k := range 50 {
				data[fmt.Sprintf("conf%02d", k)] = configLines(k, nil)
			}
			return configMap("812", data, "kubectl-create", 0)
		},
		mine: func(text string) string {
			for k := range 10 {
				old := fmt.Sprintf("key%d.option100 = value 100 ", k)
				text = strings.Replace(text, old, fmt.Sprintf("key%d.option100 = mine ", k), 1)
			}
			return text
		},
		theirs: func(obj *unstructured.Unstructured) {
			for k := 8; k < 18; k++ {
				line := 300
				if k == 9 {
					line = 100
				}
				_ = unstructured.SetNestedField(obj.Object, configLines(k, map[int]string{line: "theirs"}), "data", fmt.Sprintf("conf%02d", k))
			}
		},
	},
	{
		// Mine changes one container's image, theirs another's image and
		// the replicas: a clean merge by the built-in schema's list keys.
		name: "Deployment20",
		base: func() *unstructured.Unstructured {
			var containers []any
			for i := range 20 {
				containers = append(containers, map[string]any{
					"name": fmt.Sprintf("c%02d", i), "image": fmt.Sprintf("registry.example.com/app%02d:1.0", i),
					"args":  []any{"--port=8080", "--verbose"},
					"ports": []any{map[string]any{"containerPort": int64(8080 + i), "protocol": "TCP"}},
					"env": []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "B", "value": "2"},
						map[string]any{"name": "C", "value": "3"}},
					"resources":    map[string]any{"limits": map[string]any{"cpu": "500m", "memory": "128Mi"}},
					"volumeMounts": []any{map[string]any{"name": "data", "mountPath": "/data"}},
				})
			}
			return &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "apps/v1", "kind": "Deployment",
				"metadata": map[string]any{"name": "testmap", "namespace": "default", "resourceVersion": "812", "uid": "u-1"},
				"spec": map[string]any{
					"replicas": int64(1),
					"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
					"template": map[string]any{
						"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
						"spec":     map[string]any{"containers": containers},
					},
				},
			}}
		},
		mine: func(text string) string {
			return strings.Replace(text, "app03:1.0", "app03:2.0", 1)
		},
		theirs: func(obj *unstructured.Unstructured) {
			cs, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
			cs[7].(map[string]any)["image"] = "registry.example.com/app07:3.0"
			_ = unstructured.SetNestedSlice(obj.Object, cs, "spec", "template", "spec", "containers")
			_ = unstructured.SetNestedField(obj.Object, int64(3), "spec", "replicas")
		},
	},
}

// rebaseApp is the app just before s: the draft made, theirs written and
// seen by the watch.
func rebaseApp(b *testing.B, c rebaseCase) App { return rebaseAppTB(b, c) }

func rebaseAppTB(b testing.TB, c rebaseCase) App {
	b.Helper()
	base := c.base()
	r := &fakeRunner{server: base.DeepCopy()}
	r0 := ref
	if base.GetKind() != "ConfigMap" {
		r0.Kind, r0.Resource = base.GetKind(), schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	}
	sess := model.NewSession(r0)
	if _, _, err := sess.Handle(model.Opened{Object: base, At: t0}); err != nil {
		b.Fatal(err)
	}
	m := drive(b, New(Config{Object: &Object{Session: sess, Runner: r}}), tea.WindowSizeMsg{Width: 160, Height: 50})
	text, err := m.Session().DraftText()
	if err != nil {
		b.Fatal(err)
	}
	m = drive(b, m, effect.EditorFinished{Original: text, Text: c.mine(text)})
	theirs := r.object()
	c.theirs(theirs)
	rv, _ := strconv.Atoi(theirs.GetResourceVersion())
	theirs.SetResourceVersion(strconv.Itoa(rv + 3))
	r.mu.Lock()
	r.server = theirs
	r.mu.Unlock()
	m = drive(b, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: theirs.DeepCopy(), ResourceVersion: theirs.GetResourceVersion()}))
	if m.Session().Draft() == nil {
		b.Fatal("no draft")
	}
	return m
}

func BenchmarkRebase(b *testing.B) {
	for _, c := range rebaseCases {
		b.Run(c.name, func(b *testing.B) {
			d := make([]time.Duration, 0, b.N)
			for range b.N {
				b.StopTimer()
				m := rebaseApp(b, c)
				b.StartTimer()
				t0 := time.Now()
				m = drive(b, m, keyMsg("s"))
				view := m.View()
				d = append(d, time.Since(t0))
				if m.screen != screenConflict || !strings.Contains(view, "merged") {
					b.Fatalf("s did not draw the conflict view:\n%s", plain(m))
				}
			}
			b.StopTimer()
			benchkeys.ReportLatency(b, d)
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestRebaseCases is BenchmarkRebase's small version in make test: each
// case's s draws the conflict view with what the case merges.
func TestRebaseCases(t *testing.T) {
	for _, c := range rebaseCases {
		t.Run(c.name, func(t *testing.T) {
			m := drive(t, rebaseAppTB(t, c), keyMsg("s"))
			if m.screen != screenConflict {
				t.Fatalf("s did not open the conflict view:\n%s", plain(m))
			}
			want := map[string]string{"ConfigMap1MiB": "1 conflict, 18 changes merged", "Deployment20": "clean rebase: 3 changes merged"}[c.name]
			if !strings.Contains(plain(m), want) {
				t.Errorf("the conflict view does not say %q:\n%s", want, plain(m))
			}
		})
	}
}
