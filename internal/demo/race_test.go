package demo

import (
	"context"
	"net/http"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestRaceHasOneWinner answers the class question on a real API server:
// ten `kedit set /data/foo=2 --if /data/foo=1` at once, foo set back to 1
// first by the race itself (and by Reset, as the tour does). One is taken (200), the nine others are refused with the
// status the server sent (a failed JSON Patch test: 422), and foo is 2.
// Through kedit's own request log, the writer's requests are marked as
// demo-writer's and the race's, which are kedit set's, are not.
func TestRaceHasOneWinner(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	log := kube.NewRequestLog(nil)
	dc, err := dynamic.NewForConfig(kube.LogRequests(kubetest.RESTConfig(t), log))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := CreateObjects(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}
	target := configMapTarget("", ns, "testmap")
	w := NewWriter(dc, target, 0)
	w.Start(ctx)
	defer w.Stop()

	w.Reset()
	if r := nextWrite(t, w); !r.Unchanged || r.Path != ".data.foo" {
		t.Errorf("reset of a fresh demo: %+v, want foo found as it is", r)
	}
	w.NextWrites(true)
	w.WriteNow()
	if r := nextWrite(t, w); r.Path != ".data.foo" || r.Value != "2" {
		t.Fatalf("write: %+v", r)
	}
	w.Reset()
	if r := nextWrite(t, w); r.Unchanged || r.Value != RaceFrom || r.String() != `demo-writer set .data.foo = "1" (rv `+r.ResourceVersion+`)` {
		t.Errorf("reset: %+v (%s)", r, r)
	}

	// foo is no longer 1: the race sets it back first.
	w.NextWrites(true)
	w.WriteNow()
	if r := nextWrite(t, w); r.Path != ".data.foo" || r.Value == RaceFrom {
		t.Fatalf("write: %+v", r)
	}
	w.Race()
	r := nextWrite(t, w)
	if r.Prepared == "" {
		t.Errorf("the race did not set foo back to 1 first: %+v", r)
	}
	won, refused := 0, 0
	for _, e := range r.Race {
		switch {
		case e.Won():
			won++
		case e.Status == http.StatusUnprocessableEntity:
			refused++
		default:
			t.Errorf("a racer: status %d, %v", e.Status, e.Err)
		}
	}
	if len(r.Race) != RaceRacers || won != 1 || refused != RaceRacers-1 {
		t.Fatalf("race: %d racers, %d won, %d refused with 422: %+v", len(r.Race), won, refused, r.Race)
	}
	want := `demo-writer set .data.foo back to "1" (rv ` + r.Prepared + `), then 10 × kedit set /data/foo=2 --if /data/foo=1: 1 won (200, rv ` + r.ResourceVersion + `); 9 refusals (9 × 422 Unprocessable Entity)`
	if !strings.HasPrefix(r.String(), want) {
		t.Errorf("race said %q, want it to start %q", r, want)
	}
	obj, err := target.Resource(dc).Get(ctx, "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if foo, _, _ := unstructured.NestedString(obj.Object, "data", "foo"); foo != RaceTo || obj.GetResourceVersion() != r.ResourceVersion {
		t.Errorf("foo = %q at rv %s, want %q at the winner's rv %s", foo, obj.GetResourceVersion(), RaceTo, r.ResourceVersion)
	}

	var puts, patches, patch422 int
	for _, row := range log.Rows() {
		switch row.Method {
		case http.MethodGet, http.MethodPut:
			if strings.Contains(row.Path, "/configmaps/testmap") && row.By != WriterManager && row.Method == http.MethodPut {
				t.Errorf("the writer's %s %s is not marked: by %q", row.Method, row.Path, row.By)
			}
			if row.Method == http.MethodPut {
				puts++
			}
		case http.MethodPatch:
			patches++
			if row.By != "" {
				t.Errorf("a race's PATCH is marked by %q: it is kedit set's", row.By)
			}
			if row.Status == http.StatusUnprocessableEntity {
				patch422++
			}
			if !strings.Contains(row.Line(), "PATCH") || strings.Contains(row.Line(), " by ") {
				t.Errorf("the race's line: %s", row.Line())
			}
		}
	}
	if puts != 4 || patches != RaceRacers || patch422 != RaceRacers-1 {
		t.Errorf("the log: %d PUTs, %d PATCHes, %d of them 422; want 4 (two writes, the reset, the race's), 10, 9", puts, patches, patch422)
	}
	for _, row := range log.Rows() {
		if row.Method == http.MethodPut && !strings.HasSuffix(row.Line(), " by demo-writer") {
			t.Errorf("--debug's line of the writer's PUT: %s", row.Line())
		}
	}
}

// TestRaceNeedsAPlainKey: on a config file (nginx-conf) the race and the
// reset find no field to race on, and say so; a plain key is chosen as
// the writer's writes choose it.
func TestRaceNeedsAPlainKey(t *testing.T) {
	w := NewWriter(nil, configMapTarget("", "default", "nginx-conf"), 0)
	conf := configMap(map[string]any{"nginx.conf": "events {\n  worker_connections 1024;\n}\n"})
	if k := w.mineKey(conf); k != "" {
		t.Errorf("a config file's key: %q", k)
	}
	if got := (Write{Err: errNoPlainKey}).String(); got != "demo-writer: "+errNoPlainKey.Error() {
		t.Errorf("said %q", got)
	}
	if k := w.mineKey(configMap(map[string]any{"bar": "1", "foo": "1"})); k != "foo" {
		t.Errorf("testmap's key: %q, want foo", k)
	}
}

// TestRaceSendsAllTenAtOnce: through kedit's client as the demo makes it
// (client-go's default rate limit of 5 requests a second after a burst of
// 10, partly spent by the writes before), the race's client still sends
// its ten patches at once: by the request log's times, every one of them
// left before the server answered the first.
func TestRaceSendsAllTenAtOnce(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	log := kube.NewRequestLog(nil)
	cfg := kube.LogRequests(kubetest.RESTConfig(t), log)
	cfg.QPS, cfg.Burst = 0, 0 // client-go's defaults, as kedit's client has them
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := CreateObjects(ctx, dc, ns); err != nil {
		t.Fatal(err)
	}
	racer, err := RaceClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(dc, configMapTarget("", ns, "testmap"), 0).WithRacer(racer)
	w.Start(ctx)
	defer w.Stop()
	for range 3 {
		w.WriteNow()
		nextWrite(t, w)
	}
	w.Race()
	if r := nextWrite(t, w); len(r.Race) != RaceRacers {
		t.Fatalf("race: %+v", r)
	}
	var patches []kube.RequestRow
	for _, row := range log.Rows() {
		if row.Method == http.MethodPatch {
			patches = append(patches, row)
		}
	}
	if len(patches) != RaceRacers {
		t.Fatalf("%d PATCHes in the log, want %d", len(patches), RaceRacers)
	}
	first := patches[0].Time.Add(patches[0].Latency)
	for _, p := range patches {
		if a := p.Time.Add(p.Latency); a.Before(first) {
			first = a
		}
	}
	for _, p := range patches {
		if !p.Time.Before(first) {
			t.Errorf("a PATCH sent at %s, %s after the first answer came (at %s): not in the race",
				p.Time.Format("15:04:05.000"), p.Time.Sub(first), first.Format("15:04:05.000"))
		}
	}
}
