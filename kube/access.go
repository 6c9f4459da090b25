package kube

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// selfSubjectAccessReviews is the resource a user asks what they may do
// with: every authenticated user may create one (system:basic-user).
var selfSubjectAccessReviews = schema.GroupVersionResource{Group: "authorization.k8s.io", Version: "v1", Resource: "selfsubjectaccessreviews"}

// SaveVerb is the request a save with strategy sends: an update, or a
// patch (a merge patch, or a server-side apply).
func SaveVerb(strategy Strategy) string {
	if strategy == StrategyPatch || strategy == StrategyApply {
		return "patch"
	}
	return "update"
}

// MaySave asks the API server, with one SelfSubjectAccessReview, whether
// the user may save t's object with strategy. It returns nil when the
// server allows it, a *ForbiddenError when it does not (its Err says the
// server's reason, if it gave one), and another error when the question
// could not be asked.
func MaySave(ctx context.Context, dc dynamic.Interface, t *Target, strategy Strategy) error {
	verb := SaveVerb(strategy)
	r := t.Mapping.Resource
	attrs := map[string]any{"verb": verb, "group": r.Group, "version": r.Version, "resource": r.Resource, "name": t.Name}
	if t.Namespaced() {
		attrs["namespace"] = t.Namespace
	}
	if t.Subresource != "" {
		attrs["subresource"] = string(t.Subresource)
	}
	review := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authorization.k8s.io/v1",
		"kind":       "SelfSubjectAccessReview",
		"spec":       map[string]any{"resourceAttributes": attrs},
	}}
	out, err := dc.Resource(selfSubjectAccessReviews).Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("asking whether you may %s %s: %w", verb, t, classify(t, "create a SelfSubjectAccessReview for", err))
	}
	if allowed, _, _ := unstructured.NestedBool(out.Object, "status", "allowed"); allowed {
		return nil
	}
	reason, _, _ := unstructured.NestedString(out.Object, "status", "reason")
	if reason == "" {
		reason = "no rule allows it"
	}
	gr := schema.GroupResource{Group: r.Group, Resource: r.Resource}
	return &ForbiddenError{Target: t, Verb: verb, Err: apierrors.NewForbidden(gr, t.Name, errors.New(reason))}
}
