package kube

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/model"
)

// Target is one object on one cluster, resolved from kubectl-style
// arguments: the REST mapping says which API serves it.
type Target struct {
	// Context is the kubeconfig context in use (for messages and the draft
	// store's path).
	Context string
	// Mapping holds the resource, kind and scope.
	Mapping *meta.RESTMapping
	// Namespace is empty for cluster-scoped kinds.
	Namespace string
	Name      string
	// Server is the API server's URL: drafts are kept per cluster, as two
	// kubeconfigs may give one context name to different clusters.
	Server string
	// Subresource is the part of the object edited (--subresource): ""
	// for the object itself, status or scale.
	Subresource Subresource
}

// String names the target the way kubectl does: configmaps/testmap.
func (t *Target) String() string {
	return t.resourceName() + "/" + t.Name
}

// resourceName is the target's resource, with its group when it has one.
func (t *Target) resourceName() string {
	r := t.Mapping.Resource
	if r.Group != "" {
		return r.Resource + "." + r.Group
	}
	return r.Resource
}

// Where says where the target was looked for, for messages.
func (t *Target) Where() string {
	var parts []string
	if t.Namespace != "" {
		parts = append(parts, fmt.Sprintf("namespace %q", t.Namespace))
	}
	if t.Context != "" {
		parts = append(parts, fmt.Sprintf("context %q", t.Context))
	}
	return strings.Join(parts, ", ")
}

// Objects names the target's kind of object and where they are, for
// sentences: "configmaps in rb", "widgets.example.com in rb", "nodes".
func (t *Target) Objects() string {
	res := t.resourceName()
	if t.Namespaced() && t.Namespace != "" {
		res += " in " + t.Namespace
	}
	return res
}

// Resource returns the dynamic client's interface for the target's
// collection (namespaced or not).
func (t *Target) Resource(dc dynamic.Interface) dynamic.ResourceInterface {
	nri := dc.Resource(t.Mapping.Resource)
	if t.Mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		return nri.Namespace(t.Namespace)
	}
	return nri
}

// Namespaced reports whether the target's kind lives in a namespace.
func (t *Target) Namespaced() bool {
	return t.Mapping.Scope.Name() == meta.RESTScopeNameNamespace
}

// UnknownTypeError is returned for an object type the server does not
// serve; Suggestions are the closest names it does serve.
type UnknownTypeError struct {
	Type        string
	Suggestions []string
}

func (e *UnknownTypeError) Error() string {
	msg := fmt.Sprintf("the server doesn't have a resource type %q", e.Type)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return msg
}

// UnreachableError says that the API server the kubeconfig names could not
// be reached at all: a kubeconfig that points nowhere, a cluster that is
// down, a network in between that is.
type UnreachableError struct {
	Server, Context string
	Err             error
}

