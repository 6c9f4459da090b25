package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// TestRulesHoldOnRandomWalks drives sessions with random sequences of
// intents and outcomes and checks the session's rules after every step:
// no Save without a resourceVersion, no resubmit over an open conflict, no
// failure that touches the draft, refusals that change nothing, states
// that agree with what the session holds, a draft store that (performing
// the newest of the effects it was given) holds exactly the draft and its
// base, and no rebase of a draft recovered from another object. For
// server-side apply: no force but on the resubmit of ownership conflicts
// all resolved, at least one to mine, with the fields resolved to theirs
// left out; no update in place of the strategy unless asked for; a refused
// merged text keeps the rebase and the draft; every save the server took
// is reported; no save is sent again after a lost answer before the object
// read back says it did not go through; a final answer is never retried;
// a conflict whose theirs changed only what the server owns never waits
// for the user; the rules for an
// object deleted and created again and for data that keeps changing
// (walkRules, checked after every step too).
func TestRulesHoldOnRandomWalks(t *testing.T) {
	walks, steps := 300, 40
	if testing.Short() {
		walks = 150
	}
	visited := map[State]int{}
	forced = 0
	var tally walkTally
	base := testseed.Fixed(t, 0)
	for w := range walks {
		r := rand.New(rand.NewPCG(base+uint64(w), 1))
		s := opened(t, cmRef, cm("1", "foo", "1", "bar", "1"))
		// A third of the walks edit JSON (-o json); recovering a draft
		// switches to the stored draft's format.
		if w%3 == 2 {
			s.SetFormat(FormatJSON)
		}
		// A quarter resubmit clean rebases at once (--auto-rebase).
		auto := w%4 == 1
		s.SetAutoRebase(auto)
		text := func(t *testing.T, obj *unstructured.Unstructured) string {
			t.Helper()
			out, err := s.Format().Render(obj)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		bad := func() string {
			if s.Format() == FormatJSON {
				return "{\n  \"data\": [\n"
			}
			return "data: [\n"
		}
		rv := 1
		next := func() string { rv++; return strconv.Itoa(rv) }
		var store fakeStore
		val := func() string { return strconv.Itoa(r.IntN(3)) }
		rules := newWalkRules(&tally)
		for step := range steps {
			var ev Event
			if e, ok := rules.event(r, s, next, val); ok {
				ev = e
			} else {
				switch r.IntN(19) {
				case 18:
					switch b := s.Base().Object; r.IntN(6) {
					case 0:
						// The object read back after a lost answer, unchanged.
						ev = SaveVerified{Object: b}
					case 1:
						// ... or at a newer version, holding the save or not.
						ev = SaveVerified{Object: cm(next(), "foo", val(), "bar", val())}
					case 2:
						// A hot object: only the status moved on.
						ev = Conflicted{Theirs: withStatus(b, next(), val())}
					case 3:
						// The server answers again while a save waits.
						ev = Reconnected{}
					case 4:
						// A final answer: the API server's own 500, after
						// which the save may have been stored.
						ev = SaveFailed{Err: &landingError{APIError{Kind: ErrorRefused}, true}}
					default:
						ev = SaveFailed{Err: &APIError{Kind: ErrorTimeout}}
					}
				case 14:
					// Server-side apply refusing fields other managers own.
					fields := [][]string{{".data.foo"}, {".data.bar"}, {".data.bar", ".data.foo"}}[r.IntN(3)]
					e := &APIError{Kind: ErrorFieldManagerConflict}
					for _, f := range fields {
						e.Owners = append(e.Owners, OwnedField{Field: f, Manager: "kubectl-patch"})
					}
					ev = SaveFailed{Err: e}
				case 15:
					if r.IntN(2) == 0 {
						ev = SaveFailed{Err: &APIError{Kind: ErrorApplyCannotRemove}}
					} else {
						ev = SaveRequested{AsUpdate: true}
					}
				case 16:
					if r.IntN(2) == 0 {
						ev = MergedEdited{Text: bad()}
					} else {
						ev = ResolveAll{Choice: []diff.Choice{diff.TakeMine, diff.TakeMine, diff.TakeTheirs, diff.TakeBase}[r.IntN(4)]}
					}
				case 0, 1:
					ev = DraftEdited{Text: text(t, cm("0", "foo", val(), "bar", val()))}
				case 2:
					ev = DraftEdited{Text: bad()}
				case 3, 4:
					ev = SaveRequested{}
				case 5:
					ev = Saved{Object: cm(next(), "foo", val(), "bar", val())}
				case 6:
					kinds := []ErrorKind{ErrorConflict, ErrorConflict, ErrorInvalid, ErrorNotFound, ErrorUnavailable}
					ev = SaveFailed{Err: &APIError{Kind: kinds[r.IntN(len(kinds))]}}
				case 7:
					ev = Conflicted{Theirs: cm(next(), "foo", val(), "bar", val())}
				case 8:
					ev = LiveChanged{Type: LiveModified, Object: cm(next(), "foo", val(), "bar", val())}
				case 9:
					ev = Resolve{Index: r.IntN(2), Resolution: diff.Resolution{Choice: diff.Choice(r.IntN(4))}}
				case 10:
					ev = Resubmit{}
				case 11:
					ev = RebaseRequested{}
				case 12:
					ev = ResolveAll{Choice: diff.TakeTheirs}
				case 13:
					if n := r.IntN(8); n == 0 {
						ev = DiscardDraft{}
					} else if n == 1 {
						ev = AbandonRebase{}
					} else {
						ev = MergedEdited{Text: text(t, cm("0", "foo", val(), "bar", val()))}
					}
				case 17:
					format := Formats[r.IntN(len(Formats))]
					stored, err := format.Render(cm("1", "foo", val(), "bar", val()))
					if err != nil {
						t.Fatal(err)
					}
					sd := StoredDraft{Text: stored, Format: format, BaseResourceVersion: "1", Base: cm("1", "foo", "1", "bar", "1"), UID: "1234"}
					if r.IntN(2) == 0 {
						// Made on an object of this name deleted since.
						sd.UID, sd.Base = "recreated", nil
					}
					ev = RecoverDraft{Draft: sd}
				}
			}
			ev = rules.sameObject(ev)
			uncertain := s.SaveUncertain()
			pendingGen := -1
			if s.pending != nil {
				pendingGen = s.pending.gen
			}
			before := snapshot(s)
			openBefore := s.OpenConflicts()
			rebaseBefore := s.Rebase()
			resolutionsBefore := s.Resolutions()
			rules.before(s)
			state, effects, err := s.Handle(ev)
			where := func() string { return "walk " + strconv.Itoa(w) + " step " + strconv.Itoa(step) + ": " }
			rules.after(t, where(), s, ev, effects, err)
			if state != s.State() {
				t.Fatalf("%sHandle returned %s, State() is %s", where(), state, s.State())
			}
			if a, ok := s.AutoRebased(); ok && (!auto || (state != StateSaving && state != StateWaitingTheirs)) {
				t.Fatalf("%sAutoRebased onto rv %s in state %s (auto-rebase %v): it lives only with the save it sent", where(), a.OntoRV, state, auto)
			}
			if a, ok := s.AutoRebased(); ok && a.OntoRV == s.Base().ResourceVersion && before.state != StateSaving {
				tally.AutoRebased++
			}
			if _, conflicted := ev.(Conflicted); auto && conflicted && err == nil && state == StateRebasing && !s.needsYes(s.Rebase().Theirs.Object) {
				if s.draft == nil || s.draft.Err == nil {
					t.Fatalf("%sa clean rebase waits for the user with --auto-rebase", where())
				}
			}
			_, isDraftErr := err.(*DraftError)
			if err != nil && !isDraftErr && snapshot(s) != before {
				t.Fatalf("%s%T refused (%v) but changed the session:\n%+v\n%+v", where(), ev, err, before, snapshot(s))
			}
			_, verified := ev.(SaveVerified)
			if _, saved := ev.(Saved); saved && err == nil && before.state == StateSaving {
				// After a save the server took: no draft when it stored
				// the draft whole; else the draft is the text the user
				// wrote, made from the saved version (unless edited while
				// saving, which keeps the newer text).
				r := s.LastSave()
				switch {
				case r != nil && len(r.Dropped()) == 0 && s.Draft() != nil && s.DraftRevision() == pendingGen:
					t.Fatalf("%sa save that dropped nothing the user wrote kept the draft %q", where(), s.Draft().Text)
				case r != nil && len(r.Dropped()) > 0 && (s.Draft() == nil || s.Draft().Text != before.draft):
					t.Fatalf("%sa save that dropped %v did not keep the user's text %q", where(), r.Dropped(), before.draft)
				case r != nil && len(r.Dropped()) > 0 && s.Base().ResourceVersion != s.LastSave().ResourceVersion:
					t.Fatalf("%sthe kept draft is made from rv %s, not the saved %s", where(), s.Base().ResourceVersion, r.ResourceVersion)
				}
			}
			for _, e := range effects {
				if sv, ok := e.(Save); ok {
					// A save whose answer was lost went to the earlier
					// object (its uid): it cannot have reached the new one.
					if uncertain && !verified && !MadeOnEarlierObject(rules.madeOn, uidOf(sv.Object)) {
						t.Fatalf("%s%T sent a save while the last one's answer was lost", where(), ev)
					}
					if sv.ResourceVersion == "" || sv.Object.GetResourceVersion() != sv.ResourceVersion {
						t.Fatalf("%sSave with rv %q, object rv %q", where(), sv.ResourceVersion, sv.Object.GetResourceVersion())
					}
					if sv.Base == nil || sv.Base.GetResourceVersion() != sv.ResourceVersion {
						t.Fatalf("%sSave at rv %q carries a base at another version", where(), sv.ResourceVersion)
					}
					if sv.Resubmit && openBefore > 0 {
						t.Fatalf("%sresubmit with %d open conflicts", where(), openBefore)
					}
					if sv.Force {
						checkForce(t, where(), rebaseBefore, resolutionsBefore, sv)
					}
					if asked, _ := ev.(SaveRequested); sv.Update && !asked.AsUpdate {
						t.Fatalf("%s%T sent a save as an update", where(), ev)
					}
				}
			}
			if _, ok := ev.(MergedEdited); ok && isDraftErr {
				if s.Draft().Text != before.draft || s.State() != before.state || !reflect.DeepEqual(s.Resolutions(), resolutionsBefore) {
					t.Fatalf("%sa refused merged text changed the draft, the state or the resolutions", where())
				}
				if text, _ := s.MergedText(); text != ev.(MergedEdited).Text {
					t.Fatalf("%sthe refused merged text is not offered again", where())
				}
			}
			if _, ok := ev.(Saved); ok && err == nil {
				if r := s.LastSave(); r == nil || r.ResourceVersion != ev.(Saved).Object.GetResourceVersion() {
					t.Fatalf("%sa save the server took has report %+v", where(), r)
				}
			}
			if _, ok := ev.(SaveFailed); ok && err == nil && s.Draft().Text != before.draft && !rules.resubmittedAgain {
				// Only the rule for data that keeps changing makes the
				// draft the merged object (walkRules checks it holds
				// both sides).
				t.Fatalf("%sa failure changed the draft", where())
			}
			if f, ok := ev.(SaveFailed); ok && !KindOf(f.Err).Retryable() && len(effectsOf[RetrySave](effects)) > 0 {
				t.Fatalf("%sa final answer (%s) is retried", where(), KindOf(f.Err))
			}
			if rd, ok := ev.(RecoverDraft); ok && rd.Draft.UID == "recreated" && s.Base().ResourceVersion != before.base {
				t.Fatalf("%sa draft of another object moved base from %s to %s", where(), before.base, s.Base().ResourceVersion)
			}
			if rd, ok := ev.(RecoverDraft); ok && err == nil && s.Format() != rd.Draft.Format {
				t.Fatalf("%sa draft written in %s was recovered into a session in %s", where(), rd.Draft.Format, s.Format())
			}
			// A draft that parses is written in the session's format.
			if d := s.Draft(); d != nil && d.Err == nil && s.Format().ParseDraft(d.Text).Err(s.Ref()) != nil {
				t.Fatalf("%sthe draft does not parse as %s:\n%s", where(), s.Format(), d.Text)
			}
			if err := store.perform(effects); err != nil {
				t.Fatalf("%s%v", where(), err)
			}
			if err := store.holds(s); err != nil {
				t.Fatalf("%safter %T: %v", where(), ev, err)
			}
			checkStateAgrees(t, where(), s)
			if rb := s.Rebase(); err == nil && before.state != StateRebasing && before.state != StateResolving &&
				rb != nil && s.State() == StateRebasing && !rb.Ownership && !rb.Stale() && rb.CreatedAgain == "" &&
				s.serverRebases < maxServerRebases && diff.ServerOwnedOnly(rb.Base, rb.Theirs.Object) {
				switch ev.(type) {
				case SaveFailed, Conflicted, SaveVerified:
					t.Fatalf("%safter %T a rebase onto a theirs that changed only status waits for the user", where(), ev)
				}
			}
			visited[state]++
			if errors.Is(err, ErrNotOpen) {
				t.Fatalf("%s%v", where(), err)
			}
		}
		// What kedit performs as it ends orders after everything before.
		if err := store.perform([]Effect{s.StoreDraft()}); err != nil {
			t.Fatalf("walk %d: StoreDraft: %v", w, err)
		}
		if err := store.holds(s); err != nil {
			t.Fatalf("walk %d: after StoreDraft: %v", w, err)
		}
	}
	// The walks must reach every state, or they check less than they say.
	for st := StateViewing; st <= StateWaitingTheirs; st++ {
		if visited[st] == 0 {
			t.Errorf("no walk reached %s: %v", st, visited)
		}
	}
	if forced == 0 {
		t.Error("no walk forced an apply")
	}
	tally.check(t)
	t.Logf("steps per state: %v; forced applies: %d; %+v", visited, forced, tally)
}

// forced counts the forced applies the walks checked.
var forced int

// checkForce checks a forced Save: it resubmits an ownership rebase whose
// every conflict was resolved, at least one to mine (sent with mine's
// value), and none of the fields resolved to theirs is sent.
func checkForce(t *testing.T, where string, rb *Rebase, rs []diff.Resolution, sv Save) {
	t.Helper()
	forced++
	if rb == nil || !rb.Ownership || !sv.Resubmit {
		t.Fatalf("%sa forced save that is not the resubmit of an apply's ownership conflicts", where)
	}
	mine := 0
	for i, c := range rb.Merge.Conflicts {
		got := diff.ValueAt(sv.Object.Object, c.Path)
		switch rs[i].Choice {
		case diff.TakeMine:
			mine++
			if !reflect.DeepEqual(got, c.Mine) {
				t.Fatalf("%s%s resolved to mine is sent as %+v", where, c.Where(), got)
			}
		case diff.TakeTheirs:
			if got.Present {
				t.Fatalf("%s%s resolved to theirs is still claimed", where, c.Where())
			}
		default:
			t.Fatalf("%sforced with %s resolved to %v", where, c.Where(), rs[i].Choice)
		}
	}
	if mine == 0 {
		t.Fatalf("%sforced with nothing resolved to mine", where)
	}
}

type snap struct {
	state        State
	draft        string
	hasDraft     bool
	base, live   string
	rebase       *Rebase
	open         int
	failure      *Failure
	pendingSaves bool
}

func snapshot(s *Session) snap {
	sn := snap{state: s.state, base: s.base.ResourceVersion, live: s.live.ResourceVersion, rebase: s.rebase, open: s.OpenConflicts(), failure: s.failure, pendingSaves: s.pending != nil}
	if s.draft != nil {
		sn.draft, sn.hasDraft = s.draft.Text, true
	}
	return sn
}

func checkStateAgrees(t *testing.T, where string, s *Session) {
	t.Helper()
	rb := s.Rebase()
	switch s.State() {
	case StateViewing, StateSaved:
		if s.Draft() != nil || rb != nil {
			t.Fatalf("%s%s with a draft or rebase", where, s.State())
		}
	case StateEditing:
		if s.Draft() == nil || rb != nil {
			t.Fatalf("%sediting without a draft, or with a rebase", where)
		}
	case StateSaving:
		if s.pending == nil || s.Draft() == nil {
			t.Fatalf("%ssaving without a save in flight or a draft", where)
		}
	case StateRebasing:
		if rb == nil || rb.Merge == nil || rb.Merge.Open() > 0 {
			t.Fatalf("%srebasing with %v", where, rb)
		}
	case StateWaitingTheirs:
		// Waiting for theirs: a rebase without a merge, and nothing in
		// flight but the FetchTheirs.
		if rb == nil || rb.Merge != nil || s.pending != nil || s.OpenConflicts() != 0 {
			t.Fatalf("%swaiting for theirs with %v, pending %v", where, rb, s.pending)
		}
	case StateResolving:
		if rb == nil || rb.Merge == nil || rb.Merge.Open() == 0 {
			t.Fatalf("%sresolving without open conflicts", where)
		}
	case StateFailed:
		if s.Failure() == nil || s.Draft() == nil {
			t.Fatalf("%sfailed without a failure or a draft", where)
		}
	}
	if s.State() != StateFailed && s.Failure() != nil {
		t.Fatalf("%s%s with a failure left over", where, s.State())
	}
}

// fakeStore is a draft store that performs WriteDraft and DeleteDraft in
// the order of their Seq, as kube/ does, dropping none here: the session
// hands them out in order.
type fakeStore struct {
	seq    uint64
	stored bool
	text   string
	format Format
	baseRV string
}

func (f *fakeStore) perform(effects []Effect) error {
	for _, e := range effects {
		var seq uint64
		switch e := e.(type) {
		case WriteDraft:
			seq = e.Seq
			f.stored, f.text, f.format, f.baseRV = true, e.Text, e.Format, e.BaseResourceVersion
			if e.Base != nil && e.Base.GetResourceVersion() != e.BaseResourceVersion {
				return fmt.Errorf("WriteDraft's base is at rv %s, not %s", e.Base.GetResourceVersion(), e.BaseResourceVersion)
			}
		case DeleteDraft:
			seq = e.Seq
			f.stored = false
		default:
			continue
		}
		if seq <= f.seq {
			return fmt.Errorf("store effect %T with Seq %d after %d", e, seq, f.seq)
		}
		f.seq = seq
	}
	return nil
}

// holds checks that the store holds the session's draft and its base, and
// nothing when there is no draft.
func (f *fakeStore) holds(s *Session) error {
	d := s.Draft()
	switch {
	case d == nil && f.stored:
		return fmt.Errorf("no draft, but the store still holds %q", f.text)
	case d != nil && !f.stored:
		return fmt.Errorf("the store holds nothing, the draft is %q", d.Text)
	case d != nil && (f.text != d.Text || f.baseRV != s.Base().ResourceVersion):
		return fmt.Errorf("the store holds %q at base rv %s, the draft is %q at base rv %s", f.text, f.baseRV, d.Text, s.Base().ResourceVersion)
	case d != nil && f.format != s.Format():
		return fmt.Errorf("the store holds the draft as %s, the session writes %s", f.format, s.Format())
	}
	return nil
}
