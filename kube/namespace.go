package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NamespaceNotFoundError: the server says a namespace does not exist.
type NamespaceNotFoundError struct {
	Name string
	// Context is the kubeconfig context asked.
	Context string
	Err     error
}

func (e *NamespaceNotFoundError) Error() string {
	msg := fmt.Sprintf("namespace %q does not exist", e.Name)
	if e.Context != "" {
		msg += fmt.Sprintf(" (context %q)", e.Context)
	}
	return msg
}
func (e *NamespaceNotFoundError) Unwrap() error { return e.Err }

// CheckNamespace asks the server whether namespace name exists, reading
// its metadata only: nil when it does, a *NamespaceNotFoundError when it
// does not. Any other answer means kedit cannot tell: a
// *ForbiddenListError (verb get) for a user who may not read namespaces,
// which is common for a user confined to one, or why the server did not
// answer.
func (c *Cluster) CheckNamespace(ctx context.Context, name string) error {
	_, err := c.Metadata.Resource(namespacesResource).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return &NamespaceNotFoundError{Name: name, Context: c.Context, Err: err}
	}
	return classifyList(&Collection{Context: c.Context, Mapping: &meta.RESTMapping{
		Resource: namespacesResource, Scope: meta.RESTScopeRoot,
	}}, "get", err)
}
