package kube

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/model"
)

// Runner performs a model.Session's effects against the API server and
// reports each outcome as the event the session expects. It holds no state
// of the edit: the session does. The UI calls Perform inside a tea.Cmd.
type Runner struct {
	Client   dynamic.Interface
	Target   *Target
	Strategy Strategy
	// Cached returns the informer's latest copy of the object, if it has
	// one (Watch.Latest); nil means always read from the server.
	Cached func() (*unstructured.Unstructured, bool)
	// Drafts stores this kedit's draft of the object on disk; nil keeps
	// it in memory only.
	Drafts *drafts.Object
	// Now is the clock for the events' times; nil means time.Now.
	Now func() time.Time
	// MergeOptions are the session's merge options (diff.WithSchemas with
	// the server's schemas), with which an apply names the fields a draft
	// removes.
	MergeOptions []diff.Option
	// TimelineOut receives the session's AppendTimeline effects
	// (--timeline-out); nil ignores them.
	TimelineOut *TimelineLog
	// FieldManager is the field manager every write goes under
	// (--field-manager); FieldManager when empty.
	FieldManager string
	// Validation is what the server does with an unknown or duplicate
	// field in every write and dry run (--validate); strict when empty.
	Validation Validation
}

// saveOptions are the options of the save e asks for: the one builder of
// a save's options, from the effect and the Runner's settings.
func (r *Runner) saveOptions(e model.Save) SaveOptions {
	return SaveOptions{DryRun: e.DryRun, Force: e.Force, LeftOut: e.LeftOut,
		MergeOptions: r.MergeOptions, FieldManager: r.FieldManager, Validation: r.Validation}
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Perform carries out one effect and returns the event to hand back to the
// session, or nil when the effect has no answer (writing a draft). Effects
// that are the caller's own to schedule (RetrySave: wait, then send
// SaveRequested) return nil as well. The error is for the user only (a
// draft that could not be written); it never changes the session.
func (r *Runner) Perform(ctx context.Context, effect model.Effect) (model.Event, error) {
	switch e := effect.(type) {
	case model.Save:
		base := e.Base
		if base == nil {
			return model.SaveFailed{Err: model.ErrNoResourceVersion}, nil
		}
		strategy := r.Strategy
		if e.Update {
			// The user's choice after apply could not remove a field.
			strategy = StrategyUpdate
		}
		warned := &warnings{}
		saved, err := Save(withWarnings(ctx, warned), r.Client, r.Target, strategy, base, e.Object, r.saveOptions(e))
		if e.DryRun {
			return model.Previewed{Object: saved, Err: err}, nil
		}
		if err != nil {
			return model.SaveFailed{Err: err}, nil
		}
		return model.Saved{Object: saved, At: r.now(), Warnings: warned.take()}, nil

	case model.Create:
		if r.Target.Subresource != "" {
			// The object is gone; its status or scale cannot bring it
			// back.
			return model.SaveFailed{Err: fmt.Errorf("%s was deleted; kedit edits its %s subresource, which cannot create it again", r.Target, r.Target.Subresource)}, nil
		}
		warned := &warnings{}
		created, err := r.Target.Resource(r.Client).Create(withWarnings(ctx, warned), e.Object, r.saveOptions(model.Save{}).query().create())
		if apierrors.IsAlreadyExists(err) {
			// Someone created it again first: theirs now exists, rebase onto it.
			return model.SaveFailed{Err: &ConflictError{Target: r.Target, Err: err}}, nil
		}
		if err != nil {
			return model.SaveFailed{Err: strictRefusal(r.Target, classify(r.Target, "create", err), e.Object)}, nil
		}
		return model.Saved{Object: created, At: r.now(), Warnings: warned.take()}, nil

	case model.FetchTheirs:
		var cached *unstructured.Unstructured
		if r.Cached != nil {
			if obj, ok := r.Cached(); ok {
				cached = obj
			}
		}
		theirs, err := Theirs(ctx, r.Client, r.Target, cached, e.Fresh)
		if err != nil {
			return model.SaveFailed{Err: err}, nil
		}
		return model.Conflicted{Theirs: theirs, At: r.now()}, nil

	case model.VerifySave:
		// The answer to a save was lost: what the server has now tells
		// whether it went through. Never the watch's copy, which may not
		// have seen the write yet.
		obj, err := Get(ctx, r.Client, r.Target)
		if err != nil {
			return model.SaveFailed{Err: err}, nil
		}
		return model.SaveVerified{Object: obj, At: r.now()}, nil

	case model.WriteDraft:
		if r.Drafts == nil {
			return nil, nil
		}
		// A *drafts.SecretError or a *drafts.WriteError: the draft exists
		// only in memory, which the UI must say.
		return nil, WriteDraft(r.Drafts, e)

	case model.DeleteDraft:
		if r.Drafts == nil {
			return nil, nil
		}
		return nil, r.Drafts.Delete(e.Seq)

	case model.RetrySave:
		return nil, nil

	case model.AppendTimeline:
		if r.TimelineOut == nil {
			return nil, nil
		}
		if err := r.TimelineOut.Append(e.Ref, e.Entries); err != nil {
			return nil, fmt.Errorf("writing the timeline: %w", err)
		}
		return nil, nil
	}
	return nil, fmt.Errorf("kube: no way to perform %T", effect)
}
