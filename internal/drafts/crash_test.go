package drafts

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testseed"
)

// errCrashed is what a disk that died answers.
var errCrashed = errors.New("the kedit died here")

// crashDisk is the disk of a kedit that dies at step at (the first call
// is step 1): that step is not done, nor any after it. A WriteFile is two
// steps, so that a kedit may also die in the middle of one: its temporary
// file is left half written and path is untouched, as
// fsutil.WriteFileAtomic leaves them. at 0 never dies; n counts the steps.
type crashDisk struct {
	at, n int
}

func (d *crashDisk) dies() bool {
	d.n++
	return d.at > 0 && d.n >= d.at
}

func (d *crashDisk) WriteFile(path string, data []byte) error {
	if d.dies() {
		return errCrashed
	}
	if d.dies() {
		f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
		if err == nil {
			_, _ = f.Write(data[:len(data)/2])
			_ = f.Close()
		}
		return errCrashed
	}
	return osDisk{}.WriteFile(path, data)
}

func (d *crashDisk) Remove(path string) error {
	if d.dies() {
		return errCrashed
	}
	return osDisk{}.Remove(path)
}

func (d *crashDisk) Rename(from, to string) error {
	if d.dies() {
		return errCrashed
	}
	return osDisk{}.Rename(from, to)
}

func (d *crashDisk) Link(from, to string) error {
	if d.dies() {
		return errCrashed
	}
	return osDisk{}.Link(from, to)
}

// crashOp is one thing a kedit does with its drafts.
type crashOp struct {
	kind string // write, delete, adopt, discard, keep
	text string
	base map[string]any
	pick int // which stored draft adopt, discard and keep take
}

func (op crashOp) String() string {
	if op.kind == "write" {
		return fmt.Sprintf("write %q (base %v)", op.text, op.base != nil)
	}
	if op.kind == "delete" {
		return op.kind
	}
	return op.kind + " stored[" + strconv.Itoa(op.pick) + "]"
}

// crashWalk is one random history: the drafts earlier kedits left (in
// the older layout or this one) and what this kedit then does.
type crashWalk struct {
	seed  uint64
	older []bool // one draft per slot; true: in the older layout
	ops   []crashOp
	// bases maps every text ever stored to the base stored with it.
	bases map[string]map[string]any
}

func newCrashWalk(seed uint64) *crashWalk {
	r := rand.New(rand.NewPCG(seed, seed))
	w := &crashWalk{seed: seed, bases: map[string]map[string]any{}}
	for range r.IntN(3) {
		w.older = append(w.older, r.IntN(2) == 0)
	}
	for i := range 6 + r.IntN(4) {
		op := crashOp{kind: []string{"write", "write", "write", "delete", "adopt", "discard", "keep"}[r.IntN(7)], pick: r.IntN(2)}
		if op.kind == "write" {
			op.text = fmt.Sprintf("data:\n  step: %q\n", strconv.Itoa(i)+strings.Repeat("x", r.IntN(40)))
			if r.IntN(4) > 0 {
				// A resourceVersion names one version of the object.
				rv := strconv.Itoa(10 + r.IntN(3))
				op.base = cmBase(rv, "base at rv "+rv)
			}
		}
		w.bases[op.text] = op.base
		w.ops = append(w.ops, op)
	}
	for i := range w.older {
		w.bases[olderText(i)] = cmBase(strconv.Itoa(1+i), "older base "+strconv.Itoa(i))
	}
	return w
}

func olderText(slot int) string {
	return fmt.Sprintf("data:\n  left: by an earlier kedit in slot %d\n", slot+1)
}

