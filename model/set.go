package model

import (
	"fmt"
	"slices"
)

// SetSaveBound is how many saves of a set are in flight at once: enough to
// save a hundred objects in a few round trips, few enough that a set of
// hundreds does not flood the API server (or its rate limits).
const SetSaveBound = 8

// Set is several objects opened in one kedit (kedit cm/a cm/b, -l, -f).
// Each object's session stays the single source of truth for it: base,
// draft, live, its saves and its conflicts. The set keeps what is about
// all of them: their order, the save round (which drafts are still to be
// sent, at most SetSaveBound at once), which conflict was shown last, and
// the text of an edit of several objects that it could not take. It is pure, as a Session is: Handle and SaveAll
// return the effects for kube/ to perform, each tagged with its object.
type Set struct {
	members []*member
	// queue are the members the save round has still to send, in order.
	queue []int
	// lastConflict is the member whose conflict was shown last (-1: none):
	// NextConflict goes on from it.
	lastConflict int
	// edited is an edit of several objects the set refused, kept so that
	// nothing typed is lost: the next edit opens it again.
	edited *SetEdit
	// format is the format of the set's edits (SetFormat); "" is YAML.
	format Format
}

type member struct {
	sess *Session
	// round: the member's draft is part of the save round (queued or
	// sent); cleared when the round moves past it.
	round bool
	// refused is why the set's save was refused before anything was sent
	// (a draft that does not parse), for the draft text refusedText.
	refused     error
	refusedText string
	// notResubmitted is why the round's resubmit of a merge was refused
	// before anything was sent; the merge waits for the user.
	notResubmitted error
}

// SetEffect is an effect of member Member's session.
type SetEffect struct {
	Member int
	Effect Effect
}

// NewSet makes a set of the sessions, each opened already, in the order
// given.
func NewSet(sessions []*Session) *Set {
	s := &Set{lastConflict: -1}
	for _, sess := range sessions {
		s.members = append(s.members, &member{sess: sess})
	}
	return s
}

// Len is the number of objects.
func (s *Set) Len() int { return len(s.members) }

// Session returns member i's session.
func (s *Set) Session(i int) *Session { return s.members[i].sess }

// Index returns the member whose session is sess.
func (s *Set) Index(sess *Session) (int, bool) {
	for i, m := range s.members {
		if m.sess == sess {
			return i, true
		}
	}
	return -1, false
}

// Handle hands ev to member i's session, as Session.Handle does, and then
// sends what the save round may send now.
func (s *Set) Handle(i int, ev Event) ([]SetEffect, error) {
	_, effects, err := s.members[i].sess.Handle(ev)
	out := tag(i, effects)
	return append(out, s.Pump()...), err
}

func tag(i int, effects []Effect) []SetEffect {
	out := make([]SetEffect, 0, len(effects))
	for _, e := range effects {
		out = append(out, SetEffect{Member: i, Effect: e})
	}
	return out
}

// saveable reports whether a session holds a draft that a save round
// sends: a draft being edited, or one whose last save failed. A save in
// flight, a conflict waiting for the user and no draft are not.
func saveable(sess *Session) bool {
	if sess.Draft() == nil {
		return false
	}
	st := sess.State()
	return st == StateEditing || st == StateFailed && !sess.RetryWaiting()
}

// mergeReady reports whether a session's rebase holds nothing left for
// the user to decide: no conflict open in it (a clean merge, or one whose
// conflicts are all resolved), theirs the same object as the draft's, and
// a merge that can be sent. A save round resubmits it with theirs'
// resourceVersion, as s in its conflict view does; a new conflict is a
// new rebase, never an overwrite.
func mergeReady(sess *Session) bool {
	rb := sess.rebase
	return sess.rebasing() && rb != nil && rb.Merge.Open() == 0 && !sess.needsYes(rb.Theirs.Object) &&
		!(rb.stale && sess.draft != nil && sess.draft.Err != nil)
}

// SaveRound says what SaveAll did.
type SaveRound struct {
	// Queued are the members whose drafts the round sends, and those
	// whose merges it resubmits.
	Queued []int
	// Merges are the members of Queued whose merge the round resubmits
	// (a merge with no conflict open).
	Merges []int
	// Clean says that every one of Merges merged without a conflict, none
	// resolved by the user.
	Clean bool
	// Busy are the members with a draft the round leaves alone: a save in
	// flight, or a conflict for the user to resolve.
	Busy []int
	// Skipped are the members the round was asked to leave out whose
	// drafts it would have sent; their drafts stay as they are.
	Skipped []int
}

