package demo

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
)

// WriterManager is the field manager the demo writer writes under, so
// that banners, the timeline and blame name it.
const WriterManager = "demo-writer"

// DefaultInterval is how often the demo writer writes unless told.
const DefaultInterval = 20 * time.Second

// Write reports one write of the demo writer.
type Write struct {
	// Path is the field written, e.g. `.data.foo`.
	Path string
	// Line is the 1-based line of a multi-line value that was changed; 0
	// for a whole field.
	Line int
	// Value is what was written: the field's value, or the line's text.
	Value string
	// ResourceVersion is the version the write made.
	ResourceVersion string
	// Err is why the write failed; the writer goes on with the next.
	Err error
	// Edit marks a report of the kubectl edit KubectlEdit plays, and
	// which step it is; 0 for the demo writer's own writes.
	Edit EditStep
	// Unchanged is set when the kubectl edit's write found the field
	// still as it had read it, or Reset found it as asked: it stored
	// nothing new.
	Unchanged bool
	// Race is the outcome of each racer of Race, in the order sent; nil
	// for any other report.
	Race []RaceEntry
	// Prepared is, for a race, the version demo-writer made setting the
	// field back to RaceFrom first; "" when it was so already.
	Prepared string
}

// Text says what was written, for the status line:
// `demo-writer set .data.foo = "7" (rv 1043)`.
func (w Write) Text() escape.Text {
	where := escape.Safe(w.Path)
	if w.Line > 0 {
		where += escape.Textf(" line %d", w.Line)
	}
	if w.Edit != 0 {
		return w.editText(where)
	}
	if w.Race != nil {
		return raceText(w.Path, w.Race, w.Prepared)
	}
	if w.Err != nil && w.Path == "" {
		// Nothing to set was found: the race's or the reset's field.
		return escape.Textf("%s: %s", WriterManager, w.Err)
	}
	if w.Err != nil {
		return escape.Textf("%s could not set %s: %s", WriterManager, where, w.Err)
	}
	if w.Unchanged {
		return escape.Textf("%s found %s = %q already (rv %s)", WriterManager, where, w.Value, w.ResourceVersion)
	}
	return escape.Textf("%s set %s = %q (rv %s)", WriterManager, where, w.Value, w.ResourceVersion)
}

// String is Text as a string.
func (w Write) String() string { return string(w.Text()) }

// Writer is the demo's second writer: another client, with field
// manager demo-writer, that changes the object every interval and at once
// on WriteNow. It alternates between the field the user most likely edits
// (testmap's foo; the worker_connections line of nginx-conf's nginx.conf)
// and another one (a bar key; the keepalive_timeout line), so that a save
// after each of its writes shows a real conflict and a clean rebase in
// turn.
type Writer struct {
	client   dynamic.Interface
	target   *kube.Target
	interval time.Duration

	now    chan struct{}
	edit   chan struct{}
	reset  chan struct{}
	race   chan struct{}
	writes chan Write
	// editor is the kubectl edit's client (WithEditor); nil: the demo
	// writer's own.
	editor dynamic.Interface
	// racer is the race's client (WithRacer); nil: the demo writer's own.
	racer dynamic.Interface

	mu      sync.Mutex
	started bool
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	// step counts the writes: even ones collide with the user, odd ones
	// do not. Under mu: NextWrites sets it from another goroutine.
	step int
	// keys are the plain data keys written, chosen at the first write.
	keys demoKeys
}

// demoKeys are the data keys the demo writer changes in a ConfigMap
// without a config file: mine, the one the user most likely edits (the
// first there was: testmap's foo), and other, one the user has no reason
// to touch (bar).
type demoKeys struct{ mine, other string }

// demoWritesBuffered bounds the reports waiting to be read; more are
// dropped (the writes themselves still happen) rather than ever stalling
// the writer on a UI that does not read them.
const demoWritesBuffered = 16

// NewWriter prepares a demo writer on t's object through dc, writing
// every interval (0: only on WriteNow). Nothing is written until Start.
func NewWriter(dc dynamic.Interface, t *kube.Target, interval time.Duration) *Writer {
	return &Writer{
		client:   dc,
		target:   t,
		interval: interval,
		now:      make(chan struct{}, 1),
		edit:     make(chan struct{}, 1),
		reset:    make(chan struct{}, 1),
		race:     make(chan struct{}, 1),
		writes:   make(chan Write, demoWritesBuffered),
	}
}

// Writes returns the reports of the writes, one per write, in order. It is
// closed once the writer has stopped.
func (w *Writer) Writes() <-chan Write { return w.writes }