// replay sets up the walk in a fresh store and performs its ops up to and
// including op upto (none for -1), the last on disk d; then the kedit
// dies (its locks are let go). It returns the store and the object's key.
func (w *crashWalk) replay(t *testing.T, upto int, d *crashDisk) (*Store, Key) {
	t.Helper()
	dir, err := os.MkdirTemp(t.TempDir(), "walk")
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := &Store{Dir: filepath.Join(dir, "kedit", "drafts"), now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	k := configMapKey("c", "ns", "cm")
	var earlier []*Object
	for i, older := range w.older {
		o := s.Open(k, "u")
		earlier = append(earlier, o)
		path, err := o.Write(1, "1", []byte(olderText(i)), w.bases[olderText(i)])
		if err != nil {
			t.Fatal(err)
		}
		if older {
			toOlderLayout(t, path)
		}
	}
	for _, o := range earlier {
		o.crash()
	}
	o := s.Open(k, "u")
	defer o.crash()
	for i, op := range w.ops[:upto+1] {
		if i == upto && d != nil {
			s.fs = d
		}
		stored := o.Stored()
		var path string
		if len(stored) > 0 {
			path = stored[op.pick%len(stored)].Path
		}
		switch {
		case op.kind == "write":
			_, err = o.Write(uint64(i+1), "1", []byte(op.text), op.base)
		case op.kind == "delete":
			err = o.Delete(uint64(i + 1))
		case path == "":
		case op.kind == "adopt":
			_, err = o.Adopt(path)
		case op.kind == "discard":
			_, err = o.Discard(path)
		case op.kind == "keep":
			_, err = o.KeepAside(path)
		}
		if err != nil && !errors.Is(err, errCrashed) {
			t.Fatalf("seed %d, op %d (%s): %v", w.seed, i, op, err)
		}
	}
	s.fs = nil
	return s, k
}

// onDisk reads every draft file of the object's directory: the text of
// each, by file name ("" for none), kept-aside ones included.
func (w *crashWalk) onDisk(t *testing.T, s *Store, k Key, where string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(s.objectDir(k))
	if err != nil {
		t.Fatalf("seed %d, %s: %v", w.seed, where, err)
	}
	out := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		offered := strings.HasSuffix(name, draftExt)
		if !offered && !strings.HasSuffix(name, keptExt) {
			continue
		}
		d, err := Read(filepath.Join(s.objectDir(k), name))
		if err != nil {
			t.Errorf("seed %d, %s: %s cannot be read: %v", w.seed, where, name, err)
			continue
		}
		out[name] = string(d.Text)
		want, known := w.bases[string(d.Text)]
		switch {
		case !known:
			t.Errorf("seed %d, %s: %s holds text no one wrote: %q", w.seed, where, name, d.Text)
		case d.BaseJSON != nil && !sameJSON(t, d.BaseJSON, want):
			t.Errorf("seed %d, %s: %s holds another draft's base: %s", w.seed, where, name, d.BaseJSON)
		case offered && want != nil && d.BaseJSON == nil:
			t.Errorf("seed %d, %s: %s is a draft without its base", w.seed, where, name)
		}
	}
	return out
}

// TestCrashNeverSeparatesADraftFromItsBase: a kedit may die between any two
// steps of what it does to its drafts (a write, a delete, a recovery,
// a discard, a draft kept aside), even in the middle of writing a file,
// with drafts of older kedits (base beside the draft) and of this one in
// the store. After each death the next kedit finds every draft file
// either as it was before that step or as the step left it, never a draft
// without its base nor a base of another draft, and is offered every one.
// The seed of a failing walk is printed; KEDIT_SEED replays it.
func TestCrashNeverSeparatesADraftFromItsBase(t *testing.T) {
	seed := testseed.Seed(t)
	walks := 20
	if _, replay := os.LookupEnv(testseed.Env); replay {
		walks = 1 // the failing walk's own seed, printed below
	}
	for n := range walks {
		w := newCrashWalk(seed + uint64(n))
		for i, op := range w.ops {
			before, k := w.replay(t, i-1, nil)
			was := w.onDisk(t, before, k, fmt.Sprintf("before op %d", i))
			full := &crashDisk{}
			after, _ := w.replay(t, i, full)
			now := w.onDisk(t, after, k, fmt.Sprintf("after op %d (%s)", i, op))
			for at := 1; at <= full.n; at++ {
				where := fmt.Sprintf("dead at step %d of op %d (%s)", at, i, op)
				s, k := w.replay(t, i, &crashDisk{at: at})
				found := w.onDisk(t, s, k, where)
				for _, name := range union(was, now, found) {
					got, in := found[name]
					old, inOld := was[name]
					nw, inNew := now[name]
					if !(in == inOld && got == old) && !(in == inNew && got == nw) {
						t.Errorf("seed %d, %s: %s holds %q (there: %v); before %q (%v), after %q (%v)", w.seed, where, name, got, in, old, inOld, nw, inNew)
					}
				}
				next := s.Open(k, "u")
				var offered []string
				for _, d := range next.Stored() {
					offered = append(offered, filepath.Base(d.Path))
				}
				next.Close()
				for name := range found {
					if strings.HasSuffix(name, draftExt) && !slices.Contains(offered, name) {
						t.Errorf("seed %d, %s: the next kedit is not offered %s (offered %v)", w.seed, where, name, offered)
					}
				}
			}
			if t.Failed() {
				t.Fatalf("seed %d (KEDIT_SEED=%d replays it)", w.seed, w.seed)
			}
		}
	}
}

// union is the names in any of the maps, sorted.
func union(ms ...map[string]string) []string {
	var out []string
	for _, m := range ms {
		for k := range m {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}
