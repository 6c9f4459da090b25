package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/internal/testseed"
)

func TestTimelineDeletesAndRecreations(t *testing.T) {
	var tl Timeline
	v1 := cm("1", "foo", "1")
	v2 := withManaged(cm("2", "foo", "2"), mf{"kubectl-patch", "Update", 5, `{"f:data":{"f:foo":{}}}`})
	gone := cm("3", "foo", "2") // the delete event's last state
	again := withManaged(cm("4", "foo", "1", "bar", "x"), mf{"kubectl-create", "Update", 9, `{"f:data":{".":{},"f:foo":{},"f:bar":{}}}`})
	again.SetUID(types.UID("5678"))
	tl.Observe(v1, at(0), false)
	tl.Observe(v2, at(5), false)
	tl.Observe(gone, at(7), true)
	tl.Observe(again, at(9), false)

	es := tl.Entries()
	got := summarize(es)
	want := []entrySummary{
		{RV: "1"},
		{RV: "2", Manager: "kubectl-patch", Paths: []string{"modified .data.foo"}},
		{RV: "3", Deleted: true},
		{RV: "4", Manager: "kubectl-create", Paths: []string{"added .data.bar", "modified .data.foo"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline:\n got %+v\nwant %+v", got, want)
	}
	for i, e := range es {
		if e.Recreated != (i == 3) {
			t.Errorf("entry %d (rv %s): Recreated = %v", i, e.ResourceVersion, e.Recreated)
		}
	}
	for i, obj := range []*unstructured.Unstructured{v1, v2, gone, again} {
		rebuilt, ok := tl.Object(es[i].ID)
		if !ok || !reflect.DeepEqual(rebuilt.Object, obj.Object) {
			t.Errorf("entry %d rebuilt as\n%v\nwant\n%v", i, rebuilt, obj.Object)
		}
	}
	// A delete observed twice, or the same version again, is one entry.
	if tl.Observe(gone, at(10), true) || tl.Observe(v2, at(11), false) {
		t.Error("Observe took a repeat as new")
	}
}

func TestTimelineRecreatedWithoutDeleteEvent(t *testing.T) {
	// The watch was down during the delete: the relist brings the new
	// object, and only its uid says it is not the same one.
	var tl Timeline
	tl.Observe(cm("1", "foo", "1"), at(0), false)
	again := cm("9", "foo", "1")
	again.SetUID(types.UID("other"))
	tl.Observe(again, at(1), false)
	if es := tl.Entries(); !es[1].Recreated {
		t.Errorf("a new uid is not marked as a re-creation: %+v", es[1])
	}
}

func TestSessionTimelineObjectAndDiff(t *testing.T) {
	v1 := cm("1", "foo", "1", "bar", "1")
	v2 := withManaged(cm("2", "foo", "1", "bar", "2"), mf{"kubectl-patch", "Update", 10, `{"f:data":{"f:bar":{}}}`})
	v3 := cm("3", "foo", "3", "bar", "2")
	s := opened(t, cmRef, v1)
	must(t, s, LiveChanged{Type: LiveModified, Object: v2, At: at(10)})
	must(t, s, LiveChanged{Type: LiveModified, Object: v3, At: at(20)})
	es := s.Timeline()

	obj, err := s.TimelineObject(es[1].ID)
	if err != nil || !reflect.DeepEqual(obj.Object, v2.Object) {
		t.Fatalf("TimelineObject = %v, %v; want v2", obj, err)
	}
	// The object is the caller's.
	obj.Object["data"].(map[string]any)["bar"] = "changed"
	if again, _ := s.TimelineObject(es[1].ID); !reflect.DeepEqual(again.Object, v2.Object) {
		t.Fatal("changing a returned object changed the timeline")
	}

	ch, err := s.TimelineDiff(es[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Entry.ResourceVersion != "2" || ch.Before.GetResourceVersion() != "1" || ch.After.GetResourceVersion() != "2" {
		t.Fatalf("TimelineDiff: entry %s, before %s, after %s", ch.Entry.ResourceVersion, ch.Before.GetResourceVersion(), ch.After.GetResourceVersion())
	}
	var removed, added []string
	for _, e := range ch.Edits {
		switch e.Op.String() {
		case "delete":
			removed = append(removed, e.Lines...)
		case "insert":
			added = append(added, e.Lines...)
		}
	}
	if strings.Contains(ch.AfterText, "managedFields") || !reflect.DeepEqual(removed, []string{"  bar: \"1\"\n", "  resourceVersion: \"1\"\n"}) ||
		!reflect.DeepEqual(added, []string{"  bar: \"2\"\n", "  resourceVersion: \"2\"\n"}) {
		t.Errorf("diff removed %q, added %q", removed, added)
	}
	if first, err := s.TimelineDiff(es[0].ID); err != nil || first.Before != nil || first.BeforeText != "" {
		t.Errorf("the first entry has something before it: %+v, %v", first.Before, err)
	}

	// y: version 2 as the draft, with base's server-maintained fields, so
	// the save goes through as a normal conditional save.
	text, err := s.TimelineDraftText(es[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	effects := must(t, s, DraftEdited{Text: text})
	wantState(t, s, StateEditing)
	if d := s.Draft(); d.Object.GetResourceVersion() != "3" || d.Object.GetUID() != "1234" {
		t.Errorf("restored draft rv %q uid %q, want base's", d.Object.GetResourceVersion(), d.Object.GetUID())
	}
	if foo, _ := dataOf(s.Draft().Object, "foo"); foo != "1" {
		t.Errorf("restored draft foo = %q, want version 2's 1", foo)
	}
	if _, ok := effects[0].(WriteDraft); !ok {
		t.Errorf("effects %s", describe(effects))
	}
	save := saveOf(t, must(t, s, SaveRequested{}))
	if save.ResourceVersion != "3" {
		t.Errorf("the restored version is saved against rv %s, want base's 3", save.ResourceVersion)
	}

	var missing *TimelineEntryError
	if _, err := s.TimelineObject(999); err == nil || !asError(err, &missing) {
		t.Errorf("TimelineObject(999) = %v, want a *TimelineEntryError", err)
	}
}

func asError(err error, target **TimelineEntryError) bool {
	e, ok := err.(*TimelineEntryError)
	*target = e
	return ok
}

// randomValue is a random JSON value of unstructured's types, nested up to
// depth.
func randomValue(r *rand.Rand, depth int) any {
	n := r.IntN(9)
	if depth <= 0 {
		n = r.IntN(5)
	}
	switch n {
	case 0:
		return strconv.Itoa(r.IntN(5))
	case 1:
		return int64(r.IntN(3))
	case 2:
		return float64(r.IntN(3)) / 2
	case 3:
		return r.IntN(2) == 0
	case 4:
		if r.IntN(4) == 0 {
			return nil
		}
		return bigText(r, 40+r.IntN(60))
	case 5, 6:
		m := map[string]any{}
		for range r.IntN(4) {
			m[fmt.Sprint("k", r.IntN(5))] = randomValue(r, depth-1)
		}
		return m
	default:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth-1)
		}
		return l
	}
}

// bigText is a config file of n lines.
func bigText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d: setting_%d = %d;\n", i, r.IntN(8), r.IntN(4))
	}
	return b.String()
}

// mutate changes v a little: a value replaced, a key added or removed, a
// line of a text changed, a list grown or shrunk.
func mutate(r *rand.Rand, v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 || r.IntN(5) == 0 {
			x[fmt.Sprint("k", r.IntN(6))] = randomValue(r, depth-1)
			return x
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		k := keys[r.IntN(len(keys))]
		if r.IntN(6) == 0 {
			delete(x, k)
			return x
		}
		x[k] = mutate(r, x[k], depth-1)
		return x
	case []any:
		switch {
		case len(x) > 0 && r.IntN(3) > 0:
			i := r.IntN(len(x))
			x[i] = mutate(r, x[i], depth-1)
			return x
		case r.IntN(2) == 0 && len(x) > 0:
			return x[:len(x)-1]
		default:
			return append(x, randomValue(r, depth-1))
		}
	case string:
		if strings.Count(x, "\n") > 10 {
			lines := strings.SplitAfter(x, "\n")
			for range 1 + r.IntN(3) {
				i := r.IntN(len(lines))
				switch r.IntN(3) {
				case 0:
					lines[i] = fmt.Sprintf("changed %d\n", r.IntN(100))
				case 1:
					lines = append(lines[:i], lines[i+1:]...)
				default:
					lines = append(lines[:i], append([]string{"inserted\n"}, lines[i:]...)...)
				}
			}
			return strings.Join(lines, "")
		}
	}
	return randomValue(r, depth)
}

// randomObject is a ConfigMap-shaped object with random data.
func randomObject(r *rand.Rand) map[string]any {
	data := map[string]any{"config": bigText(r, 60)}
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": "testmap", "namespace": "ns", "uid": "u0", "labels": map[string]any{"a": "1"}},
		"data":       data,
		"spec":       randomValue(r, 3),
	}
}

// TestTimelineRebuildsEveryVersion observes random sequences of versions
// (changes at any depth, multi-line texts edited line by line, lists that
// grow and shrink, deletions, re-creations, versions arriving out of order,
// and a byte bound small enough to drop entries) and checks after every
// step that each entry's rebuilt object is the version observed, that the
// byte count is the sum of its parts, and that nothing was lost but what
// was counted as dropped.
func TestTimelineRebuildsEveryVersion(t *testing.T) {
	walks, steps := 200, 30
	if testing.Short() {
		walks = 40
	}
	base := testseed.Fixed(t, 0)
	for w := range walks {
		r := rand.New(rand.NewPCG(base+uint64(w), 7))
		var tl Timeline
		if w%3 == 0 {
			tl.limit = 12 << 10
		}
		type version struct {
			obj     map[string]any
			deleted bool
		}
		seen := map[string]version{} // by rv and deleted
		key := func(rv string, deleted bool) string { return rv + "/" + strconv.FormatBool(deleted) }
		cur := randomObject(r)
		rv, uid := 0, 0
		var held *unstructured.Unstructured // a version kept back to arrive late
		observe := func(obj *unstructured.Unstructured, deleted bool) {
			// Observe must copy: the caller goes on changing its object.
			snapshot := obj.DeepCopy().Object
			if tl.Observe(obj, at(rv), deleted) {
				seen[key(obj.GetResourceVersion(), deleted)] = version{snapshot, deleted}
			}
		}
		for step := range steps {
			rv++
			deleted := false
			switch n := r.IntN(20); {
			case n == 0:
				deleted = true
			case n == 1:
				uid++
				cur = randomObject(r)
				unstructured.SetNestedField(cur, fmt.Sprint("u", uid), "metadata", "uid")
			default:
				for range 1 + r.IntN(3) {
					cur = mutate(r, cur, 4).(map[string]any)
				}
				// Identity stays: the timeline's comparison needs it.
				cur["apiVersion"], cur["kind"] = "v1", "ConfigMap"
				md, _ := cur["metadata"].(map[string]any)
				if md == nil {
					md = map[string]any{}
					cur["metadata"] = md
				}
				md["name"], md["namespace"] = "testmap", "ns"
				md["uid"] = fmt.Sprint("u", uid)
			}
			unstructured.SetNestedField(cur, strconv.Itoa(rv), "metadata", "resourceVersion")
			obj := &unstructured.Unstructured{Object: cur}
			switch {
			case !deleted && held == nil && r.IntN(6) == 0:
				held = obj.DeepCopy()
			default:
				observe(obj, deleted)
				if held != nil && !deleted {
					observe(held, false)
					held = nil
				}
			}
			cur = obj.DeepCopy().Object
			where := fmt.Sprintf("walk %d step %d", w, step)

			es := tl.Entries()
			if len(es)+tl.Dropped() != len(seen) {
				t.Fatalf("%s: %d entries + %d dropped, %d versions observed", where, len(es), tl.Dropped(), len(seen))
			}
			// The count is the sum of what each part holds now.
			sum := 0
			if tl.newest != nil {
				sum = valueSize(tl.newest)
			}
			for i, e := range es {
				sum += entrySize(&tl.entries[i]) + tl.entries[i].back.size
				want := seen[key(e.ResourceVersion, e.Deleted)]
				got, ok := tl.Object(e.ID)
				if !ok || !reflect.DeepEqual(got.Object, want.obj) {
					t.Fatalf("%s: entry %d (rv %s) rebuilt as\n%v\nwant\n%v", where, i, e.ResourceVersion, got, want.obj)
				}
				if i < len(es)-1 && !newerRV(es[i+1].ResourceVersion, e.ResourceVersion) && !es[i+1].Deleted {
					t.Fatalf("%s: entries out of rv order: %s before %s", where, e.ResourceVersion, es[i+1].ResourceVersion)
				}
			}
			if sum != tl.Bytes() {
				t.Fatalf("%s: counted %d bytes, parts sum to %d", where, tl.Bytes(), sum)
			}
			if tl.limit > 0 && len(es) > 1 && tl.Bytes() > tl.limit {
				t.Fatalf("%s: %d bytes kept over the bound of %d", where, tl.Bytes(), tl.limit)
			}
		}
	}
}

func TestTextEditsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(testseed.Fixed(t, 1), 2))
	for i := range 300 {
		a := bigText(r, r.IntN(80))
		b := mutate(r, a, 0)
		if s, ok := b.(string); ok && r.IntN(4) == 0 {
			b = strings.TrimSuffix(s, "\n") // a text without a final newline
		}
		bs, _ := b.(string)
		if got := applyText(bs, textEdits(bs, a)); got != a {
			t.Fatalf("case %d: applying the edits of\n%q\nto\n%q\ngave\n%q", i, a, bs, got)
		}
	}
}

