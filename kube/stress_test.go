package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// The race: sessions editing one ConfigMap at once through
// exactly the engine the UI runs (model.Session, Runner, Watch: open, edit,
// save, rebase, resolve, resubmit), with kubectl patch as one more writer.
// `make test` runs 2 sessions of 20 edits; `make stress` runs 16 of 50:
//
//	KEDIT_STRESS_SESSIONS=16 KEDIT_STRESS_EDITS=50 go test -run TestStress -v ./kube
//
// KEDIT_STRESS_REPORT=FILE writes the figures as JSON.

// stressShared is the key every writer writes: the contended one.
const stressShared = "shared"

// stressFigures is what a run counts.
type stressFigures struct {
	Sessions, EditsPerSession int
	// Edits is every edit the sessions made; each adds a key of its own.
	Edits int
	// Attempts counts the saves sent (first saves and resubmits).
	Attempts int
	// Conflicts counts the saves the server refused with 409.
	Conflicts int
	// AutomaticRebases counts the clean rebases resubmitted without a
	// resolution (nothing collided).
	AutomaticRebases int
	// Resolutions counts the explicit resolutions of the shared key's
	// conflicts, each recorded.
	Resolutions int
	// ReplacedAfterResolution counts the writes that replaced a value the
	// writer had not seen, each after an explicit resolution to mine.
	ReplacedAfterResolution int
	// LostUpdates counts the edits missing at the end plus the silent
	// overwrites: must be 0.
	LostUpdates int
	// SilentOverwrites counts kedit writes that replaced a value they had
	// not seen without a resolution: must be 0.
	SilentOverwrites int
	// KubectlWrites counts kubectl's blind patches (no resourceVersion).
	KubectlWrites int
	// Versions counts the versions the recording watch saw.
	Versions int
	Seconds  float64
}

// stressResolution is one explicit resolution a session made.
type stressResolution struct {
	theirsRV, theirs, mine string
	choice                 diff.Choice
}

// stressWrite is one write a session's save made: conditioned on condRV,
// it stored resultRV. editBase is the shared key's value in the version
// the user's edit was made from; resolutions are those made on the way.
type stressWrite struct {
	condRV, resultRV string
	editBase         string
	resolutions      []stressResolution
}

