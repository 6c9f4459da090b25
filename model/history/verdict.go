package history

// Verdict is what Analyze found of one write: the worst of its findings,
// else whether it could be judged.
type Verdict string

// The verdicts, worst first.
const (
	// VerdictLost: the write replaced another client's change that its
	// writer had not seen (a lost update).
	VerdictLost Verdict = "lost"
	// VerdictBlind: the write replaced another client's value, and the
	// log has no read of the object by its writer.
	VerdictBlind Verdict = "blind"
	// VerdictReverted: the write set a field back to its value before
	// another client's change, which its writer may have read.
	VerdictReverted Verdict = "reverted"
	// VerdictInconclusive: the log does not hold what it takes to judge
	// the write (its body, what its writer read, the change before it).
	VerdictInconclusive Verdict = "inconclusive"
	// VerdictOK: the write was judged, and replaced nothing unseen.
	VerdictOK Verdict = "ok"
	// VerdictNone: not a write that can replace another's change: a
	// creation or a deletion.
	VerdictNone Verdict = ""
)

// setVerdicts gives each version its verdict, from the findings and each
// write's base.
func (h *History) setVerdicts(bases []base, readsLogged bool) {
	worst := map[int]Verdict{}
	mark := func(ls []Loss, v Verdict) {
		for _, l := range ls {
			if _, ok := worst[l.OverwrittenBy]; !ok {
				worst[l.OverwrittenBy] = v
			}
		}
	}
	mark(h.LostUpdates, VerdictLost)
	mark(h.BlindWrites, VerdictBlind)
	mark(h.Reverted, VerdictReverted)
	for i := range h.Versions {
		v := &h.Versions[i]
		switch {
		case v.Deleted || v.creation || v.Verb == VerbCreate:
			v.Verdict = VerdictNone
		case worst[i] != "":
			v.Verdict = worst[i]
		case unjudgedOf(h.Versions, i, bases[i], readsLogged) != judged:
			v.Verdict = VerdictInconclusive
		default:
			v.Verdict = VerdictOK
		}
	}
}