// SaveAll starts a save round: every draft that is not already on its way
// or in a conflict is sent, each with its own resourceVersion, and every
// merge with no conflict open is resubmitted with theirs' (mergeReady), at
// most SetSaveBound at once; the rest follow as those come back (Pump). A
// conflict still open waits for the user. A member is in at most one
// round at a time, so nothing is sent twice. The members in except are
// left out (the user declined to save them).
func (s *Set) SaveAll(except ...int) ([]SetEffect, SaveRound) {
	r := SaveRound{Clean: true}
	for i, m := range s.members {
		ready := saveable(m.sess) || mergeReady(m.sess)
		switch {
		case m.round:
			r.Busy = append(r.Busy, i)
		case ready && slices.Contains(except, i):
			r.Skipped = append(r.Skipped, i)
		case ready:
			m.round, m.refused, m.notResubmitted = true, nil, nil
			s.queue = append(s.queue, i)
			r.Queued = append(r.Queued, i)
			if rb := m.sess.rebase; rb != nil && m.sess.rebasing() {
				r.Merges = append(r.Merges, i)
				r.Clean = r.Clean && len(rb.Merge.Conflicts) == 0
			}
		case m.sess.Draft() != nil || m.sess.Rebase() != nil:
			r.Busy = append(r.Busy, i)
		}
	}
	return s.Pump(), r
}

// inFlight reports whether member m's round still waits on the server: a
// save or a read of theirs out, or a retry due.
func (m *member) inFlight() bool {
	st := m.sess.State()
	return m.round && (st == StateSaving || st == StateWaitingTheirs || m.sess.RetryWaiting())
}

// Pump sends the queued saves while fewer than SetSaveBound are in
// flight, and ends the round of members that came back. It is called
// after every event of a member, also when the user handled one member on
// its own (its object view), so that the round goes on.
func (s *Set) Pump() []SetEffect {
	flying := 0
	for i, m := range s.members {
		if m.inFlight() {
			flying++
		} else if m.round && !s.queued(i) {
			m.round = false // came back: saved, a conflict, or refused
		}
	}
	var out []SetEffect
	for len(s.queue) > 0 && flying < SetSaveBound {
		i := s.queue[0]
		s.queue = s.queue[1:]
		mb := s.members[i]
		if mergeReady(mb.sess) {
			_, effects, err := mb.sess.Handle(Resubmit{})
			if err != nil {
				// Refused before anything was sent: the merge waits for
				// the user, who sees why.
				mb.round, mb.notResubmitted = false, err
				continue
			}
			out = append(out, tag(i, effects)...)
			if mb.inFlight() {
				flying++
			} else {
				mb.round = false
			}
			continue
		}
		if !saveable(mb.sess) {
			// Saved, discarded or sent from its own view meanwhile: the
			// round has nothing left to send for it.
			mb.round = false
			continue
		}
		text := mb.sess.Draft().Text
		_, effects, err := mb.sess.Handle(SaveRequested{})
		if err != nil {
			// Refused before anything was sent (a draft that does not
			// parse, one made on an earlier object): the draft stays.
			mb.round, mb.refused, mb.refusedText = false, err, text
			continue
		}
		out = append(out, tag(i, effects)...)
		if mb.inFlight() {
			flying++
		} else {
			mb.round = false
		}
	}
	return out
}

func (s *Set) queued(i int) bool {
	for _, q := range s.queue {
		if q == i {
			return true
		}
	}
	return false
}

// Busy reports whether the save round has drafts still to send or
// waiting on the server.
func (s *Set) Busy() bool { return len(s.queue) > 0 || s.InFlight() > 0 }

// InFlight counts the members whose save round waits on the server.
func (s *Set) InFlight() int {
	n := 0
	for _, m := range s.members {
		if m.inFlight() {
			n++
		}
	}
	return n
}

// MemberState is what the set says of one object.
type MemberState int