// stressVersion is one version the recording watch saw.
type stressVersion struct {
	rv   string
	data map[string]string
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestStressConcurrentSessions checks two properties after every run:
//
//   - disjoint keys: every edit (each adds a key of its session's own) is
//     on the server at the end, and no version drops a key a version
//     before it held;
//   - same key: every kedit write that changed the shared key from a value
//     the writer had not seen (not the value of the version its edit was
//     made from) carries a recorded explicit resolution taking mine over
//     exactly that value. Zero silent overwrites, counted by walking the
//     sequence of versions (every one, recorded through a watch) against
//     each session's log of its writes.
//
// kubectl's patches carry no resourceVersion: they may overwrite blindly,
// which is what kedit exists to avoid; they are counted, not checked.
func TestStressConcurrentSessions(t *testing.T) {
	t.Parallel()
	figs, problems := runStress(t, envInt("KEDIT_STRESS_SESSIONS", 2), envInt("KEDIT_STRESS_EDITS", 20), false)
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("stress: %d sessions x %d edits = %d edits, plus kubectl patch: %d attempts, %d conflicts, %d automatic rebases, %d resolutions (%d replacing a value the writer had not seen), %d lost updates, %d silent overwrites; %d kubectl writes, %d versions, %.1fs",
		figs.Sessions, figs.EditsPerSession, figs.Edits, figs.Attempts, figs.Conflicts, figs.AutomaticRebases, figs.Resolutions,
		figs.ReplacedAfterResolution, figs.LostUpdates, figs.SilentOverwrites, figs.KubectlWrites, figs.Versions, figs.Seconds)
	if path := os.Getenv("KEDIT_STRESS_REPORT"); path != "" {
		b, _ := json.MarshalIndent(figs, "", "  ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestStressCheckCatchesBlindWrites shows that the walk finds lost updates
// when there are some: the same race with saves sent without their
// resourceVersion, as kubectl edit's patches are, must fail it.
func TestStressCheckCatchesBlindWrites(t *testing.T) {
	t.Parallel()
	figs, problems := runStress(t, 2, 10, true)
	if figs.LostUpdates == 0 || len(problems) == 0 {
		t.Fatalf("blind writes raced and the check found nothing: %+v", figs)
	}
	t.Logf("blind writes: %d lost updates, %d silent overwrites found; first: %s", figs.LostUpdates, figs.SilentOverwrites, problems[0])
}

// runStress runs the race: sessions, each making edits, and kubectl, on one
// ConfigMap; blind sends every save without its resourceVersion.
func runStress(t *testing.T, sessions, edits int, blind bool) (stressFigures, []string) {
	t.Helper()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "stress", "--from-literal="+stressShared+"=initial")
	c := sharedCluster(t)
	target := resolveForTest(t, c.kubeconfig, ns, "configmap", "stress")
	started := time.Now()

	// The recorder: a watch of its own that keeps every version.
	rec := NewWatch(c.dynamic(t), target)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := rec.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var recMu sync.Mutex
	var versions []stressVersion
	recDone := make(chan struct{})
	go func() {
		defer close(recDone)
		for ev := range rec.Events() {
			if !ev.Type.IsObject() || ev.Type == ObjectDeleted {
				continue
			}
			data, _, _ := unstructured.NestedStringMap(ev.Object.Object, "data")
			recMu.Lock()
			versions = append(versions, stressVersion{rv: ev.ResourceVersion, data: data})
			recMu.Unlock()
		}
	}()

	// The seventeenth writer.
	var kubectlWrites int
	stopKubectl := make(chan struct{})
	kubectlDone := make(chan struct{})
	go func() {
		defer close(kubectlDone)
		for i := 0; ; i++ {
			select {
			case <-stopKubectl:
				return
			default:
			}
			patch := fmt.Sprintf(`{"data":{"kubectl-%d":"%d",%q:"kubectl-%d"}}`, i, i, stressShared, i)
			if _, err := kubetest.Kubectl(t, "-n", ns, "patch", "configmap", "stress", "--type=merge", "-p", patch); err == nil {
				kubectlWrites++
			}
			// A breath between patches: kubectl's start-up is most of
			// the machine's work otherwise.
			select {
			case <-stopKubectl:
				return
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()

	figs := stressFigures{Sessions: sessions, EditsPerSession: edits}
	logs := make([][]stressWrite, sessions)
	errs := make([]error, sessions)
	var figMu sync.Mutex
	var wg sync.WaitGroup
	// Each session's random choices come from a seed of its own; the
	// interleaving of the sessions is the machine's.
	base := testseed.Fixed(t, 0)
	for i := range sessions {
		d := newStressDriver(t, c, target, i, base+uint64(i))
		d.blind = blind
		wg.Go(func() {
			errs[i] = d.run(ctx, edits)
			logs[i] = d.writes
			figMu.Lock()
			figs.Attempts += d.attempts
			figs.Conflicts += d.conflicts
			figs.AutomaticRebases += d.autoRebases
			figs.Resolutions += d.resolutions
			figMu.Unlock()
		})
	}
	wg.Wait()
	close(stopKubectl)
	<-kubectlDone
	figs.KubectlWrites = kubectlWrites

	// Every version up to the last is recorded before checking.
	final := readBase(t, target)
	last := ""
	if !testwait.Until(watchTimeout, func() bool {
		recMu.Lock()
		defer recMu.Unlock()
		if n := len(versions); n > 0 {
			last = versions[n-1].rv
		}
		return last == final.GetResourceVersion()
	}) {
		t.Fatalf("the recorder saw up to rv %s, the object is at %s", last, final.GetResourceVersion())
	}
	rec.Stop()
	<-recDone
	figs.Edits = sessions * edits
	figs.Versions = len(versions)
	figs.Seconds = time.Since(started).Seconds()

	finalData, _, _ := unstructured.NestedStringMap(final.Object, "data")
	problems := checkStress(&figs, versions, logs, finalData, sessions, edits)
	for i, err := range errs {
		if err != nil {
			problems = append(problems, fmt.Sprintf("session %d: %v", i, err))
		}
	}
	return figs, problems
}

// checkStress walks the recorded versions against the sessions' logs and
// returns every breach of the two properties; it fills figs' counts.
func checkStress(figs *stressFigures, versions []stressVersion, logs [][]stressWrite, final map[string]string, sessions, edits int) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	// Disjoint keys: every edit is there at the end.
	for i := range sessions {
		for j := range edits {
			k := ownKey(i, j)
			if final[k] != strconv.Itoa(j) {
				figs.LostUpdates++
				fail("edit %s is lost: %q at the end", k, final[k])
			}
		}
	}
	// The versions, in order.
	index := map[string]int{}
	for k, v := range versions {
		if k > 0 && !model.NewerResourceVersion(v.rv, versions[k-1].rv) {
			fail("versions out of order: %s after %s", v.rv, versions[k-1].rv)
		}
		index[v.rv] = k
	}
	// No version drops a session's key an earlier one held.
	seen := map[string]bool{}
	for _, v := range versions {
		for k := range seen {
			if _, ok := v.data[k]; !ok {
				fail("rv %s drops %s", v.rv, k)
				delete(seen, k)
			}
		}
		for k := range v.data {
			if strings.HasPrefix(k, "s") && strings.Contains(k, "-e") {
				seen[k] = true
			}
		}
	}
	// Same key: each kedit write against the version before it.
	for i, log := range logs {
		for _, w := range log {
			k, ok := index[w.resultRV]
			if !ok {
				fail("session %d wrote rv %s, which the recorder never saw", i, w.resultRV)
				continue
			}
			if k == 0 || versions[k-1].rv != w.condRV {
				// The server takes a write only at the version it is
				// conditioned on, so the version before must be that one:
				// else the write was not conditional, or the recorder
				// missed versions and the walk would prove nothing.
				figs.SilentOverwrites++
				fail("session %d's write of rv %s was conditioned on rv %s, but the version before it is %v", i, w.resultRV, w.condRV, versions[max(k-1, 0)].rv)
				continue
			}
			before, after := versions[k-1].data[stressShared], versions[k].data[stressShared]
			if before == after || before == w.editBase {
				continue // unchanged, or replacing what the edit was made from
			}
			// Values are unique to one writer's one edit, so a resolution
			// that took mine over this value, in this rebase or an earlier
			// round of it, decided exactly this replacement.
			resolved := false
			for _, r := range w.resolutions {
				if r.theirs == before && r.choice == diff.TakeMine {
					resolved = true
				}
			}
			if resolved {
				figs.ReplacedAfterResolution++
				continue
			}
			figs.SilentOverwrites++
			fail("session %d's write rv %s replaced %s=%q, which its edit (made from %q) never saw, without a resolution: %+v",
				i, w.resultRV, stressShared, before, w.editBase, w.resolutions)
		}
	}
	figs.LostUpdates += figs.SilentOverwrites
	return problems
}

func ownKey(session, edit int) string { return fmt.Sprintf("s%d-e%d", session, edit) }

// stressDriver is one session of the race: what a user at one kedit does,
// through the same session, runner and watch.
type stressDriver struct {
	id      int
	rng     *rand.Rand
	session *model.Session
	runner  *Runner
	watch   *Watch
	writes  []stressWrite

	attempts, conflicts, autoRebases, resolutions int
	// blind sends saves without their resourceVersion, as a patch of
	// kubectl edit does: only for the test of the check itself.
	blind bool

	// pending is the write being made: the user's edit and the
	// resolutions on its way.
	pending stressWrite
}

func newStressDriver(t *testing.T, c testCluster, target *Target, id int, seed uint64) *stressDriver {
	t.Helper()
	w, err := NewWatchForConfig(c.cfg, target)
	if err != nil {
		t.Fatal(err)
	}
	return &stressDriver{id: id, rng: rand.New(rand.NewPCG(seed, 12)), watch: w, session: model.NewSession(target.Ref()),
		runner: &Runner{Client: c.dynamic(t), Target: target, Strategy: StrategyUpdate, Cached: w.Latest}}
}

func (d *stressDriver) run(ctx context.Context, edits int) error {
	if err := d.watch.Start(ctx); err != nil {
		return err
	}
	defer d.watch.Stop()
	// Open on the first event, as the app does.
	for d.session.Base().Object == nil {
		select {
		case ev := <-d.watch.Events():
			d.live(ev)
		case <-time.After(watchTimeout):
			return fmt.Errorf("no first event")
		}
	}
	for j := range edits {
		if err := d.edit(j); err != nil {
			return fmt.Errorf("edit %d: %w", j, err)
		}
	}
	return nil
}

// live hands a watch event to the session.
func (d *stressDriver) live(ev WatchEvent) {
	if !ev.Type.IsObject() {
		return
	}
	lt := map[WatchEventType]model.LiveType{ObjectAdded: model.LiveAdded, ObjectModified: model.LiveModified, ObjectDeleted: model.LiveDeleted}[ev.Type]
	_ = d.handle(model.LiveChanged{Type: lt, Object: ev.Object, At: time.Now()})
}

// drain hands the session what the watch has delivered so far.
func (d *stressDriver) drain() {
	for {
		select {
		case ev := <-d.watch.Events():
			d.live(ev)
		default:
			return
		}
	}
}

// edit makes edit j: a key of the session's own, and one time in three the
// shared key; then saves it through whatever the server answers.
func (d *stressDriver) edit(j int) error {
	d.drain()
	base := d.session.Base().Object
	obj := base.DeepCopy()
	if err := unstructured.SetNestedField(obj.Object, strconv.Itoa(j), "data", ownKey(d.id, j)); err != nil {
		return err
	}
	d.pending = stressWrite{editBase: dataValue(base, stressShared)}
	if d.rng.IntN(3) == 0 {
		_ = unstructured.SetNestedField(obj.Object, fmt.Sprintf("s%d-%d", d.id, j), "data", stressShared)
	}
	text, err := model.RenderYAML(obj)
	if err != nil {
		return err
	}
	if err := d.handle(model.DraftEdited{Text: text}); err != nil {
		return err
	}
	if err := d.handle(model.SaveRequested{}); err != nil {
		return err
	}
	for round := 0; ; round++ {
		if round > 1000 {
			return fmt.Errorf("no save after %d rounds", round)
		}
		switch st := d.session.State(); st {
		case model.StateSaved, model.StateViewing:
			return nil
		case model.StateRebasing:
			d.autoRebases++
			if err := d.handle(model.Resubmit{}); err != nil {
				return err
			}
		case model.StateResolving:
			rb := d.session.Rebase()
			for i, c := range d.session.Conflicts() {
				if d.session.Resolutions()[i].Choice != diff.Unresolved {
					continue
				}
				choice := diff.TakeMine
				if d.rng.IntN(2) == 0 {
					choice = diff.TakeTheirs
				}
				if err := d.handle(model.Resolve{Index: i, Resolution: diff.Resolution{Choice: choice}}); err != nil {
					return err
				}
				d.resolutions++
				d.pending.resolutions = append(d.pending.resolutions, stressResolution{theirsRV: rb.Theirs.ResourceVersion,
					theirs: fmt.Sprint(c.Theirs.Value), mine: fmt.Sprint(c.Mine.Value), choice: choice})
			}
			if err := d.handle(model.Resubmit{}); err != nil {
				return err
			}
		case model.StateFailed:
			f := d.session.Failure()
			if !f.Kind.Retryable() {
				return fmt.Errorf("save failed: %w", f.Err)
			}
			time.Sleep(100 * time.Millisecond) // the retry's timer, shortened
			if err := d.handle(model.SaveRequested{}); err != nil {
				return err
			}
		default:
			return fmt.Errorf("stuck in %s", st)
		}
	}
}

// handle gives the session an event and performs its effects in order,
// feeding their outcomes back, counting saves and conflicts and logging
// each write the server took.
func (d *stressDriver) handle(ev model.Event) error {
	queue := []model.Event{ev}
	var first error
	for len(queue) > 0 {
		ev, queue = queue[0], queue[1:]
		_, effects, err := d.session.Handle(ev)
		if err != nil && first == nil {
			first = err
		}
		for _, eff := range effects {
			next, err := d.perform(eff)
			if err != nil {
				return fmt.Errorf("performing %T: %w", eff, err)
			}
			if save, ok := eff.(model.Save); ok {
				d.attempts++
				switch o := next.(type) {
				case model.Saved:
					w := d.pending
					w.condRV, w.resultRV = save.ResourceVersion, o.Object.GetResourceVersion()
					d.writes = append(d.writes, w)
				case model.SaveFailed:
					if model.KindOf(o.Err) == model.ErrorConflict {
						d.conflicts++
					}
				}
			}
			if next != nil {
				queue = append(queue, next)
			}
		}
	}
	return first
}

// perform carries out an effect with the runner, or, for a blind driver's
// save, with an update that carries no resourceVersion.
func (d *stressDriver) perform(eff model.Effect) (model.Event, error) {
	save, ok := eff.(model.Save)
	if !ok || !d.blind {
		return d.runner.Perform(context.Background(), eff)
	}
	obj := save.Object.DeepCopy()
	obj.SetResourceVersion("")
	out, err := d.runner.Target.Resource(d.runner.Client).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: FieldManager})
	if err != nil {
		return model.SaveFailed{Err: classify(d.runner.Target, "update", err)}, nil
	}
	return model.Saved{Object: out, At: time.Now()}, nil
}

func dataValue(obj *unstructured.Unstructured, key string) string {
	v, _, _ := unstructured.NestedString(obj.Object, "data", key)
	return v
}
