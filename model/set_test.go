package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// named is ConfigMap ns/NAME at rv with data foo.
func named(name, rv, foo string) *unstructured.Unstructured {
	o := cm(rv, "foo", foo)
	o.SetName(name)
	o.SetUID(types.UID("uid-" + name))
	return o
}

// newTestSet opens a set of n ConfigMaps m0, m1 ..., each at rv 1.
func newTestSet(t *testing.T, n int) *Set { return newTestSetIn(t, n, FormatYAML) }

// newTestSetIn is newTestSet with the objects, and the set, edited in f.
func newTestSetIn(t *testing.T, n int, f Format) *Set {
	t.Helper()
	var sessions []*Session
	for i := range n {
		ref := cmRef
		ref.Name = "m" + strconv.Itoa(i)
		sess := NewSession(ref)
		sess.SetFormat(f)
		if _, _, err := sess.Handle(Opened{Object: named(ref.Name, "1", "0"), At: t0}); err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, sess)
	}
	s := NewSet(sessions)
	s.SetFormat(f)
	return s
}

// draftOf edits member i's draft to foo = v, in its session's format.
func draftOf(t *testing.T, s *Set, i int, v string) []SetEffect {
	t.Helper()
	o := s.Session(i).Base().Object.DeepCopy()
	_ = unstructured.SetNestedField(o.Object, v, "data", "foo")
	txt, err := s.Session(i).Format().Render(o)
	if err != nil {
		t.Fatal(err)
	}
	effects, err := s.Handle(i, DraftEdited{Text: txt})
	if err != nil {
		t.Fatal(err)
	}
	return effects
}

func savesIn(effects []SetEffect) map[int]Save {
	out := map[int]Save{}
	for _, e := range effects {
		if sv, ok := e.Effect.(Save); ok {
			out[e.Member] = sv
		}
	}
	return out
}

// TestSetSaveAllIsBounded: a round sends SetSaveBound saves at once, each
// with its own object's resourceVersion, and the next as each one comes
// back; a member with a save in flight or in a conflict is left alone, and
// a draft that cannot be saved is refused on its row with the draft kept.
func TestSetSaveAllIsBounded(t *testing.T) {
	n := SetSaveBound + 4
	s := newTestSet(t, n)
	for i := range n - 1 {
		draftOf(t, s, i, "mine"+strconv.Itoa(i))
	}
	// The last one's draft does not parse.
	var de *DraftError
	if _, err := s.Handle(n-1, DraftEdited{Text: "data: [\n"}); !errors.As(err, &de) {
		t.Fatalf("err = %v, want a DraftError", err)
	}
	effects, round := s.SaveAll()
	if len(round.Queued) != n {
		t.Fatalf("queued %v, want all %d", round.Queued, n)
	}
	saves := savesIn(effects)
	if len(saves) != SetSaveBound || s.InFlight() != SetSaveBound {
		t.Fatalf("%d saves sent, %d in flight; want %d", len(saves), s.InFlight(), SetSaveBound)
	}
	for i, sv := range saves {
		if sv.ResourceVersion != "1" || sv.Object.GetName() != "m"+strconv.Itoa(i) {
			t.Errorf("member %d's save: %s at rv %s", i, sv.Object.GetName(), sv.ResourceVersion)
		}
	}
	if st := s.Status(SetSaveBound); st.State != MemberQueued {
		t.Errorf("member %d is %s, want queued", SetSaveBound, st.State)
	}
	// A second s while the round goes sends nothing again.
	again, round2 := s.SaveAll()
	if len(savesIn(again)) != 0 || len(round2.Queued) != 0 || len(round2.Busy) != n {
		t.Fatalf("a second round sent %v, queued %v, left %v", savesIn(again), round2.Queued, round2.Busy)
	}
	// Member 0 saved, member 1 conflicts: two more go.
	more, err := s.Handle(0, Saved{Object: named("m0", "20", "mine0"), At: at(1)})
	if err != nil {
		t.Fatal(err)
	}
	more2, err := s.Handle(1, SaveFailed{Err: &APIError{Kind: ErrorConflict}})
	if err != nil {
		t.Fatal(err)
	}
	next := savesIn(append(more, more2...))
	if _, ok := next[SetSaveBound]; !ok || len(next) != 1 {
		// member 1 went to read theirs (still in flight): one slot freed.
		t.Fatalf("after one saved and one conflict, saves sent: %v", next)
	}
	if st := s.Status(0); st.State != MemberSaved || st.ResourceVersion != "20" {
		t.Errorf("member 0: %+v, want saved rv 20", st)
	}
	if _, err := s.Handle(1, Conflicted{Theirs: named("m1", "21", "theirs"), At: at(2)}); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(1); st.State != MemberConflict || st.OpenConflicts != 1 {
		t.Errorf("member 1: %+v, want a conflict with one open", st)
	}
	if i, ok := s.NextConflict(); !ok || i != 1 {
		t.Errorf("NextConflict = %d, %v", i, ok)
	}
	// The rest come back saved; the last one's draft is refused, kept.
	for i := 2; i < n-1; i++ {
		for s.Session(i).State() != StateSaving {
			t.Fatalf("member %d is %s", i, s.Session(i).State())
		}
		if _, err := s.Handle(i, Saved{Object: named("m"+strconv.Itoa(i), strconv.Itoa(30+i), "x"), At: at(3)}); err != nil {
			t.Fatal(err)
		}
	}
	st := s.Status(n - 1)
	if st.State != MemberRefused || !errors.As(st.Err, &de) || s.Session(n-1).Draft() == nil {
		t.Errorf("the draft that does not parse: %+v, want refused with its DraftError and the draft kept", st)
	}
	if s.InFlight() != 0 {
		t.Errorf("%d still in flight", s.InFlight())
	}
}