// megConfigMap returns a ConfigMap holding about 1 MiB of config file.
func megConfigMap(rv int, text string) *unstructured.Unstructured {
	obj := cm(strconv.Itoa(rv), "big.conf", text)
	withManaged(obj, mf{"writer", "Update", rv, `{"f:data":{"f:big.conf":{}}}`})
	return obj
}

// megText is 1 MiB of config lines, varied by seed.
func megText(seed int) string {
	b := make([]byte, 0, 1<<20+128)
	for i := 0; len(b) < 1<<20; i++ {
		b = append(b, "option_"...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, " = value "...)
		b = strconv.AppendInt(b, int64(seed), 10)
		b = append(b, " of a long enough line of configuration text\n"...)
	}
	return string(b)
}

// editLine replaces line i of text.
func editLine(text string, i int, with string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[i%(len(lines)-1)] = with + "\n"
	return strings.Join(lines, "")
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestTimelineMemoryBound observes 500 versions of a 1 MiB ConfigMap and
// checks the bound on the Go heap itself, not only on the timeline's own
// count: rewrites of the whole file (each version a different megabyte)
// stay within MaxTimelineBytes by dropping the oldest versions, and edits
// of one line keep every version for little more than the one object.
func TestTimelineMemoryBound(t *testing.T) {
	const versions = 500
	const slack = 4 << 20 // the test's own garbage the GC has not given back

	t.Run("rewrites", func(t *testing.T) {
		before := heapInUse()
		tl := &Timeline{}
		for v := 1; v <= versions; v++ {
			tl.Observe(megConfigMap(v, megText(v)), at(v), false)
		}
		retained := int(heapInUse()) - int(before)
		t.Logf("%d entries kept, %d dropped, counted %d MiB, heap %d MiB", tl.Len(), tl.Dropped(), (tl.Bytes())>>20, retained>>20)
		if tl.Bytes() > MaxTimelineBytes {
			t.Errorf("counted %d bytes, over the bound of %d", tl.Bytes(), MaxTimelineBytes)
		}
		if retained > MaxTimelineBytes+slack {
			t.Errorf("the timeline holds %d MiB of heap, over the bound of %d MiB", retained>>20, MaxTimelineBytes>>20)
		}
		if tl.Dropped() == 0 || tl.Len()+tl.Dropped() != versions {
			t.Errorf("%d kept, %d dropped of %d", tl.Len(), tl.Dropped(), versions)
		}
		// The count is honest: it does not undercount the heap.
		if counted := tl.Bytes(); retained > counted+slack {
			t.Errorf("counted %d MiB, the heap holds %d MiB", counted>>20, retained>>20)
		}
		runtime.KeepAlive(tl)
	})

	t.Run("line edits", func(t *testing.T) {
		before := heapInUse()
		tl := &Timeline{}
		text := megText(0)
		for v := 1; v <= versions; v++ {
			text = editLine(text, v*37, fmt.Sprintf("worker_connections %d;", v))
			tl.Observe(megConfigMap(v, text), at(v), false)
		}
		text = ""
		retained := int(heapInUse()) - int(before)
		t.Logf("%d entries kept, counted %d KiB, heap %d KiB", tl.Len(), (tl.Bytes())>>10, retained>>10)
		if tl.Len() != versions || tl.Dropped() != 0 {
			t.Errorf("%d kept, %d dropped: one-line edits should all fit", tl.Len(), tl.Dropped())
		}
		if retained > 4<<20 {
			t.Errorf("500 one-line edits of a 1 MiB object hold %d MiB of heap", retained>>20)
		}
		first, _ := tl.Object(tl.Entries()[0].ID)
		if got, _ := dataOf(first, "big.conf"); got != editLine(megText(0), 37, "worker_connections 1;") {
			t.Error("the oldest version does not rebuild")
		}
		runtime.KeepAlive(tl)
	})
}

// BenchmarkTimelineObserve observes versions of a 1 MiB ConfigMap that
// each change one line, the timeline's common case for a large object.
func BenchmarkTimelineObserve(b *testing.B) {
	base := megText(0)
	objs := make([]*unstructured.Unstructured, 64)
	for i := range objs {
		objs[i] = megConfigMap(i+1, editLine(base, i*101, fmt.Sprintf("changed %d", i)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	var tl Timeline
	for i := 0; i < b.N; i++ {
		obj := objs[i%len(objs)].DeepCopy()
		obj.SetResourceVersion(strconv.Itoa(i + 1))
		tl.Observe(obj, at(i), false)
	}
}
