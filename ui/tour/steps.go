package tour

import "strings"

// The steps: what each says to do, when it is done, how the session
// leaves its path, and what to do first when it starts elsewhere.

// Steps are the tour's steps in order; README's tutorial lists each
// Title and Do (TestREADMETutorialIsTheTour).
var Steps = []Step{
	{Title: "Make a draft.", Do: "press e, change foo to mine, save and quit your editor", Reset: true, SkipDraftFoo: "mine",
		done: func(_, now Facts, _ seen) bool { return now.Draft && now.DraftFoo != now.BaseFoo }},
	{Title: "Make a same-field conflict.", Do: "press w, wait for \"changed on server\", then press s", Writes: WritesMine,
		done: func(_, now Facts, _ seen) bool { return now.OpenConflicts > 0 },
		off: func(now Facts) string {
			return when(now.clean(), "a clean rebase opened, not a conflict: demo-writer wrote another field than your draft changes")
		},
		first: func(now Facts) string {
			if now.Rebasing {
				return ""
			}
			return firsts(toObject(now), when(!now.draftsFoo(), draftDo))
		}},
	{Title: "Resolve it.", Do: "press m, then press s", firstWrites: WritesMine,
		done: func(start, now Facts, _ seen) bool { return saved(start.SavedRV, now) },
		first: func(now Facts) string {
			switch {
			case now.Rebasing:
				return ""
			case !now.draftsFoo():
				return firsts(toObject(now), draftDo, conflictFirst)
			case now.Stale && now.LiveFoo != now.BaseFoo:
				// The server's foo moved since the draft's base: s
				// meets it.
				return firsts(toObject(now), "press s, wait for \"1 conflict\"")
			}
			return firsts(toObject(now), conflictFirst)
		}},
	{Title: "Make a clean rebase.", Do: "press e, change foo to mine2, save and quit your editor; then press w, wait for \"changed on server\", press s, wait for \"clean rebase\", press s", Writes: WritesOther,
		done: func(start, now Facts, s seen) bool { return s.clean && saved(start.SavedRV, now) },
		off: func(now Facts) string {
			return when(now.Rebasing && now.Conflicts > 0, "a conflict opened, not a clean rebase: demo-writer wrote foo, which your draft changes")
		},
		first: func(now Facts) string {
			switch {
			case now.Rebasing && now.OpenConflicts > 0:
				// The skipped step's conflict: resolved and saved, the
				// draft is based on the live version again.
				return "press m, then press s, wait for \"saved rv\""
			case now.Rebasing:
				return "press s, wait for \"saved rv\""
			}
			return firsts(toObject(now), when(now.Stale, discardDo))
		}},
	{Title: "Read the timeline.", Do: "press t, then press esc", quiet: "nothing was sent: the timeline shows the versions the watch brought",
		done: func(_, now Facts, s seen) bool { return s.timeline && !now.Timeline },
		first: func(now Facts) string {
			if now.Timeline {
				return ""
			}
			return toObject(now)
		}},
	{Title: "Read the blame.", Do: "press b", Reset: true,
		quiet: "nothing more was sent: blame reads the managedFields of the version the watch brought",
		done:  func(_, now Facts, _ seen) bool { return now.Blame },
		first: toObject},
	{Title: "Lose an update, find it, undo it.", Do: "press e, change foo to mine, save and quit your editor; then press W, wait for \"writes it back in 5 s\", press s, wait for \"a lost update\", press t, wait for \"LOST\", press enter, press u, press s", Reset: true,
		done: func(_, now Facts, s seen) bool { return s.lost && saved(s.lostSaved, now) },
		off: func(now Facts) string {
			return when(now.Rebasing, "a rebase opened: the object changed before your save, so alice's write cannot lose it")
		},
		first: func(now Facts) string {
			// A draft on an older version would rebase, not lose.
			return firsts(toObject(now), when(now.Rebasing || now.Stale, discardDo))
		}},
	{Title: "Set foo to 2 only if foo is 1.", Do: "press A, wait for \"1 won\"", Reset: true,
		done:  func(start, now Facts, _ seen) bool { return now.Races > start.Races },
		first: toObject},
}

// What a step's first says, in Do's words.
const (
	draftDo = "press e, change foo to mine, save and quit your editor"
	// conflictFirst is the conflict's step, waiting for its end.
	conflictFirst = "press w, wait for \"changed on server\", press s, wait for \"1 conflict\""
	discardDo     = "press x, then press y"
)

// toObject is the way back to the object view, whose keys the steps
// press, from the view that shows; "" when it shows.
func toObject(now Facts) string {
	switch {
	case now.Object:
		return ""
	case now.Rebasing && !now.Timeline:
		// esc leaves the conflict view, and the rebase; the draft stays.
		return "press esc"
	}
	return "press esc until the object shows"
}

// firsts joins the things to do first, those said.
func firsts(do ...string) string {
	var said []string
	for _, d := range do {
		if d != "" {
			said = append(said, d)
		}
	}
	return strings.Join(said, "; then ")
}

// when is text when cond holds, else "".
func when(cond bool, text string) string {
	if cond {
		return text
	}
	return ""
}

// saved: a save the server took since the one before (before, "" for
// none), nothing left to save or resolve.
func saved(before string, now Facts) bool {
	return now.SavedRV != "" && now.SavedRV != before && !now.Draft && !now.Rebasing
}