// TestSetSaveOfADeletedObjectSaysDeleted: a save refused as the object is
// gone (404) puts the member in the deleted state, its draft kept, not in
// a refusal whose words are the object view's.
func TestSetSaveOfADeletedObjectSaysDeleted(t *testing.T) {
	s := newTestSet(t, 2)
	draftOf(t, s, 0, "mine")
	draftOf(t, s, 1, "mine")
	s.SaveAll()
	if _, err := s.Handle(1, SaveFailed{Err: &APIError{Kind: ErrorNotFound}}); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(1); st.State != MemberDeleted || !st.Draft || s.Session(1).Draft() == nil {
		t.Errorf("member 1: %+v, want deleted with its draft kept", st)
	}
	if st := s.Status(0); st.State != MemberSaving {
		t.Errorf("member 0: %+v, want saving", st)
	}
}

// TestSetSaveAllLeavesOutTheDeclined: a round asked to leave members out
// sends every other draft and leaves theirs as they are, saying which it
// skipped; a member without a draft is not said skipped.
func TestSetSaveAllLeavesOutTheDeclined(t *testing.T) {
	s := newTestSet(t, 4)
	for _, i := range []int{0, 1, 2} {
		draftOf(t, s, i, "mine")
	}
	before := s.Session(1).Draft().Text
	effects, round := s.SaveAll(1, 3)
	saves := savesIn(effects)
	if _, sent := saves[1]; sent || len(saves) != 2 || fmt.Sprint(round.Queued, round.Skipped) != "[0 2] [1]" {
		t.Fatalf("saves %v, queued %v, skipped %v", saves, round.Queued, round.Skipped)
	}
	if st := s.Status(1); st.State != MemberDraft || s.Session(1).Draft().Text != before {
		t.Errorf("the declined member: %+v", st)
	}
	// The next round, asked for everything, sends it.
	_, round = s.SaveAll()
	if fmt.Sprint(round.Queued) != "[1]" {
		t.Errorf("the next round queued %v, want [1]", round.Queued)
	}
}

