package model

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/resourceversion"

	"github.com/kedit/kedit/diff"
)

// ObjectRef names one object kedit edits: where it lives (context,
// namespace), what it is (resource and kind) and its name. kube/ builds it
// from the command line through discovery; everything else only reads it.
type ObjectRef struct {
	// Context is the kubeconfig context the object was read through.
	Context string
	// Resource is the resource as the RESTMapper resolved it, e.g.
	// {Group: "apps", Version: "v1", Resource: "deployments"}.
	Resource schema.GroupVersionResource
	// Kind is the object's kind, e.g. "Deployment".
	Kind string
	// Namespace is empty for a cluster-scoped object.
	Namespace string
	// Name is the object's metadata.name.
	Name string
	// ClusterScoped is true for kinds that live outside namespaces, such
	// as Nodes and Namespaces themselves.
	ClusterScoped bool
	// Subresource is the part of the object edited: "" for the object
	// itself, "status" or "scale" (--subresource).
	Subresource string
}

// ResourceName is the resource as kubectl spells it on the command line:
// "configmaps" for the core group, "deployments.apps" otherwise, so that it
// is unambiguous across groups.
func (r ObjectRef) ResourceName() string {
	if r.Resource.Group == "" {
		return r.Resource.Resource
	}
	return r.Resource.Resource + "." + r.Resource.Group
}

// String returns the object as a kubectl argument, "configmaps/testmap -n
// ns", or "deployments.apps/web -n ns --subresource scale", so that the
// UI's title can be pasted into a kubectl command and says which
// subresource is edited.
func (r ObjectRef) String() string {
	s := r.ResourceName() + "/" + r.Name
	if !r.ClusterScoped && r.Namespace != "" {
		s += " -n " + r.Namespace
	}
	if r.Subresource != "" {
		s += " --subresource " + r.Subresource
	}
	return s
}

// Version is one version of the object as kedit saw it.
type Version struct {
	// ResourceVersion is the object's metadata.resourceVersion.
	ResourceVersion string
	// Object is the whole object. Sessions hold their own copies; treat it
	// as read-only.
	Object *unstructured.Unstructured
	// Observed is when kedit saw this version (not when it was written,
	// which the API server does not record beyond managedFields' seconds).
	Observed time.Time
	// Manager is the field manager that most likely wrote this version;
	// see Writer.
	Manager string
	// Operation is that manager's operation, "Update" or "Apply".
	Operation string
}

// NewVersion describes obj as seen at observed, copying it so that the
// caller may go on changing its own object.
func NewVersion(obj *unstructured.Unstructured, observed time.Time) Version {
	if obj == nil {
		return Version{Observed: observed}
	}
	obj = obj.DeepCopy()
	w := Writer(obj, nil)
	return Version{
		ResourceVersion: obj.GetResourceVersion(),
		Object:          obj,
		Observed:        observed,
		Manager:         w.Manager,
		Operation:       w.Operation,
	}
}

// NewerResourceVersion is kedit's one ordering rule for resourceVersions,
// shared by the session and kube/: it reports whether a is newer than b.
// The order is the API machinery's (resourceversion.CompareResourceVersion:
// positive integers without leading zeros, of any length, as every
// etcd-backed server's are). When either is not such an integer it trusts
// arrival order and reports a != b.
//
// kedit uses it to drop an informer event older than its own write, and
// to refuse to rebase onto a theirs that is not newer than base.
func NewerResourceVersion(a, b string) bool {
	c, err := resourceversion.CompareResourceVersion(a, b)
	if err != nil {
		return a != b
	}
	return c > 0
}

// IsSecret reports whether r is a Secret (diff.IsSecretKind), whose values
// kedit never shows or writes where they do not belong.
func (r ObjectRef) IsSecret() bool {
	return diff.IsSecretKind(schema.GroupKind{Group: r.Resource.Group, Kind: r.Kind})
}

// newerRV is NewerResourceVersion, short for the session's many
// comparisons.
func newerRV(a, b string) bool { return NewerResourceVersion(a, b) }
