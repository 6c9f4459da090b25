package say

// How a failed save is said in words: Failure and its parts. They
// read kube's typed errors, so they live beside App, which hands the
// words to the views.

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Failure says in plain words why a save did not go through, and what
// the user can do; the draft is always kept.
func Failure(f *model.Failure) escape.Text {
	if f == nil {
		return ""
	}
	if retrying(f) {
		return Retry(f, 0)
	}
	return failureWhy(f) + " (the draft is kept)"
}

// CauseLines says on which lines of the draft's text the fields of a
// refused save are, `; on line 31 of the draft`, so that a field the
// server does not know is found; "" when none is found.
func CauseLines(text string, causes []model.FieldCause) escape.Text {
	lines := strings.Split(text, "\n")
	var at []int
	for _, c := range causes {
		if l := common.CauseLine(lines, c.Field); l >= 0 && !slices.Contains(at, l+1) {
			at = append(at, l+1)
		}
	}
	switch len(at) {
	case 0:
		return ""
	case 1:
		return escape.Textf("; on line %d of the draft", at[0])
	}
	nums := make([]string, len(at))
	for i, l := range at {
		nums[i] = strconv.Itoa(l)
	}
	return escape.Safe("; on lines " + strings.Join(nums, ", ") + " of the draft")
}

// retrying reports whether f is a failure the save is tried again after.
func retrying(f *model.Failure) bool {
	return f.Kind == model.ErrorUnavailable || f.Kind == model.ErrorTimeout
}

// failureWhy is Failure of a failure not tried again, without what
// becomes of the draft: what failed, and the causes.
func failureWhy(f *model.Failure) escape.Text {
	s := failureKindText(f)
	var causes []escape.Text
	for _, c := range f.Causes {
		causes = append(causes, common.CauseText(c))
	}
	if len(causes) > 0 {
		s += ": " + escape.Join(causes, "; ")
	}
	return s
}

// Retry says that a save which got no answer is tried again: whether
// it may have been stored (then the object is read back first) or surely
// was not (a 429, the API server's own 503, no connection at all), the
// attempt and, with next, when it goes again. The server's own words (a
// timeout, a reset, a 502) come last, so that what the user acts on is not
// what a narrow status line cuts.
func Retry(f *model.Failure, next time.Duration) escape.Text {
	landed := model.MayHaveLanded(f.Err)
	s := escape.Textf("the save was not taken; retrying (attempt %d)", f.Attempt)
	if landed {
		s = escape.Textf("the save did not get an answer; retrying (attempt %d)", f.Attempt)
	}
	if next > 0 {
		s += escape.Textf(", next try in %s", next.Round(time.Second))
	}
	if landed {
		s += ", after reading the object back in case it went through"
	}
	s += " (the draft is kept)"
	if f.Err != nil {
		s += ": " + escape.Safe(f.Err.Error())
	}
	return s
}

// failureKindText says what kind of failure f is, before its causes
// (Retry says the kinds that are tried again).
func failureKindText(f *model.Failure) escape.Text {
	switch f.Kind {
	case model.ErrorInvalid:
		if ie := (*kube.InvalidError)(nil); errors.As(f.Err, &ie) {
			return "the server refused the draft as invalid (" + escape.Safe(ie.Status()) + ")"
		}
		return "the server refused the draft as invalid (422)"
	case model.ErrorForbidden:
		return "forbidden: you may not update this object (403)"
	case model.ErrorNotFound:
		return "the object was deleted on the server; s creates it again from the draft, x discards the draft"
	case model.ErrorTooLarge:
		return "the object is too large for the API server (413)"
	case model.ErrorImmutable:
		return "the object, or a field of it, is immutable and cannot change"
	case model.ErrorUnauthorized:
		return "the server does not accept your credentials (401)"
	case model.ErrorRefused:
		return refusedText(f)
	case model.ErrorFieldManagerConflict:
		return "server-side apply: fields are owned by another manager"
	case model.ErrorRecreated:
		return "not saved: " + escape.Safe(f.Err.Error()) + "; s asks before saving it onto the new one"
	case model.ErrorApplyCannotRemove:
		return "not sent: server-side apply cannot remove a field another manager owns; u sends this save as an update (a PUT with base's resourceVersion) instead"
	}
	if f.Err != nil {
		return "the save failed: " + escape.Safe(f.Err.Error())
	}
	return "the save failed"
}

// refusedText says that the server refused the save: an answer, final,
// in the server's words, which name the field, if any.
func refusedText(f *model.Failure) escape.Text {
	var s escape.Text = "the server refused the save"
	var r *kube.RefusedError
	switch {
	case errors.As(f.Err, &r):
		s += " (" + escape.Safe(r.Status()) + ")"
		if len(f.Causes) == 0 {
			s += ": " + escape.Safe(r.Message())
		}
	case len(f.Causes) == 0 && f.Err != nil:
		s += ": " + escape.Safe(f.Err.Error())
	}
	return s
}

// Refusal says why the server would refuse the save, in the status
// bar's words for a save that failed.
func Refusal(kind model.ErrorKind, err error) escape.Text {
	switch kind {
	case model.ErrorConflict:
		return "the object changed on the server since the draft's base (a save would conflict; r rebases)"
	case model.ErrorInvalid:
		return "invalid (422): each cause is under its line"
	}
	f := &model.Failure{Kind: kind, Err: err}
	if retrying(f) {
		return Retry(f, 0)
	}
	return failureWhy(f)
}
