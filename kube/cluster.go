package kube

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
)

// Cluster is one connection to the API server, made once from the kubectl
// flags: what the browser needs to list types, namespaces and objects, and
// to open an object picked at runtime without reading the flags again.
// Nothing is sent to the server until a method needs it; discovery is
// cached on disk as kubectl caches it (--cache-dir, six hours).
type Cluster struct {
	// Context is the kubeconfig context in use (--context, else the
	// current one).
	Context string
	// Namespace is the namespace from -n or the kubeconfig: where the
	// browser starts.
	Namespace string
	// Server is the API server's URL, which the objects opened from the
	// browser carry (Target.Server): drafts are kept per cluster.
	Server string
	// Dynamic reads and writes whole objects (the object view's session).
	Dynamic dynamic.Interface
	// Metadata reads objects' metadata only (the browser's lists).
	Metadata metadata.Interface
	// Config is the REST config they were made from, for clients of
	// their own (a watch's, NewWatchForConfig).
	Config *rest.Config

	mapper    meta.RESTMapper
	discovery discovery.CachedDiscoveryInterface
}

// Connect builds a Cluster from kubectl's connection flags.
func Connect(flags *ConnFlags) (*Cluster, error) {
	rc, err := flags.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig: %w", err)
	}
	dc, err := flags.ToDiscoveryClient()
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	mapper, err := flags.ToRESTMapper()
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	dyn, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	md, err := metadata.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	loader := flags.ToRawKubeConfigLoader()
	ns, _, err := loader.Namespace()
	if err != nil {
		return nil, fmt.Errorf("reading the namespace from the kubeconfig: %w", err)
	}
	return &Cluster{Context: flags.contextName(), Namespace: ns, Server: rc.Host, Dynamic: dyn, Metadata: md, Config: rc,
		mapper: mapper, discovery: dc}, nil
}

// Collection resolves TYPE (any form kubectl accepts: cm, deploy,
// deployments.apps, a custom resource's plural) to the collection the
// browser lists: the Cluster's namespace, or every namespace. An unknown
// type is an *UnknownTypeError with the closest matches; a type that
// cannot be edited (no get, list, watch, or neither update nor patch) is a
// *NotEditableError.
func (c *Cluster) Collection(typ string, allNamespaces bool) (*Collection, error) {
	mapping, err := mappingFor(c.mapper, typ)
	if err != nil {
		var unknown *UnknownTypeError
		if errors.As(err, &unknown) {
			unknown.Suggestions = suggestTypes(c.discovery, typ)
		}
		return nil, err
	}
	return c.collectionFor(typ, mapping, allNamespaces)
}

// collectionFor is the collection of mapping, which typ named, once the
// server is known to allow what editing needs.
func (c *Cluster) collectionFor(typ string, mapping *meta.RESTMapping, allNamespaces bool) (*Collection, error) {
	verbs, err := c.verbs(mapping.Resource)
	if err != nil {
		return nil, err
	}
	if !Editable(verbs) {
		return nil, &NotEditableError{Type: typ, Resource: ResourceName(mapping.Resource.GroupResource()), Verbs: verbs}
	}
	return &Collection{Context: c.Context, Server: c.Server, Mapping: mapping, Namespace: c.Namespace, AllNamespaces: allNamespaces}, nil
}

// Target names one object by its resource (as a draft records it), for
// opening it at runtime: the same mapping Resolve would find, without
// reading the flags again.
func (c *Cluster) Target(resource schema.GroupResource, namespace, name string) (*Target, error) {
	gvk, err := c.mapper.KindFor(resource.WithVersion(""))
	if err != nil {
		if meta.IsNoMatchError(err) {
			return nil, &UnknownTypeError{Type: ResourceName(resource)}
		}
		return nil, fmt.Errorf("looking up %s: %w", resource, err)
	}
	mapping, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", resource, err)
	}
	col := &Collection{Context: c.Context, Server: c.Server, Mapping: mapping, Namespace: namespace}
	return col.Target(namespace, name), nil
}

// verbs returns what the server allows on resource, from discovery.
func (c *Cluster) verbs(gvr schema.GroupVersionResource) ([]string, error) {
	list, err := c.discovery.ServerResourcesForGroupVersion(gvr.GroupVersion().String())
	if err != nil {
		return nil, fmt.Errorf("reading the verbs of %s: %w", ResourceName(gvr.GroupResource()), err)
	}
	for _, r := range list.APIResources {
		if r.Name == gvr.Resource {
			return r.Verbs, nil
		}
	}
	return nil, &UnknownTypeError{Type: ResourceName(gvr.GroupResource())}
}

// ResourceType is one type of object the server serves, as discovery
// describes it.
type ResourceType struct {
	Group, Version string
	// Resource is the plural, as in the URL: configmaps.
	Resource   string
	Singular   string
	Kind       string
	ShortNames []string
	Namespaced bool
	Verbs      []string
}

// Name is the type's unambiguous name (ResourceName).
func (r ResourceType) Name() string {
	return ResourceName(r.GroupResource())
}

