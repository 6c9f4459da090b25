package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
)

// FieldManager is the field manager kedit writes under, as update and as
// server-side apply, unless --field-manager names another
// (SaveOptions.FieldManager, Runner.FieldManager).
const FieldManager = model.FieldManager

// Strategy says how a save is sent. Every strategy is conflict-safe: each
// carries base's resourceVersion, so a save over a change made meanwhile
// gets 409 Conflict instead of overwriting it.
type Strategy string

// The save strategies of --strategy.
const (
	// StrategyUpdate PUTs the whole draft with base's resourceVersion.
	StrategyUpdate Strategy = "update"
	// StrategyPatch sends a JSON merge patch from base to the draft with
	// metadata.resourceVersion in it, which the server treats as a
	// precondition.
	StrategyPatch Strategy = "patch"
	// StrategyApply sends a server-side apply as field manager kedit with
	// base's resourceVersion as a precondition, forced only for the fields
	// the user took from other managers in the conflict view (see
	// applyDraft).
	StrategyApply Strategy = "apply"
)

// Strategies lists the valid strategies in the order help shows them.
var Strategies = []Strategy{StrategyUpdate, StrategyPatch, StrategyApply}

// ParseStrategy reads the value of --strategy.
func ParseStrategy(s string) (Strategy, error) {
	for _, v := range Strategies {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown save strategy %q: use update, patch or apply", s)
}

// SaveOptions tune a save.
type SaveOptions struct {
	// DryRun asks the server to validate and return the object it would
	// store without storing it.
	DryRun bool
	// Force makes a server-side apply take the fields other managers own.
	Force bool
	// LeftOut are fields an apply leaves out on purpose (model.Save's
	// LeftOut): not removals to refuse.
	LeftOut []string
	// MergeOptions are the session's merge options (diff.WithSchemas):
	// an apply names the fields a draft removes with them.
	MergeOptions []diff.Option
	// FieldManager is the field manager the save goes under;
	// FieldManager when empty.
	FieldManager string
	// Validation is what the server does with an unknown or duplicate
	// field (--validate); strict when empty.
	Validation Validation
}

// manager is the field manager the save goes under.
func (o SaveOptions) manager() string {
	if o.FieldManager == "" {
		return FieldManager
	}
	return o.FieldManager
}

// The query parameters of every write kedit sends (an update, a merge
// patch, an apply, a create, a conditional patch), built in one place:
// a parameter added to writeQuery reaches each of them.

// writeQuery is what a write's query says: the field manager, a dry
// run, and what the server does with an unknown or duplicate field.
type writeQuery struct {
	fieldManager    string
	dryRun          []string
	fieldValidation string
}

// query is the query of a write with options o.
func (o SaveOptions) query() writeQuery {
	q := writeQuery{fieldManager: o.manager(), fieldValidation: o.Validation.param()}
	if o.DryRun {
		q.dryRun = []string{metav1.DryRunAll}
	}
	return q
}

// update is q as an update's options.
func (q writeQuery) update() metav1.UpdateOptions {
	return metav1.UpdateOptions{FieldManager: q.fieldManager, DryRun: q.dryRun, FieldValidation: q.fieldValidation}
}

// patch is q as a patch's options; force is an apply's (nil for others).
func (q writeQuery) patch(force *bool) metav1.PatchOptions {
	return metav1.PatchOptions{FieldManager: q.fieldManager, Force: force, DryRun: q.dryRun, FieldValidation: q.fieldValidation}
}

// create is q as a create's options.
func (q writeQuery) create() metav1.CreateOptions {
	return metav1.CreateOptions{FieldManager: q.fieldManager, DryRun: q.dryRun, FieldValidation: q.fieldValidation}
}

// Save sends draft as the new state of the object base was read from,
// conditioned on base's resourceVersion, and returns what the server stored
// (or, with DryRun, would store). Failures are the typed errors of this
// package; a *ConflictError means the object changed since base, a
// *diff.IdentityError that draft names another object than base: kedit
// edits one object and never saves it under another name.
func Save(ctx context.Context, dc dynamic.Interface, t *Target, strategy Strategy, base, draft *unstructured.Unstructured, opts SaveOptions) (*unstructured.Unstructured, error) {
	rv := base.GetResourceVersion()
	if rv == "" {
		return nil, model.ErrNoResourceVersion
	}
	if err := diff.SameObject(base, draft, "mine"); err != nil {
		return nil, err
	}
	ri := t.Resource(dc)
	sub := t.Subresource.args()
	switch strategy {
	case StrategyUpdate, "":
		obj := draft.DeepCopy()
		obj.SetResourceVersion(rv)
		// Leaving managedFields out of an update keeps the server's record.
		diff.DropManagedFields(obj)
		out, err := ri.Update(ctx, obj, opts.query().update(), sub...)
		return t.viewOf(out), sizeRefusal(t, strictRefusal(t, classify(t, "update", err), obj), obj)

	case StrategyPatch:
		patch, err := t.mergePatch(base, draft, rv)
		if err != nil {
			return nil, err
		}
		out, err := ri.Patch(ctx, t.Name, types.MergePatchType, patch, opts.query().patch(nil), sub...)
		return t.viewOf(out), sizeRefusal(t, strictRefusal(t, classify(t, "patch", err), draft), draft)

	case StrategyApply:
		return applyDraft(ctx, ri, t, base, draft, opts)
	}
	return nil, fmt.Errorf("unknown save strategy %q", strategy)
}

// classifyApply reads the two answers the uid precondition of an apply
// gives: the object is gone, or it was deleted and created again.
func classifyApply(t *Target, err error) error {
	if err == nil {
		return nil
	}
	if apierrors.IsConflict(err) && strings.Contains(err.Error(), "no existing object was found") {
		return &NotFoundError{Target: t, Err: err}
	}
	if apierrors.IsInvalid(err) {
		for _, c := range statusCauses(err) {
			if c.Field == "metadata.uid" {
				return &ConflictError{Target: t, Err: err}
			}
		}
	}
	return classify(t, "apply", err)
}

// mergePatch is the JSON merge patch from base to draft, with base's
// resourceVersion as the precondition.
func (t *Target) mergePatch(base, draft *unstructured.Unstructured, rv string) ([]byte, error) {
	from, to := base.DeepCopy(), draft.DeepCopy()
	t.stripServerOwned(from)
	t.stripServerOwned(to)
	fromJSON, err := json.Marshal(from.Object)
	if err != nil {
		return nil, err
	}
	toJSON, err := json.Marshal(to.Object)
	if err != nil {
		return nil, err
	}
	raw, err := jsonpatch.CreateMergePatch(fromJSON, toJSON)
	if err != nil {
		return nil, fmt.Errorf("computing the merge patch: %w", err)
	}
	var patch map[string]any
	if err := json.Unmarshal(raw, &patch); err != nil {
		return nil, err
	}
	meta, _ := patch["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		patch["metadata"] = meta
	}
	meta["resourceVersion"] = rv
	return json.Marshal(patch)
}

// stripServerOwned removes what the server owns and a client must not send
// in an apply (managedFields) or need not send in a patch; a status edit
// sends status.
func (t *Target) stripServerOwned(obj *unstructured.Unstructured) {
	diff.StripServerOwned(obj, t.MergeOptions()...)
}

// Theirs returns the object as it is on the server now, after a save hit
// a conflict: the informer's latest copy when there is one and fresh is
// not set, else a GET. It does not judge the copy: the session checks
// that theirs is newer than base, and asks again with fresh when the
// informer's copy is not (model.FetchTheirs).
func Theirs(ctx context.Context, dc dynamic.Interface, t *Target, cached *unstructured.Unstructured, fresh bool) (*unstructured.Unstructured, error) {
	if cached != nil && cached.GetResourceVersion() != "" && !fresh {
		return cached.DeepCopy(), nil
	}
	return Get(ctx, dc, t)
}

// Get reads the target from the server (its subresource, when it names
// one); a failure is one of this package's typed errors (a missing object
// names where it was looked for).
func Get(ctx context.Context, dc dynamic.Interface, t *Target) (*unstructured.Unstructured, error) {
	var obj *unstructured.Unstructured
	var err error
	if t.Subresource == SubresourceScale {
		obj, err = getScale(ctx, t.Resource(dc), t)
	} else {
		obj, err = t.Resource(dc).Get(ctx, t.Name, metav1.GetOptions{}, t.Subresource.args()...)
	}
	if err != nil {
		return nil, classify(t, "get", err)
	}
	return t.viewOf(obj), nil
}

// viewOf is what t edits of obj, an answer of t's own endpoint (the
// object, its status or its Scale): the status view of a status
// subresource's answer, which is the whole object.
func (t *Target) viewOf(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil || t.Subresource != SubresourceStatus {
		return obj
	}
	return statusView(obj)
}
