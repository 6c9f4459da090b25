package model

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&APIError{Kind: ErrorInvalid, Message: "ConfigMap \"testmap\" is invalid", Causes: []FieldCause{
			{Field: "metadata.labels", Message: "Invalid value: \"-x\""},
			{Message: "no field"},
		}}, `ConfigMap "testmap" is invalid; metadata.labels: Invalid value: "-x"; no field`},
		{&APIError{Kind: ErrorForbidden, Err: errors.New("configmaps \"testmap\" is forbidden")}, `configmaps "testmap" is forbidden`},
		{&APIError{Kind: ErrorTooLarge}, "too large"},
		{&DraftError{Line: 3, Msg: "did not find expected key"}, "draft, line 3: did not find expected key"},
		{&DraftError{Line: 4, Field: "metadata.name", Msg: "is renamed"}, "draft, line 4, metadata.name: is renamed"},
		{&DraftError{Msg: "the draft is empty"}, "draft: the draft is empty"},
		{&StateError{Event: "resubmit", State: StateEditing, Reason: "nothing is being rebased"}, "cannot resubmit while editing: nothing is being rebased"},
		{&StateError{Event: "rebase", State: StateSaving}, "cannot rebase while saving"},
		{&OpenConflictsError{Open: 1, Total: 3}, "1 of 3 conflicts is still open: resolve it before resubmitting"},
		{&OpenConflictsError{Open: 2, Total: 3}, "2 of 3 conflicts are still open: resolve them before resubmitting"},
		{&StaleDraftError{DraftBase: "1", Current: "4"}, "the stored draft was made from resourceVersion 1, the object is now at 4, and base was not stored: cannot rebase it"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%T: %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	inner := errors.New("dial tcp: connection refused")
	err := fmt.Errorf("saving configmaps/testmap: %w", &APIError{Kind: ErrorUnavailable, Err: inner})
	if KindOf(err) != ErrorUnavailable || !errors.Is(err, inner) {
		t.Errorf("KindOf = %s", KindOf(err))
	}
	if KindOf(inner) != ErrorUnknown || CausesOf(inner) != nil {
		t.Error("an error without a kind is not unknown")
	}
	for k := ErrorUnknown; k <= ErrorFieldManagerConflict; k++ {
		if want := k == ErrorUnavailable || k == ErrorTimeout; k.Retryable() != want {
			t.Errorf("%s.Retryable() = %v", k, !want)
		}
		if k.String() == "" || k.String()[0] == 'E' {
			t.Errorf("ErrorKind(%d) has no name", int(k))
		}
	}
	if s := ErrorKind(99).String(); s != "ErrorKind(99)" {
		t.Errorf("unknown kind = %q", s)
	}
}

func TestNames(t *testing.T) {
	for st, want := range map[State]string{StateViewing: "viewing", StateResolving: "resolving", State(42): "State(42)"} {
		if st.String() != want {
			t.Errorf("%d: %q", int(st), st.String())
		}
	}
	for lt, want := range map[LiveType]string{LiveAdded: "added", LiveModified: "modified", LiveDeleted: "deleted"} {
		if lt.String() != want {
			t.Errorf("%d: %q", int(lt), lt.String())
		}
	}
}