// TestSetEditSplitsByIdentity: one text for three objects; the one edited
// gets the draft, the one left alone keeps what it had, the one removed
// keeps no draft; a text left as it was changes nothing.
func TestSetEditSplitsByIdentity(t *testing.T) {
	s := newTestSet(t, 3)
	draftOf(t, s, 2, "old")
	e, err := s.Edit(nil)
	if err != nil {
		t.Fatal(err)
	}
	if effects, rep, err := s.TakeEdit(e, e.Text); err != nil || len(effects) != 0 || len(rep.Edited)+len(rep.Removed) != 0 {
		t.Fatalf("the text as it was: %v %+v %v", effects, rep, err)
	}
	items, err := SplitSetText(e.Text)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(items[0].region, `foo: "0"`, `foo: "edited"`, 1)
	text := strings.Replace(e.Text, items[0].region, edited, 1)
	text = strings.Replace(text, items[2].region, "", 1) // m2 removed
	_, rep, err := s.TakeEdit(e, text)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rep.Edited, rep.Removed) != "[0] [2]" {
		t.Fatalf("edited %v, removed %v", rep.Edited, rep.Removed)
	}
	if d := s.Session(0).Draft(); d == nil || !strings.Contains(d.Text, `foo: "edited"`) || d.Err != nil {
		t.Errorf("m0's draft: %+v", d)
	}
	if s.Session(1).Draft() != nil || s.Session(2).Draft() != nil {
		t.Error("m1 (left alone) or m2 (removed) has a draft")
	}
}

