package demo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
)

// The demo's race (R): the class question "set foo to 2 only if foo is
// 1" answered by kedit set's conditional patch, sent RaceRacers times at
// once. The server applies each JSON Patch atomically, its test op
// included, so one wins and the others are refused.

// RaceRacers is how many conditional patches the race sends at once.
const RaceRacers = 10

// RaceFrom and RaceTo are the race's condition and value: each racer
// sends `kedit set /data/foo=RaceTo --if /data/foo=RaceFrom`.
const (
	RaceFrom = "1"
	RaceTo   = "2"
)

// RaceClient is a client for Race made from c (kedit's own REST config,
// its request log included) without client-go's client-side rate limit:
// with the limit (5 requests a second after a burst of 10, shared with
// every other request of the client) the last racers would wait their
// turn and be sent after the winner was stored, never in the race.
func RaceClient(c *rest.Config) (dynamic.Interface, error) {
	c = rest.CopyConfig(c)
	c.RateLimiter = flowcontrol.NewFakeAlwaysRateLimiter()
	return dynamic.NewForConfig(c)
}

// WithRacer gives the writer the race's client (RaceClient); without
// one, the race goes through the demo writer's. Call it before Start.
func (w *Writer) WithRacer(dc dynamic.Interface) *Writer {
	w.racer = dc
	return w
}

// RaceEntry is one racer's outcome: the status the server answered
// (0: no answer, Err says why) and, for a winner, the version it stored.
type RaceEntry struct {
	Status          int
	ResourceVersion string
	Err             error
}

// Won says whether the server took the racer's patch.
func (e RaceEntry) Won() bool { return e.Status == http.StatusOK }

// Race sends the conditional patch of `kedit set PATH=RaceTo --if
// PATH=RaceFrom` (PATH the data key key) racers times at once through
// dc, as kedit set does (field manager kedit), and returns each
// outcome with the status the server answered, in the order sent.
func Race(ctx context.Context, dc dynamic.Interface, t *kube.Target, key string, racers int) ([]RaceEntry, error) {
	path := "/data/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	set, err := kube.ParseAssignment(path + "=" + RaceTo)
	if err != nil {
		return nil, err
	}
	cond, err := kube.ParseCondition(path + "=" + RaceFrom)
	if err != nil {
		return nil, err
	}
	patch, err := kube.ConditionalPatch([]kube.Assignment{set}, []kube.Condition{cond})
	if err != nil {
		return nil, err
	}
	ri := t.Resource(dc)
	out := make([]RaceEntry, racers)
	// All start together, so that they race on the version they read.
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			<-start
			obj, err := ri.Patch(ctx, t.Name, types.JSONPatchType, patch, metav1.PatchOptions{FieldManager: kube.FieldManager})
			out[i] = raceEntry(obj, err)
		})
	}
	close(start)
	wg.Wait()
	return out, nil
}

// raceEntry is a racer's outcome as the server answered it: the status
// code it sent, never one inferred.
func raceEntry(obj *unstructured.Unstructured, err error) RaceEntry {
	if err == nil {
		return RaceEntry{Status: http.StatusOK, ResourceVersion: obj.GetResourceVersion()}
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Code != 0 {
		return RaceEntry{Status: int(status.Status().Code), Err: err}
	}
	return RaceEntry{Err: err}
}

// raceText says the race's outcome, for the status line: `10 × kedit set
// /data/foo=2 --if /data/foo=1: 1 won (200, rv 215); 9 refused (422
// Unprocessable Entity)`, after `demo-writer set .data.foo back to "1" (rv
// 214), then ` when the writer prepared it.
func raceText(path string, race []RaceEntry, prepared string) escape.Text {
	won, refused := 0, map[string]int{}
	var order []string
	var rv string
	for _, e := range race {
		if e.Won() {
			won++
			rv = e.ResourceVersion
			continue
		}
		s := "no answer"
		if e.Status != 0 {
			s = fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
		}
		if refused[s] == 0 {
			order = append(order, s)
		}
		refused[s]++
	}
	p := "/data/" + strings.TrimPrefix(path, ".data.")
	said := escape.Textf("%d × kedit set %s=%s --if %s=%s: %d won", len(race), p, RaceTo, p, RaceFrom, won)
	if prepared != "" {
		said = escape.Textf("%s set %s back to %q (rv %s), then ", WriterManager, escape.Safe(path), RaceFrom, escape.Safe(prepared)) + said
	}
	if won > 0 {
		said += escape.Textf(" (200, rv %s)", rv)
	}
	n := len(race) - won
	if n == 0 {
		return said
	}
	parts := make([]string, 0, len(order))
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%d × %s", refused[s], s))
	}
	return said + escape.Textf("; %s (%s): the test op found foo was no longer %q, nothing was written", words.Count(n, "refusal"), strings.Join(parts, ", "), RaceFrom)
}

// mineKey is the plain data key the user most likely edits (testmap's
// foo), chosen as the writer's writes choose it; "" when obj has none (a
// config file, or not a ConfigMap).
func (w *Writer) mineKey(obj *unstructured.Unstructured) string {
	data, _, _ := unstructured.NestedStringMap(obj.Object, "data")
	if obj.GetKind() != "ConfigMap" || len(data) == 0 {
		return ""
	}
	sorted := make([]string, 0, len(data))
	for k, v := range data {
		if _, _, ok := bumpSetting(v, "worker_connections"); ok {
			return ""
		}
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	w.keys.choose(sorted)
	return w.keys.mine
}

// errNoPlainKey: Reset and Race need a ConfigMap key with a plain value.
var errNoPlainKey = errors.New("the tour's reset and the race need a ConfigMap with a plain key, such as testmap's foo")

// resetMine sets the field the user most likely edits back to RaceFrom,
// reading the object afresh; when it is so already, nothing is written.
func (w *Writer) resetMine(ctx context.Context) Write {
	return w.update(ctx, func(obj *unstructured.Unstructured) (Write, bool, error) {
		key := w.mineKey(obj)
		if key == "" {
			return Write{}, false, errNoPlainKey
		}
		report := Write{Path: ".data." + key, Value: RaceFrom, ResourceVersion: obj.GetResourceVersion()}
		if v, _, _ := unstructured.NestedString(obj.Object, "data", key); v == RaceFrom {
			report.Unchanged = true
			return report, false, nil
		}
		return report, true, unstructured.SetNestedField(obj.Object, RaceFrom, "data", key)
	})
}

// runRace runs Race on the field the user most likely edits.
func (w *Writer) runRace(ctx context.Context) Write {
	obj, err := w.target.Resource(w.client).Get(ctx, w.target.Name, metav1.GetOptions{})
	if err != nil {
		return Write{Err: kube.Classify(w.target, "get", err)}
	}
	key := w.mineKey(obj)
	if key == "" {
		return Write{Err: errNoPlainKey}
	}
	report := Write{Path: ".data." + key}
	racer := w.racer
	if racer == nil {
		racer = w.client
	}
	if report.Race, err = Race(ctx, racer, w.target, key, RaceRacers); err != nil {
		return Write{Path: report.Path, Err: err}
	}
	for _, e := range report.Race {
		if e.Won() {
			report.ResourceVersion = e.ResourceVersion
		}
	}
	return report
}