// Start runs the writer until ctx ends or Stop is called.
func (w *Writer) Start(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started {
		return
	}
	w.started = true
	ctx, w.cancel = context.WithCancel(ctx)
	w.wg.Go(func() { w.run(ctx) })
}

// WriteNow asks for a write at once (the demo's `w`); the timer starts
// over after it. Asking again before it happened asks once.
func (w *Writer) WriteNow() {
	select {
	case w.now <- struct{}{}:
	default:
	}
}

// Reset asks for the field the user most likely edits (testmap's foo)
// to be set back to RaceFrom, the demo's first value, at once: the tour
// starts a step from there. Asking again before it happened asks once.
func (w *Writer) Reset() {
	select {
	case w.reset <- struct{}{}:
	default:
	}
}

// Race asks for the demo's race (the package's Race on that field) at
// once; its report carries each racer's outcome. Asking again before it
// happened asks once.
func (w *Writer) Race() {
	select {
	case w.race <- struct{}{}:
	default:
	}
}

// NextWrites chooses the field the next write changes: the one the user
// most likely edits (mine: a save then conflicts), or another one (a save
// then rebases cleanly). The writes after it alternate as before. The
// tour sets it as each step starts.
func (w *Writer) NextWrites(mine bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.step = 1
	if mine {
		w.step = 0
	}
}

// Stop ends the writer and returns once it has ended. It is safe to call
// more than once, and without Start.
func (w *Writer) Stop() {
	w.mu.Lock()
	cancel, started := w.cancel, w.started
	if !started {
		w.started = true
		close(w.writes)
	}
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	w.wg.Wait()
}

func (w *Writer) run(ctx context.Context) {
	defer close(w.writes)
	// The race's patches are kedit set's; the rest are the writer's own,
	// and the request log says so.
	raceCtx := ctx
	ctx = kube.WithRequester(ctx, WriterManager)
	var tick <-chan time.Time
	var timer *time.Timer
	if w.interval > 0 {
		timer = time.NewTimer(w.interval)
		defer timer.Stop()
		tick = timer.C
	}
	// The kubectl edit waiting to write back what it read, if any.
	var edit *staleEdit
	var editDue <-chan time.Time
	for {
		var report Write
		select {
		case <-ctx.Done():
			return
		case <-tick:
			report = w.write(ctx)
		case <-w.now:
			report = w.write(ctx)
		case <-w.reset:
			report = w.resetMine(ctx)
		case <-w.race:
			// The race answers "set foo to 2 only if foo is 1": foo is
			// set back to 1 first, by the writer, so that one racer wins
			// whatever the steps before it left.
			prepared := w.resetMine(ctx)
			report = w.runRace(raceCtx)
			if prepared.Err == nil && !prepared.Unchanged {
				report.Prepared = prepared.ResourceVersion
			}
		case <-w.edit:
			if edit != nil {
				report = Write{Path: edit.path(), Edit: EditBusy}
				break
			}
			edit, report = w.readForEdit(ctx)
			if edit != nil {
				editDue = time.After(EditWait)
			}
		case <-editDue:
			report = w.writeBack(ctx, edit)
			edit, editDue = nil, nil
		}
		if ctx.Err() != nil {
			return
		}
		select {
		case w.writes <- report:
		default: // nobody reads: drop the report, not the writes
		}
		if timer != nil && report.Edit == 0 && report.Race == nil {
			timer.Reset(w.interval)
		}
	}
}

// write makes the next change, reading the object afresh and retrying when
// someone else wrote in between: the writer is a client like any other.
func (w *Writer) write(ctx context.Context) Write {
	w.mu.Lock()
	step := w.step
	w.step++
	w.mu.Unlock()
	return w.update(ctx, func(obj *unstructured.Unstructured) (Write, bool, error) {
		return demoChange(obj, step, &w.keys), true, nil
	})
}

// update reads the object afresh, has change change it, and writes it,
// again when someone else wrote in between: the writer is a client like
// any other. change says what it wrote, and whether there is anything to
// write; the report has the resourceVersion written, or the error.
func (w *Writer) update(ctx context.Context, change func(obj *unstructured.Unstructured) (Write, bool, error)) Write {
	ri := w.target.Resource(w.client)
	var report Write
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := ri.Get(ctx, w.target.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		var write bool
		if report, write, err = change(obj); err != nil || !write {
			return err
		}
		updated, err := ri.Update(ctx, obj, metav1.UpdateOptions{FieldManager: WriterManager})
		if err != nil {
			return err
		}
		report.ResourceVersion = updated.GetResourceVersion()
		return nil
	})
	if err != nil {
		report.Err = kube.Classify(w.target, "update", err)
	}
	return report
}