// The states of a set's object.
const (
	// MemberLive has no draft.
	MemberLive MemberState = iota
	// MemberDraft has a draft not sent.
	MemberDraft
	// MemberQueued has a draft the save round is still to send.
	MemberQueued
	// MemberSaving has a save (or the read of theirs) in flight.
	MemberSaving
	// MemberSaved was saved: the server took its draft at
	// MemberStatus.ResourceVersion.
	MemberSaved
	// MemberConflict met a conflict that waits for the user.
	MemberConflict
	// MemberRefused has a draft whose save was refused (MemberStatus.Err);
	// the draft is kept.
	MemberRefused
	// MemberDeleted is gone from the server; a draft, if any, is kept.
	MemberDeleted
)

var memberStateNames = [...]string{
	MemberLive: "live", MemberDraft: "draft", MemberQueued: "queued", MemberSaving: "saving",
	MemberSaved: "saved", MemberConflict: "conflict", MemberRefused: "refused", MemberDeleted: "deleted",
}

// String names the state as the set's rows do.
func (st MemberState) String() string {
	if st >= 0 && int(st) < len(memberStateNames) {
		return memberStateNames[st]
	}
	return fmt.Sprintf("MemberState(%d)", int(st))
}

// MemberStatus is one row of the set: the object's state and what goes
// with it.
type MemberStatus struct {
	State MemberState
	// ResourceVersion is, for MemberSaved, the version the save stored;
	// otherwise live's.
	ResourceVersion string
	// LiveResourceVersion is live's.
	LiveResourceVersion string
	// Err is why the save was refused (MemberRefused), or why the save
	// round did not resubmit a merge (MemberConflict).
	Err error
	// Failure is the session's failure, for MemberRefused after a save
	// the server refused.
	Failure *Failure
	// OpenConflicts counts the conflicts still open (MemberConflict).
	OpenConflicts int
	// Draft is set when the object has a draft.
	Draft bool
}

// Status is member i's row. It is read from the session, so that it never
// says more than the session knows: saved only after the server took the
// save (Saved, or a lost answer read back as stored).
func (s *Set) Status(i int) MemberStatus {
	m := s.members[i]
	sess := m.sess
	live, deleted := sess.Live()
	st := MemberStatus{ResourceVersion: live.ResourceVersion, LiveResourceVersion: live.ResourceVersion, Draft: sess.Draft() != nil}
	switch sess.State() {
	case StateSaving, StateWaitingTheirs:
		st.State = MemberSaving
	case StateRebasing, StateResolving:
		st.State, st.OpenConflicts, st.Err = MemberConflict, sess.OpenConflicts(), m.notResubmitted
		if s.queued(i) {
			st.State = MemberQueued
		}
	case StateFailed:
		st.State, st.Failure = MemberRefused, sess.Failure()
		if st.Failure != nil {
			st.Err = st.Failure.Err
		}
	case StateSaved:
		// The version the save stored, which base may have moved past
		// since (base follows live while there is no draft).
		st.State = MemberSaved
		if r := sess.LastSave(); r != nil {
			st.ResourceVersion = r.ResourceVersion
		}
	case StateEditing:
		st.State, st.Err = MemberDraft, sess.Draft().Err
		switch {
		case s.queued(i):
			st.State = MemberQueued
		case m.refused != nil && m.refusedText == sess.Draft().Text:
			st.State, st.Err = MemberRefused, m.refused
		}
	}
	// A save refused as the object is gone says the same: the draft is
	// kept, and creating it again is the object's own (enter, then s).
	gone := st.State == MemberRefused && st.Failure != nil && st.Failure.Kind == ErrorNotFound
	if gone || deleted && (st.State == MemberLive || st.State == MemberDraft || st.State == MemberSaved) {
		st.State = MemberDeleted
	}
	return st
}

// NextConflict returns the next member, after the one it returned last,
// whose save met a conflict that waits for the user; false when none
// does.
func (s *Set) NextConflict() (int, bool) {
	n := len(s.members)
	for k := 1; k <= n; k++ {
		i := (s.lastConflict + k + n) % n
		if s.Status(i).State == MemberConflict {
			s.lastConflict = i
			return i, true
		}
	}
	return -1, false
}

// Conflicts counts the members in a conflict that waits for the user.
func (s *Set) Conflicts() int {
	n := 0
	for i := range s.members {
		if s.Status(i).State == MemberConflict {
			n++
		}
	}
	return n
}
