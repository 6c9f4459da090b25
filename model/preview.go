package model

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// previewRequested asks for a server-side dry run of the draft, to show what the
// server would store. It changes no state: the answer is kept for the
// draft it was asked for.
func (s *Session) previewRequested() ([]Effect, error) {
	if s.draft == nil {
		return nil, ErrNoDraft
	}
	if s.draft.Err != nil {
		return nil, s.draft.Err
	}
	o, err := s.toSave(s.draft.Object, s.base.ResourceVersion)
	if err != nil {
		return nil, err
	}
	s.preview = &preview{gen: s.gen}
	return []Effect{Save{Ref: s.ref, Object: o, ResourceVersion: s.base.ResourceVersion, Base: s.base.Object.DeepCopy(), DryRun: true}}, nil
}

func (s *Session) previewed(ev Previewed) error {
	if s.preview == nil || s.preview.done {
		return &StateError{Event: "take a dry run's result", State: s.state, Reason: "no dry run was asked for"}
	}
	s.preview.done = true
	s.preview.err = ev.Err
	if ev.Object != nil {
		s.preview.object = ev.Object.DeepCopy()
	}
	return nil
}

// preview is a dry run's answer for draft generation gen.
type preview struct {
	gen    int
	done   bool
	object *unstructured.Unstructured
	err    error
}

// DryRunResult is the server's answer to a dry run of the draft.
type DryRunResult struct {
	// Object is what the server would store.
	Object *unstructured.Unstructured
	// Err is why the server would refuse the save; KindOf classifies it.
	Err error
}

// Preview returns the server's dry run of the current draft. It is false
// when no dry run of this very draft has been answered.
func (s *Session) Preview() (DryRunResult, bool) {
	p := s.preview
	if p == nil || !p.done || p.gen != s.gen || s.draft == nil {
		return DryRunResult{}, false
	}
	return DryRunResult{Object: p.object, Err: p.err}, true
}
