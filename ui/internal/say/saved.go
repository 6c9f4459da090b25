package say

import (
	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Kept ends what a save says when the server stored otherwise than
// the draft at some path: the draft was kept with the user's text.
const Kept escape.Text = ": the draft keeps what you wrote (x discards it, e edits it)"

// KeptInSet says the same in a set's view, whose keys are not the
// object's: the object's own view discards or edits it.
const KeptInSet escape.Text = ": the draft keeps what you wrote (enter opens it: x discards it, e edits it)"

// AutoRebased says what --auto-rebase resubmitted: `auto-rebased onto
// rv 815, merged: .data.bar (theirs), .data.foo (mine)`.
func AutoRebased(a model.AutoRebase) escape.Text {
	return "auto-rebased onto rv " + escape.Safe(a.OntoRV) + ", merged: " + changeList(a.Merge)
}

// changeList names a merge's changes for the status bar.
func changeList(mg *diff.ObjectMerge) escape.Text {
	if len(mg.Changes) == 0 {
		return "nothing"
	}
	var paths []escape.Text
	for _, c := range mg.Changes {
		paths = append(paths, escape.Safe(c.Where())+" ("+escape.Safe(c.Side.String())+")")
	}
	return escape.Join(paths, ", ")
}

// Saved says that a save went through at rv, and, from the session's
// report, what it forced and what the server stored otherwise than the
// draft said: `saved rv 812, but .data.baz is still on the server`. It
// reports false when the server did not store the draft whole. A Secret's
// value is never said (secret): only that it differs.
func Saved(rv string, r *model.SaveReport, secret bool) (escape.Text, bool) {
	esc := escape.Safe
	text := "saved rv " + esc(rv)
	if r == nil {
		return text, true
	}
	if r.Unchanged {
		// Nothing was written: rv is the version the server had.
		text = "nothing to write: rv " + esc(rv) + " already holds it"
	}
	if r.AsUpdate {
		text += " as an update"
	}
	if r.NewObject != "" {
		text += " onto the new object (uid " + esc(common.ShortUID(r.NewObject)) + ")"
	}
	if r.ServerRebases > 0 {
		// A hot object: the conflict view never opened, so say why the
		// save went with another resourceVersion than base's.
		text += " (rebased at once onto rv " + esc(r.RebasedOnto) + ": only its status had changed on the server)"
	}
	if r.RebasedAgain.Rounds > 0 {
		text += " (" + Again(r.RebasedAgain) + ")"
	}
	if r.Verified {
		text += " (the server's answer was lost; read back, the object holds the draft, so nothing was sent again)"
	}
	if len(r.Forced) > 0 {
		var taken []escape.Text
		for _, f := range r.Forced {
			taken = append(taken, esc(f.Field)+" from "+esc(f.Manager))
		}
		text += ", applied with force: took " + escape.Join(taken, ", ")
	}
	buts := notStored(r.NotStored, secret)
	if len(buts) > 0 {
		text += ", but " + escape.Join(buts, ", ")
	}
	if len(r.Warnings) > 0 {
		// The server's own words, one per field it dropped (--validate=warn).
		warned := make([]escape.Text, len(r.Warnings))
		for i, w := range r.Warnings {
			warned[i] = escape.Safe(w)
		}
		text += "; the server warned: " + escape.Join(warned, "; ")
	}
	return text, len(buts) == 0 && len(r.Warnings) == 0
}

// notStored says, field by field, what the server stored otherwise
// than the draft said, escaped; a Secret's value only that it differs.
func notStored(notStored []diff.Mismatch, secret bool) []escape.Text {
	var buts []escape.Text
	for _, ms := range notStored {
		p := escape.Safe(ms.Path.String())
		switch {
		case !ms.Sent.Present:
			buts = append(buts, p+" is still on the server")
		case !ms.Stored.Present:
			buts = append(buts, p+" is not on the server")
		case secret && common.IsSecretValue(ms.Path):
			buts = append(buts, p+" is otherwise on the server")
		default:
			buts = append(buts, p+" is "+common.ShortValue(ms.Stored)+" on the server")
		}
	}
	return buts
}

// Again says what the last rebase resubmitted at once merged:
// `rebased again onto rv 3311: .data.heartbeat by heartbeater`.
func Again(a model.RebaseAgain) escape.Text {
	text := escape.Textf("rebased again onto rv %s: %s", a.OntoRV, common.SafeList(a.Changes, ", "))
	if a.Manager != "" {
		text += " by " + escape.Safe(a.Manager)
	}
	if a.Rounds > 1 {
		text += escape.Textf(" (%d in a row)", a.Rounds)
	}
	return text
}

// AgainStopped says why a clean rebase waits for the user although the
// object's data was being rebased at once.
func AgainStopped(a model.RebaseAgain) escape.Text {
	return escape.Textf("rebased again %s in a row and the object changed again each time: this rebase waits for you; s resubmits it", words.Count(a.Rounds, "time"))
}
