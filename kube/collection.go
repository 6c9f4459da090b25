package kube

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
)

// Collection is what a browser lists: the objects of one resource type, in
// one namespace or in all of them.
type Collection struct {
	// Context is the kubeconfig context in use, for the header and messages.
	Context string
	// Server is the API server's URL, handed on to the targets of the
	// collection's objects (Target.Server).
	Server string
	// Mapping holds the resource, kind and scope.
	Mapping *meta.RESTMapping
	// Namespace is the namespace listed; it is ignored for cluster-scoped
	// kinds and with AllNamespaces.
	Namespace string
	// AllNamespaces lists every namespace (kubectl's -A).
	AllNamespaces bool
}

// Namespaced reports whether the collection's kind lives in a namespace.
func (c *Collection) Namespaced() bool {
	return c.Mapping.Scope.Name() == meta.RESTScopeNameNamespace
}

// ListNamespace is the namespace the list request names: "" for all
// namespaces and for cluster-scoped kinds.
func (c *Collection) ListNamespace() string {
	if !c.Namespaced() || c.AllNamespaces {
		return ""
	}
	return c.Namespace
}

// Resource names the type (ResourceName): configmaps, deployments.apps.
func (c *Collection) Resource() string { return ResourceName(c.Mapping.Resource.GroupResource()) }

// Where says which objects the collection holds, for messages:
// `in namespace "team-a"`, `in all namespaces`, or "" for a cluster-scoped
// kind.
func (c *Collection) Where() string {
	switch {
	case !c.Namespaced():
		return ""
	case c.AllNamespaces:
		return "in all namespaces"
	}
	return fmt.Sprintf("in namespace %q", c.Namespace)
}

// InNamespace returns the collection of the same type in namespace ns.
func (c *Collection) InNamespace(ns string) *Collection {
	out := *c
	out.Namespace, out.AllNamespaces = ns, false
	return &out
}

// InAllNamespaces returns the collection of the same type in every
// namespace; Namespace stays as the one to go back to.
func (c *Collection) InAllNamespaces() *Collection {
	out := *c
	out.AllNamespaces = true
	return &out
}

// Target names one object of the collection, for opening it: the same
// context and mapping, the object's own namespace (which matters with
// AllNamespaces) and its name. Nothing is read from flags or the server.
func (c *Collection) Target(namespace, name string) *Target {
	if !c.Namespaced() {
		namespace = ""
	}
	return &Target{Context: c.Context, Server: c.Server, Mapping: c.Mapping, Namespace: namespace, Name: name}
}

// Collection returns the collection t belongs to: its type in its
// namespace, the list to go back to from the object (also when kedit was
// started on TYPE/NAME).
func (t *Target) Collection() *Collection {
	return &Collection{Context: t.Context, Server: t.Server, Mapping: t.Mapping, Namespace: t.Namespace}
}