func (e *UnreachableError) Error() string {
	where := e.Server
	if e.Context != "" {
		where += fmt.Sprintf(" (context %q)", e.Context)
	}
	return fmt.Sprintf("cannot reach the API server at %s: %v; check the kubeconfig's server and that the cluster is up", where, rootCause(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// rootCause is what a connection failure says happened ("dial tcp
// 127.0.0.1:1: connect: connection refused"), without the request's URL
// around it.
func rootCause(err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		return op
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// AmbiguousTypeError says that a short name names more than one resource
// (a custom resource that claims a short name another type has): kedit
// edits one object, so it asks which, as kubectl only warns.
type AmbiguousTypeError struct {
	Type       string
	Candidates []string
}

func (e *AmbiguousTypeError) Error() string {
	return fmt.Sprintf("the short name %q is ambiguous: it names %s; give the type with its group, for example %s",
		e.Type, strings.Join(e.Candidates, " and "), e.Candidates[0])
}

// ambiguousShortName reports the resources that typ names as a short name,
// when there are several (in different groups).
func ambiguousShortName(dc discovery.DiscoveryInterface, typ string) *AmbiguousTypeError {
	if strings.Contains(typ, ".") {
		return nil // resource.group is unambiguous
	}
	_, lists, _ := dc.ServerGroupsAndResources()
	seen := map[string]bool{}
	var cands []string
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			for _, sn := range r.ShortNames {
				full := r.Name
				if gv.Group != "" {
					full += "." + gv.Group
				}
				if strings.EqualFold(sn, typ) && !seen[full] {
					seen[full] = true
					cands = append(cands, full)
				}
			}
		}
	}
	if len(cands) < 2 {
		return nil
	}
	sort.Strings(cands)
	return &AmbiguousTypeError{Type: typ, Candidates: cands}
}

// UsageError is returned for arguments that do not name one object.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// SplitObjectArgs accepts the object arguments of `kubectl edit`:
// TYPE/NAME as one argument, or TYPE and NAME as two. It returns the type,
// the name and the arguments that follow.
func SplitObjectArgs(args []string) (typ, name string, rest []string, err error) {
	if len(args) == 0 {
		return "", "", nil, &UsageError{"missing the object: give TYPE/NAME (for example configmap/testmap) or TYPE NAME"}
	}
	if t, n, ok := strings.Cut(args[0], "/"); ok {
		if t == "" || n == "" || strings.Contains(n, "/") {
			return "", "", nil, &UsageError{fmt.Sprintf("%q is not TYPE/NAME", args[0])}
		}
		return t, n, args[1:], nil
	}
	if len(args) < 2 || strings.Contains(args[1], "=") {
		return "", "", nil, &UsageError{fmt.Sprintf("missing the name after type %q: give TYPE/NAME or TYPE NAME", args[0])}
	}
	return args[0], args[1], args[2:], nil
}

// Resolve maps TYPE (a short name, singular, plural, kind or
// resource.group form, as kubectl accepts) and NAME to a Target through
// discovery, cached on disk as kubectl caches it.
func Resolve(flags *ConnFlags, typ, name string) (*Target, error) {
	mapper, err := flags.ToRESTMapper()
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	t := &Target{Name: name, Context: flags.contextName()}
	if rc, err := flags.ToRESTConfig(); err == nil {
		t.Server = rc.Host
	}
	loader := flags.ToRawKubeConfigLoader()
	mapping, err := mappingFor(mapper, typ)
	if err != nil {
		var unknown *UnknownTypeError
		if errors.As(err, &unknown) {
			if dc, derr := flags.ToDiscoveryClient(); derr == nil {
				unknown.Suggestions = suggestTypes(dc, typ)
			}
		}
		if apierrors.IsUnauthorized(err) {
			return nil, &UnauthorizedError{Err: err}
		}
		if lostConnection(context.Background(), errors.Unwrap(err)) {
			return nil, &UnreachableError{Server: t.Server, Context: t.Context, Err: errors.Unwrap(err)}
		}
		return nil, err
	}
	if dc, derr := flags.ToDiscoveryClient(); derr == nil {
		if amb := ambiguousShortName(dc, typ); amb != nil {
			return nil, amb
		}
	}
	t.Mapping = mapping
	if t.Namespaced() {
		ns, _, err := loader.Namespace()
		if err != nil {
			return nil, fmt.Errorf("reading the namespace from the kubeconfig: %w", err)
		}
		t.Namespace = ns
	}
	return t, nil
}

// mappingFor follows kubectl's resource builder: a resource name first
// (with optional version and group), then a kind.
func mappingFor(mapper meta.RESTMapper, arg string) (*meta.RESTMapping, error) {
	fullySpecifiedGVR, groupResource := schema.ParseResourceArg(arg)
	gvk := schema.GroupVersionKind{}
	if fullySpecifiedGVR != nil {
		gvk, _ = mapper.KindFor(*fullySpecifiedGVR)
	}
	if gvk.Empty() {
		gvk, _ = mapper.KindFor(groupResource.WithVersion(""))
	}
	if !gvk.Empty() {
		return mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	fullySpecifiedGVK, groupKind := schema.ParseKindArg(arg)
	if fullySpecifiedGVK == nil {
		k := groupKind.WithVersion("")
		fullySpecifiedGVK = &k
	}
	if !fullySpecifiedGVK.Empty() {
		if m, err := mapper.RESTMapping(fullySpecifiedGVK.GroupKind(), fullySpecifiedGVK.Version); err == nil {
			return m, nil
		}
	}
	m, err := mapper.RESTMapping(groupKind, gvk.Version)
	if err != nil {
		if meta.IsNoMatchError(err) {
			return nil, &UnknownTypeError{Type: arg}
		}
		return nil, fmt.Errorf("looking up type %q: %w", arg, err)
	}
	return m, nil
}

// suggestTypes lists the served resource names closest to typ: those within
// a small edit distance, or that typ is a prefix of.
func suggestTypes(dc discovery.DiscoveryInterface, typ string) []string {
	_, lists, _ := dc.ServerGroupsAndResources() // partial results are fine for suggestions
	typ = strings.ToLower(typ)
	type cand struct {
		name string
		dist int
	}
	best := map[string]int{}
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // subresources cannot be edited on their own
			}
			full := r.Name
			if gv.Group != "" {
				full += "." + gv.Group
			}
			names := append([]string{r.Name, r.SingularName, strings.ToLower(r.Kind)}, r.ShortNames...)
			for _, n := range names {
				if n == "" {
					continue
				}
				d := levenshtein(typ, n)
				if strings.HasPrefix(n, typ) && len(typ) >= 2 {
					d = min(d, 1)
				}
				if d <= max(1, len(typ)/3) {
					if old, ok := best[full]; !ok || d < old {
						best[full] = d
					}
				}
			}
		}
	}
	var cands []cand
	for n, d := range best {
		cands = append(cands, cand{n, d})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// levenshtein is the edit distance between a and b.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Ref is the target as the session names it.
func (t *Target) Ref() model.ObjectRef {
	return model.ObjectRef{
		Context:       t.Context,
		Resource:      t.Mapping.Resource,
		Kind:          t.Mapping.GroupVersionKind.Kind,
		Namespace:     t.Namespace,
		Name:          t.Name,
		ClusterScoped: !t.Namespaced(),
		Subresource:   string(t.Subresource),
	}
}