// TestSetEditRefusesKeepingEverything: a text that does not parse, or that
// names an object not edited, changes no draft, says what is wrong (the
// added object by name), and is given back by the next Edit.
func TestSetEditRefusesKeepingEverything(t *testing.T) {
	s := newTestSet(t, 2)
	draftOf(t, s, 1, "kept")
	before := s.Session(1).Draft().Text
	e, err := s.Edit([]int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	bad := e.Text + "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: zzz\n    namespace: ns\n"
	_, _, err = s.TakeEdit(e, strings.Replace(bad, `foo: "0"`, `foo: "lost?"`, 1))
	var added *AddedError
	if !errors.As(err, &added) || !strings.Contains(err.Error(), "ConfigMap/zzz -n ns is not among the objects edited") {
		t.Fatalf("err = %v, want an AddedError naming ConfigMap/zzz", err)
	}
	if s.Session(0).Draft() != nil || s.Session(1).Draft().Text != before {
		t.Fatal("a refused text changed a draft")
	}
	again, err := s.Edit(nil)
	if err != nil || !strings.Contains(again.Text, "lost?") || !s.Edited() {
		t.Fatalf("the next edit does not give the refused text back: %v", err)
	}
	_, _, err = s.TakeEdit(again, "kind: List\nitems:\n- [\n")
	var te *SetTextError
	if !errors.As(err, &te) || s.Session(1).Draft().Text != before {
		t.Fatalf("bad text: err %v, draft %q", err, s.Session(1).Draft().Text)
	}
	// Fixed: taken, and the kept text goes.
	fixed := strings.Replace(e.Text, `foo: "0"`, `foo: "fixed"`, 1)
	if _, rep, err := s.TakeEdit(again, fixed); err != nil || fmt.Sprint(rep.Edited) != "[0]" || s.Edited() {
		t.Fatalf("fixed text: %+v %v", rep, err)
	}
}

// server is the fake API server of the set's walk: one object per member,
// resourceVersions from one counter as etcd gives them, and who wrote
// each version.
type server struct {
	rv      int
	objs    []*unstructured.Unstructured
	writers []map[string]string // member -> rv -> "kedit" or "other"
	// stores counts kedit's writes of each member in each of its draft
	// epochs (a DraftEdited starts one).
	stores []map[int]int
}

func (sv *server) write(i int, foo, by string) *unstructured.Unstructured {
	sv.rv++
	o := named("m"+strconv.Itoa(i), strconv.Itoa(sv.rv), foo)
	sv.objs[i], sv.writers[i][o.GetResourceVersion()] = o, by
	return o
}

// pending is an effect waiting for its answer, with the draft epoch it was
// sent in.
type pending struct {
	member, epoch int
	effect        Effect
}

// TestSetSavesNothingTwiceOnRandomInterleavings drives a set of five
// objects through random interleavings of edits (one object, or several in
// one text: a YAML List, or every other walk a JSON one), save rounds,
// saves of one object, another writer's changes, the server's answers in
// any order (stored, conflict, refused, answer lost after storing),
// conflicts resolved and resubmitted, retries and discards, and checks
// after every step: no object has two saves in flight; the
// round never has more than SetSaveBound in flight; a draft is stored at
// most once (nothing saved twice); and a row says saved rv N only when
// kedit's save stored version N.
func TestSetSavesNothingTwiceOnRandomInterleavings(t *testing.T) {
	walks, steps, n := 200, 80, 5
	if testing.Short() {
		walks = 60
	}
	seed := testseed.Fixed(t, 7)
	for w := range walks {
		r := rand.New(rand.NewPCG(seed+uint64(w), 2))
		// Every other walk edits JSON: its List is split the same way.
		f := Formats[w%len(Formats)]
		foo := map[Format]string{FormatYAML: "foo: ", FormatJSON: `"foo": "`}[f]
		s := newTestSetIn(t, n, f)
		sv := &server{rv: 1}
		epochs := make([]int, n)
		for range n {
			sv.objs = append(sv.objs, nil)
			sv.writers = append(sv.writers, map[string]string{"1": "other"})
			sv.stores = append(sv.stores, map[int]int{})
		}
		for i := range n {
			sv.objs[i] = named("m"+strconv.Itoa(i), "1", "0")
		}
		var out []pending
		var retries []int
		take := func(effects []SetEffect) {
			for _, e := range effects {
				switch eff := e.Effect.(type) {
				case Save, FetchTheirs, VerifySave:
					out = append(out, pending{e.Member, epochs[e.Member], eff})
				case RetrySave:
					retries = append(retries, e.Member)
				}
			}
		}
		for step := range steps {
			where := fmt.Sprintf("walk %d step %d: ", w, step)
			i := r.IntN(n)
			sess := s.Session(i)
			switch k := r.IntN(12); {
			case k < 2:
				epochs[i]++
				take(draftOf(t, s, i, "v"+strconv.Itoa(r.IntN(4))))
			case k == 2:
				e, err := s.Edit(nil)
				if err != nil {
					t.Fatal(where, err)
				}
				items, err := f.SplitSetText(e.Text)
				if err != nil || len(items) != n {
					t.Fatalf("%s%d items of the %s List: %v", where, len(items), f, err)
				}
				text := e.Text
				for j, it := range items {
					if r.IntN(2) == 0 {
						epochs[e.Members[j]]++
						text = strings.Replace(text, it.region, strings.Replace(it.region, foo, foo+"e", 1), 1)
					}
				}
				effects, rep, err := s.TakeEdit(e, text)
				if err != nil {
					t.Fatal(where, err)
				}
				for _, j := range rep.Edited {
					// (No draft: a text equal to base is none.)
					if d := s.Session(j).Draft(); d != nil && (d.Err != nil || !strings.Contains(d.Text, foo+"e")) {
						t.Fatalf("%sm%d's draft from the %s List: %+v", where, j, f, d)
					}
				}
				take(effects)
			case k < 5:
				effects, _ := s.SaveAll()
				take(effects)
			case k == 5:
				// The user saves one object from its own view.
				effects, _ := s.Handle(i, SaveRequested{})
				take(effects)
			case k == 6:
				// Each value new: a writer that puts back a value the
				// object had is the lost-answer rule's (the session's) to
				// judge, not the set's.
				o := sv.write(i, "other"+strconv.Itoa(sv.rv), "other")
				if r.IntN(3) > 0 {
					effects, _ := s.Handle(i, LiveChanged{Type: LiveModified, Object: o, At: at(step)})
					take(effects)
				}
			case k == 7 && sess.Rebase() != nil && sess.Rebase().Merge != nil:
				effects, _ := s.Handle(i, ResolveAll{Choice: 0})
				take(effects)
				effects, _ = s.Handle(i, Resubmit{})
				take(effects)
			case k == 8 && len(retries) > 0:
				j := retries[0]
				retries = retries[1:]
				if s.Session(j).RetryWaiting() {
					effects, _ := s.Handle(j, SaveRequested{})
					take(effects)
				}
			case k == 9 && r.IntN(3) == 0:
				effects, _ := s.Handle(i, DiscardDraft{})
				take(effects)
			default:
				if len(out) == 0 {
					continue
				}
				p := r.IntN(len(out))
				pe := out[p]
				out = append(out[:p], out[p+1:]...)
				j := pe.member
				var ev Event
				switch e := pe.effect.(type) {
				case Save:
					switch {
					case e.ResourceVersion != sv.objs[j].GetResourceVersion():
						ev = SaveFailed{Err: &APIError{Kind: ErrorConflict}}
					case r.IntN(8) == 0:
						ev = SaveFailed{Err: &APIError{Kind: ErrorInvalid}}
					default:
						foo, _ := dataOf(e.Object, "foo")
						o := sv.write(j, foo, "kedit")
						sv.stores[j][pe.epoch]++
						ev = Saved{Object: o, At: at(step)}
						if r.IntN(6) == 0 {
							// Stored, but the answer is lost.
							ev = SaveFailed{Err: &APIError{Kind: ErrorTimeout}}
						}
					}
				case FetchTheirs:
					ev = Conflicted{Theirs: sv.objs[j], At: at(step)}
				case VerifySave:
					ev = SaveVerified{Object: sv.objs[j], At: at(step)}
				}
				effects, _ := s.Handle(j, ev)
				take(effects)
			}

			// The rules, after every step.
			flying := map[int]int{}
			for _, p := range out {
				if _, ok := p.effect.(Save); ok {
					flying[p.member]++
				}
			}
			for j, c := range flying {
				if c > 1 {
					t.Fatalf("%s%d saves of m%d in flight at once", where, c, j)
				}
			}
			if f := s.InFlight(); f > SetSaveBound {
				t.Fatalf("%s%d saves of the round in flight", where, f)
			}
			for j := range n {
				for ep, c := range sv.stores[j] {
					if c > 1 {
						t.Fatalf("%sm%d's draft of epoch %d stored %d times", where, j, ep, c)
					}
				}
				if st := s.Status(j); st.State == MemberSaved && sv.writers[j][st.ResourceVersion] != "kedit" {
					t.Fatalf("%sm%d says saved rv %s, which %q wrote", where, j, st.ResourceVersion, sv.writers[j][st.ResourceVersion])
				}
			}
		}
	}
}

// TestSetSaveAllResubmitsMergesWithNothingOpen: s resubmits every merge
// with no conflict open, each with its theirs' resourceVersion and both
// sides' changes, and says how many; a conflict still open waits for the
// user. A merge whose conflicts the user resolved goes too, not counted
// clean.
func TestSetSaveAllResubmitsMergesWithNothingOpen(t *testing.T) {
	s := newTestSet(t, 4)
	for i := range 4 {
		draftOf(t, s, i, "mine"+strconv.Itoa(i))
	}
	s.SaveAll()
	// m0, m2 and m3 meet another writer's other key; m1 meets theirs of
	// foo itself, and m3's is resolved below.
	for i := range 4 {
		name := "m" + strconv.Itoa(i)
		theirs := named(name, strconv.Itoa(10+i), "0")
		_ = unstructured.SetNestedField(theirs.Object, "theirs", "data", "bar")
		if i == 1 {
			theirs = named(name, "11", "theirs")
		}
		if _, err := s.Handle(i, SaveFailed{Err: &APIError{Kind: ErrorConflict}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Handle(i, Conflicted{Theirs: theirs, At: at(2)}); err != nil {
			t.Fatal(err)
		}
		if st := s.Status(i); st.State != MemberConflict {
			t.Fatalf("member %d: %+v, want a conflict waiting", i, st)
		}
	}
	effects, round := s.SaveAll()
	saves := savesIn(effects)
	if fmt.Sprint(round.Queued, round.Merges, round.Busy) != "[0 2 3] [0 2 3] [1]" || !round.Clean || len(saves) != 3 {
		t.Fatalf("queued %v, merges %v (clean %v), busy %v, saves %v", round.Queued, round.Merges, round.Clean, round.Busy, saves)
	}
	for _, i := range round.Merges {
		sv := saves[i]
		foo, _, _ := unstructured.NestedString(sv.Object.Object, "data", "foo")
		bar, _, _ := unstructured.NestedString(sv.Object.Object, "data", "bar")
		if sv.ResourceVersion != strconv.Itoa(10+i) || foo != "mine"+strconv.Itoa(i) || bar != "theirs" {
			t.Errorf("member %d's resubmit: rv %s, foo %q, bar %q; want theirs' rv %d with mine's foo and theirs' bar", i, sv.ResourceVersion, foo, bar, 10+i)
		}
		if st := s.Status(i); st.State != MemberSaving {
			t.Errorf("member %d: %+v, want saving", i, st)
		}
	}
	if st := s.Status(1); st.State != MemberConflict || st.OpenConflicts != 1 || s.Session(1).State() != StateResolving && s.Session(1).State() != StateRebasing {
		t.Errorf("the open conflict: %+v, want it waiting for the user", st)
	}
	if _, err := s.Handle(0, Saved{Object: named("m0", "20", "mine0"), At: at(3)}); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(0); st.State != MemberSaved || st.ResourceVersion != "20" {
		t.Errorf("member 0: %+v, want saved rv 20", st)
	}
	// m1's conflict resolved by the user: the next s resubmits it, a
	// merge that was not clean.
	if _, err := s.Handle(1, Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.TakeMine}}); err != nil {
		t.Fatal(err)
	}
	effects, round = s.SaveAll()
	if sv, ok := savesIn(effects)[1]; !ok || sv.ResourceVersion != "11" || fmt.Sprint(round.Merges) != "[1]" || round.Clean {
		t.Errorf("the resolved merge: saves %v, merges %v, clean %v", savesIn(effects), round.Merges, round.Clean)
	}
}

// TestSetSaveAllQueuesMergesBeyondTheBound: merges beyond SetSaveBound are
// queued, said so on their rows, and go as the others come back.
func TestSetSaveAllQueuesMergesBeyondTheBound(t *testing.T) {
	n := SetSaveBound + 1
	s := newTestSet(t, n)
	for i := range n {
		draftOf(t, s, i, "mine")
		if _, err := s.Handle(i, SaveRequested{}); err != nil {
			t.Fatal(err)
		}
		theirs := named("m"+strconv.Itoa(i), "10", "0")
		_ = unstructured.SetNestedField(theirs.Object, "theirs", "data", "bar")
		if _, err := s.Handle(i, SaveFailed{Err: &APIError{Kind: ErrorConflict}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Handle(i, Conflicted{Theirs: theirs, At: at(2)}); err != nil {
			t.Fatal(err)
		}
	}
	effects, round := s.SaveAll()
	if len(round.Merges) != n || len(savesIn(effects)) != SetSaveBound {
		t.Fatalf("merges %v, %d sent; want %d, %d sent", round.Merges, len(savesIn(effects)), n, SetSaveBound)
	}
	if st := s.Status(n - 1); st.State != MemberQueued {
		t.Fatalf("the last merge: %+v, want queued", st)
	}
	more, err := s.Handle(0, Saved{Object: named("m0", "20", "mine"), At: at(3)})
	if err != nil {
		t.Fatal(err)
	}
	if sv, ok := savesIn(more)[n-1]; !ok || sv.ResourceVersion != "10" {
		t.Errorf("after one came back, saves %v; want the last merge at rv 10", savesIn(more))
	}
}
