package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
)

// ApplyRemoveError is a save by server-side apply that kedit did not send:
// the draft removes fields other field managers own, and an apply only
// stops claiming a field, it removes one only when no one else owns it.
// The save would report success with the fields still there. An update
// (a PUT with base's resourceVersion) removes them.
type ApplyRemoveError struct {
	Target *Target
	// Owners are the fields the draft removes and their managers.
	Owners []model.OwnedField
}

func (e *ApplyRemoveError) Error() string {
	parts := make([]string, len(e.Owners))
	for i, o := range e.Owners {
		parts[i] = fmt.Sprintf("%s (owned by %s)", o.Field, o.Manager)
	}
	return fmt.Sprintf("server-side apply cannot remove %s from %s: other field managers own them; an update removes them", strings.Join(parts, ", "), e.Target)
}

// ErrorKind implements model.KindedError.
func (e *ApplyRemoveError) ErrorKind() model.ErrorKind { return model.ErrorApplyCannotRemove }

// FieldCauses names each field and its owner.
func (e *ApplyRemoveError) FieldCauses() []model.FieldCause {
	out := make([]model.FieldCause, len(e.Owners))
	for i, o := range e.Owners {
		out[i] = model.FieldCause{Field: o.Field, Message: "owned by " + o.Manager}
	}
	return out
}

var (
	_ model.KindedError    = (*ApplyRemoveError)(nil)
	_ model.CausedError    = (*ApplyRemoveError)(nil)
	_ model.OwnershipError = (*ConflictError)(nil)
)

// applyDraft saves draft by server-side apply as field manager kedit,
// conditioned on base's resourceVersion:
//
//   - A draft that removes fields other managers own is not sent: an
//     *ApplyRemoveError says so.
//   - Fields kedit wrote with update or patch are first moved to its apply
//     manager (client-go's csaupgrade, as kubectl apply does), so that its
//     own apply does not conflict with them; the move is a JSON patch of
//     managedFields that carries base's resourceVersion, so a change made
//     meanwhile makes it fail with a conflict.
//   - An apply refused because other managers own fields is a
//     *ConflictError naming them, with the object read back, when the
//     object is still as base had it; when it changed, the refusal is a
//     conflict like any other (the apply checks ownership before the
//     resourceVersion), for the rebase to merge.
//
// A dry run does not move kedit's fields, which it cannot do without
// writing.
func applyDraft(ctx context.Context, ri dynamic.ResourceInterface, t *Target, base, draft *unstructured.Unstructured, opts SaveOptions) (*unstructured.Unstructured, error) {
	// Force takes fields whose values collide; it removes nothing
	// another manager owns either.
	if err := checkRemovals(t, base, draft, opts.LeftOut, opts.MergeOptions, opts.manager()); err != nil {
		return nil, err
	}
	at := base
	// The fields kedit wrote by update to a subresource are recorded for
	// it, which client-go's move does not handle: an apply there goes as
	// it is.
	if !opts.DryRun && t.Subresource == "" {
		migrated, err := migrateToApply(ctx, ri, t, base, opts.manager())
		if err != nil {
			return nil, err
		}
		at = migrated
	}
	obj := draft.DeepCopy()
	t.stripServerOwned(obj)
	obj.SetResourceVersion(at.GetResourceVersion())
	// An apply creates a missing object, resourceVersion or not; base's
	// uid makes the server refuse instead, so a save never brings back
	// an object deleted meanwhile.
	obj.SetUID(base.GetUID())
	body, err := json.Marshal(obj.Object)
	if err != nil {
		return nil, err
	}
	force := opts.Force
	out, err := ri.Patch(ctx, t.Name, types.ApplyPatchType, body, opts.query().patch(&force),
		t.Subresource.args()...)
	out = t.viewOf(out)
	err = sizeRefusal(t, strictRefusal(t, classifyApply(t, err), obj), obj)
	var ce *ConflictError
	if errors.As(err, &ce) && len(ce.Managers) > 0 {
		return nil, ownershipOrMoved(ctx, ri, t, base, ce, opts.MergeOptions)
	}
	return out, err
}

// ownershipOrMoved reads the object after an apply refused for ownership:
// still base's content, the refusal stands, with the object; otherwise it
// is a conflict with the change made meanwhile.
func ownershipOrMoved(ctx context.Context, ri dynamic.ResourceInterface, t *Target, base *unstructured.Unstructured, ce *ConflictError, mergeOpts []diff.Option) error {
	now, err := ri.Get(ctx, t.Name, metav1.GetOptions{}, t.Subresource.args()...)
	if err != nil {
		return classify(t, "get", err)
	}
	now = t.viewOf(now)
	same, err := sameContent(base, now, mergeOpts)
	if err != nil {
		return err
	}
	if !same {
		return &ConflictError{Target: t, Err: ce.Err}
	}
	ce.Current = now
	return ce
}

// sameContent says whether now holds base's content, leaving out what the
// server maintains (resourceVersion, managedFields, status ...).
func sameContent(base, now *unstructured.Unstructured, mergeOpts []diff.Option) (bool, error) {
	m, err := diff.MergeObjects(base, base, now, mergeOpts...)
	if err != nil {
		return false, err
	}
	return len(m.Changes) == 0, nil
}

// migrateToApply moves the fields kedit's manager owns through update or
// patch to its apply manager, and returns the object as it is then (base
// itself when there was nothing to move).
func migrateToApply(ctx context.Context, ri dynamic.ResourceInterface, t *Target, base *unstructured.Unstructured, manager string) (*unstructured.Unstructured, error) {
	patch, err := csaupgrade.UpgradeManagedFieldsPatch(base, sets.New(manager), manager)
	if err != nil {
		return nil, fmt.Errorf("moving kedit's fields to its apply manager: %w", err)
	}
	if patch == nil {
		return base, nil
	}
	out, err := ri.Patch(ctx, t.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return nil, classify(t, "patch", err)
	}
	return out, nil
}

// checkRemovals refuses a draft that removes fields another manager owns
// in base, but for those left out on purpose. kedit's own fields count as
// its apply's: migrateToApply moves those written by update before the
// apply.
func checkRemovals(t *Target, base, draft *unstructured.Unstructured, leftOut []string, mergeOpts []diff.Option, manager string) error {
	removed, err := diff.RemovedFields(base, draft, mergeOpts...)
	if err != nil || removed.Empty() {
		// Without the fields named there is nothing to check; the report
		// after the save still says what was not removed.
		return nil
	}
	owners := map[string][]string{}
	for _, e := range base.GetManagedFields() {
		if e.Manager == manager || e.Subresource != "" {
			continue
		}
		owned, ok := model.OwnedFields(&e)
		if !ok {
			continue
		}
		owned.Intersection(removed).Iterate(func(p fieldpath.Path) {
			k := p.String()
			for _, l := range leftOut {
				if k == l || strings.HasPrefix(k, l) && (k[len(l)] == '.' || k[len(l)] == '[') {
					return
				}
			}
			owners[k] = append(owners[k], e.Manager)
		})
	}
	if len(owners) == 0 {
		return nil
	}
	paths := make([]string, 0, len(owners))
	for p := range owners {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	e := &ApplyRemoveError{Target: t}
	for _, p := range paths {
		e.Owners = append(e.Owners, model.OwnedField{Field: p, Manager: strings.Join(owners[p], ", ")})
	}
	return e
}
