package say

import (
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
)

// What a set's save round does, in words.

// Round says what a save round sends: how many drafts it saves and
// how many merges it resubmits (those with no conflict open), each with
// its own resourceVersion.
func Round(round model.SaveRound) escape.Text {
	var parts []escape.Text
	if d := len(round.Queued) - len(round.Merges); d > 0 {
		parts = append(parts, escape.Textf("saving %s", words.Count(d, "draft")))
	}
	if r := len(round.Merges); r > 0 {
		parts = append(parts, "resubmitting "+Merges(r, round.Clean))
	}
	return escape.Join(parts, " and ") + ", each with its own resourceVersion"
}

// Merges counts n merges a save round resubmits: clean ones, or
// merges with no conflict open when the user resolved some.
func Merges(n int, clean bool) escape.Text {
	if clean {
		return escape.Safe(words.Count(n, "clean merge"))
	}
	return escape.Safe(words.Count(n, "merge") + " with no conflict open")
}