// GroupResource is the type as a draft or a Target's mapping names it.
func (r ResourceType) GroupResource() schema.GroupResource {
	return schema.GroupResource{Group: r.Group, Resource: r.Resource}
}

// Names is every form of the type kubectl accepts, for completion: the
// plural, the singular, the kind in lower case, the short names and
// plural.group.
func (r ResourceType) Names() []string {
	names := []string{r.Resource}
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	add(r.Singular)
	add(strings.ToLower(r.Kind))
	for _, s := range r.ShortNames {
		add(s)
	}
	add(r.Name())
	return names
}

// Editable reports whether verbs allow what kedit does with an object:
// get it, list and watch its collection, and update or patch it.
func Editable(verbs []string) bool {
	has := func(v string) bool { return slices.Contains(verbs, v) }
	return has("get") && has("list") && has("watch") && (has("update") || has("patch"))
}

// Types lists the types the browser offers: those of the server's
// preferred versions that are Editable, sorted by Name. A group whose
// discovery failed (an aggregated API that is down) is left out rather
// than failing the rest.
func (c *Cluster) Types() ([]ResourceType, error) {
	lists, err := discovery.ServerPreferredResources(c.discovery)
	if err != nil && len(lists) == 0 {
		return nil, fmt.Errorf("discovering the server's types: %w", err)
	}
	var out []ResourceType
	for _, list := range lists {
		gv, perr := schema.ParseGroupVersion(list.GroupVersion)
		if perr != nil {
			continue
		}
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") || !Editable(r.Verbs) {
				continue // subresources are not objects of their own
			}
			out = append(out, ResourceType{
				Group: gv.Group, Version: gv.Version, Resource: r.Name, Singular: r.SingularName,
				Kind: r.Kind, ShortNames: r.ShortNames, Namespaced: r.Namespaced, Verbs: r.Verbs,
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// namespacesResource is the core namespaces collection.
var namespacesResource = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// Namespaces lists the names of the cluster's namespaces, sorted, reading
// their metadata only. A refusal is a *ForbiddenListError.
func (c *Cluster) Namespaces(ctx context.Context) ([]string, error) {
	list, err := c.Metadata.Resource(namespacesResource).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, classifyList(&Collection{Context: c.Context, Mapping: &meta.RESTMapping{
			Resource: namespacesResource, Scope: meta.RESTScopeRoot,
		}}, "list", err)
	}
	names := make([]string, len(list.Items))
	for i, ns := range list.Items {
		names[i] = ns.Name
	}
	sort.Strings(names)
	return names, nil
}

// ResourceName names a resource the way kubectl accepts it without
// ambiguity: the plural, with the group for every group but the core one
// (configmaps, deployments.apps).
func ResourceName(gr schema.GroupResource) string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

// ForbiddenListError: RBAC does not allow listing or watching a
// collection, or getting a namespace (403).
type ForbiddenListError struct {
	// Verb is the refused request: list, watch or get.
	Verb       string
	Collection *Collection
	Err        error
}

// Short says what is refused, for a header: not allowed to watch
// configmaps in rb.
func (e *ForbiddenListError) Short() string {
	msg := "not allowed to " + e.Verb + " " + e.Collection.Resource()
	switch c := e.Collection; {
	case !c.Namespaced():
	case c.AllNamespaces:
		msg += " in all namespaces"
	default:
		msg += " in " + c.Namespace // as ForbiddenError.Short says an object's
	}
	return msg
}

func (e *ForbiddenListError) Error() string {
	msg := fmt.Sprintf("not allowed to %s %s", e.Verb, e.Collection.Resource())
	if where := e.Collection.Where(); where != "" {
		msg += " " + where
	}
	if e.Collection.Context != "" {
		msg += fmt.Sprintf(" (context %q)", e.Collection.Context)
	}
	return msg + ": " + serverMessage(e.Err)
}
func (e *ForbiddenListError) Unwrap() error { return e.Err }

// NotEditableError: the type exists, but the server does not allow what
// editing needs (get, list, watch, and update or patch).
type NotEditableError struct {
	// Type is the type as the user gave it, Resource its unambiguous name.
	Type     string
	Resource string
	// Verbs are what the server allows on it.
	Verbs []string
}

func (e *NotEditableError) Error() string {
	allowed := "nothing"
	if len(e.Verbs) > 0 {
		allowed = strings.Join(e.Verbs, ", ")
	}
	return fmt.Sprintf("%s cannot be edited: the server allows only %s on it; editing needs get, list, watch, and update or patch", e.Resource, allowed)
}

// classifyList turns an error from a list or watch of c into a typed
// error; one it does not recognise is returned wrapped.
func classifyList(c *Collection, verb string, err error) error {
	switch {
	case err == nil:
		return nil
	case apierrors.IsForbidden(err):
		return &ForbiddenListError{Verb: verb, Collection: c, Err: err}
	case apierrors.IsUnauthorized(err):
		return &UnauthorizedError{Err: err}
	case noAnswer(err):
		return unavailable(err)
	}
	msg := fmt.Sprintf("%s %s", verb, c.Resource())
	if where := c.Where(); where != "" {
		msg += " " + where
	}
	return fmt.Errorf("%s: %w", msg, err)
}
