package say

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// TestNoAnswerWordsSayWhetherItMayHaveLanded: a save that got no answer
// says it is read back before it goes again; one the server refused for
// now (429) says only that it was not taken.
func TestNoAnswerWordsSayWhetherItMayHaveLanded(t *testing.T) {
	lost := &model.Failure{Kind: model.ErrorUnavailable, Attempt: 2, Err: &kube.UnavailableError{Err: errors.New("connection reset by peer")}}
	if got := string(Failure(lost)); !strings.Contains(got, "did not get an answer") || !strings.Contains(got, "reading the object back") {
		t.Errorf("a lost answer reads %q", got)
	}
	busy := &model.Failure{Kind: model.ErrorUnavailable, Attempt: 1,
		Err: &kube.UnavailableError{Code: 429, Busy: true, Err: apierrors.NewTooManyRequests("slow down", 3)}}
	if got := string(Failure(busy)); !strings.Contains(got, "the save was not taken; retrying (attempt 1) (the draft is kept): the API server is busy (429 Too Many Requests)") || strings.Contains(got, "reading the object back") {
		t.Errorf("a 429 reads %q", got)
	}
}

// TestSavedTextNeverSaysASecretsValue: the saved message names a field the
// server stored otherwise, but for a Secret never its value.
func TestSavedTextNeverSaysASecretsValue(t *testing.T) {
	r := &model.SaveReport{ResourceVersion: "9", NotStored: []diff.Mismatch{{
		Path:   fieldpath.MakePathOrDie("data", "token"),
		Sent:   diff.FieldValue{Present: true, Value: "mine-s3cr3t"},
		Stored: diff.FieldValue{Present: true, Value: "server-s3cr3t"},
	}}}
	text, whole := Saved("9", r, true)
	if whole || strings.Contains(string(text), "s3cr3t") || !strings.Contains(string(text), ".data.token") {
		t.Errorf("saved text for a Secret: %q", text)
	}
	if text, _ := Saved("9", r, false); !strings.Contains(string(text), "server-s3cr3t") {
		t.Errorf("saved text for a ConfigMap does not say the value: %q", text)
	}
}

// TestRoundCountsDraftsAndMerges: a set's save round says how many drafts
// it saves and how many merges it resubmits, never a merge as a draft.
func TestRoundCountsDraftsAndMerges(t *testing.T) {
	for _, c := range []struct {
		round model.SaveRound
		want  string
	}{
		{model.SaveRound{Queued: []int{0, 1}}, "saving 2 drafts, each with its own resourceVersion"},
		{model.SaveRound{Queued: []int{0, 1, 2}, Merges: []int{2}, Clean: true}, "saving 2 drafts and resubmitting 1 clean merge, each with its own resourceVersion"},
		{model.SaveRound{Queued: []int{3}, Merges: []int{3}}, "resubmitting 1 merge with no conflict open, each with its own resourceVersion"},
	} {
		if got := string(Round(c.round)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.round, got, c.want)
		}
	}
}
