package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SetSource is what names the objects of a set on the command line, as
// kubectl edit takes them: several TYPE/NAME arguments, or TYPE and
// several names; TYPE (or TYPE,TYPE) and a label selector; or manifests,
// whose objects are the live ones they name (their content is not a
// draft).
type SetSource struct {
	// Args are the positional arguments.
	Args []string
	// Selector is -l's label selector; Args is then TYPE[,TYPE...].
	Selector string
	// AllNamespaces is -A: the selector in every namespace.
	AllNamespaces bool
	// Files are -f's files, directories (their .yaml, .yml and .json
	// files) or - for standard input, which Stdin is.
	Files []string
	Stdin io.Reader
	// Recursive is -R: a directory of Files is read with every directory
	// below it.
	Recursive bool
	// NamespaceFlag is -n as given, "" when it was not: a manifest of
	// another namespace is then refused, as kubectl refuses it.
	NamespaceFlag string
	// Subresource is the part of each object edited (--subresource): every
	// type of the set must have it.
	Subresource Subresource
}

// SetObject is one object of a set, as read from the server.
type SetObject struct {
	Target *Target
	Object *unstructured.Unstructured
	// Selector is the label selector the object was listed with, "" for
	// an object named on its own: SetWatch follows a selector's objects
	// with one watch of it.
	Selector string
	// listNamespace is the namespace the selector's list named, "" for
	// every namespace.
	listNamespace string
}

// NoMatchError says that a label selector matched nothing.
type NoMatchError struct {
	Selector string
	// Where names each collection looked in: `configmaps in namespace "web"`.
	Where []string
}

func (e *NoMatchError) Error() string {
	return fmt.Sprintf("no objects match the selector %q (looked in %s)", e.Selector, strings.Join(e.Where, ", "))
}

// MissingError names every object of a set that does not exist.
type MissingError struct{ Errs []error }

func (e *MissingError) Error() string {
	msgs := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (e *MissingError) Unwrap() []error { return e.Errs }

// SplitSetArgs reports whether args name several objects, kubectl's way:
// TYPE/NAME TYPE/NAME ..., or TYPE NAME NAME .... One object (TYPE/NAME, or
// TYPE NAME) is no set, nor is a TYPE alone (the browser).
func SplitSetArgs(args []string) bool {
	switch {
	case len(args) < 2:
		return false
	case strings.Contains(args[0], "/"):
		return true
	}
	return len(args) > 2
}

// setGets is how many objects named one by one are read at once.
const setGets = 16

// ReadSet resolves src to the objects of a set and reads each of them:
// one list per type for a selector, a GET for each object named. Each
// object comes once, in the order named (a selector's in the list's
// order). A selector that matches nothing is a *NoMatchError; objects that
// do not exist are one *MissingError naming each. With a subresource each
// object is read as it edits it (its status view, or its Scale), and
// types without the subresource are one *SubresourceError naming each.
func (c *Cluster) ReadSet(ctx context.Context, src SetSource) ([]SetObject, error) {
	var targets []*Target
	var err error
	switch {
	case len(src.Files) > 0:
		if len(src.Args) > 0 || src.Selector != "" {
			return nil, &UsageError{"-f names the objects itself: give no TYPE, NAME or -l with it"}
		}
		targets, err = c.manifestTargets(src)
	case src.Selector != "":
		return c.listSelected(ctx, src)
	default:
		targets, err = c.namedTargets(src.Args)
	}
	if err != nil {
		return nil, err
	}
	targets = dedupe(targets)
	if err := c.withSubresource(targets, src.Subresource); err != nil {
		return nil, err
	}
	return c.getAll(ctx, targets)
}

// withSubresource makes each target edit sub, once discovery says that
// every type of them has it: a *SubresourceError names those that do not,
// and the types that do.
func (c *Cluster) withSubresource(targets []*Target, sub Subresource) error {
	if sub == "" {
		return nil
	}
	var lacking *SubresourceError
	checked := map[schema.GroupVersionResource]bool{}
	for _, t := range targets {
		gvr := t.Mapping.Resource
		if checked[gvr] {
			continue
		}
		checked[gvr] = true
		err := CheckSubresource(c.discovery, gvr, sub)
		var se *SubresourceError
		switch {
		case errors.As(err, &se) && lacking == nil:
			lacking = se
		case errors.As(err, &se):
			lacking.More = append(lacking.More, se.Resource)
		case err != nil:
			return err
		}
	}
	if lacking != nil {
		return lacking
	}
	for _, t := range targets {
		t.Subresource = sub
	}
	return nil
}

// namedTargets resolves TYPE/NAME ... or TYPE NAME NAME ....
func (c *Cluster) namedTargets(args []string) ([]*Target, error) {
	colls := map[string]*Collection{}
	target := func(typ, name string) (*Target, error) {
		if name == "" || strings.Contains(name, "/") {
			return nil, &UsageError{fmt.Sprintf("%q is not a name: give every object as TYPE/NAME, or TYPE then names", name)}
		}
		coll, ok := colls[typ]
		if !ok {
			var err error
			if coll, err = c.Collection(typ, false); err != nil {
				return nil, err
			}
			colls[typ] = coll
		}
		return coll.Target(coll.Namespace, name), nil
	}
	var out []*Target
	if strings.Contains(args[0], "/") {
		for _, a := range args {
			typ, name, ok := strings.Cut(a, "/")
			if !ok || typ == "" {
				return nil, &UsageError{fmt.Sprintf("%q is not TYPE/NAME: give every object as TYPE/NAME, or TYPE then names", a)}
			}
			t, err := target(typ, name)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
		return out, nil
	}
	for _, name := range args[1:] {
		t, err := target(args[0], name)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// listSelected lists each type of src.Args with src.Selector: one request
// per type, the objects as listed.
func (c *Cluster) listSelected(ctx context.Context, src SetSource) ([]SetObject, error) {
	if len(src.Args) != 1 || strings.Contains(src.Args[0], "/") {
		return nil, &UsageError{"-l selects objects of one TYPE (or TYPE,TYPE): give the type alone, for example kedit cm -l app=web"}
	}
	sel, err := labels.Parse(src.Selector)
	if err != nil {
		return nil, &UsageError{fmt.Sprintf("the selector %q: %v", src.Selector, err)}
	}
	var colls []*Collection
	var probes []*Target
	for _, typ := range strings.Split(src.Args[0], ",") {
		coll, err := c.Collection(typ, src.AllNamespaces)
		if err != nil {
			return nil, err
		}
		colls = append(colls, coll)
		probes = append(probes, coll.Target(coll.Namespace, ""))
	}
	// Every type is asked about before anything is listed.
	if err := c.withSubresource(probes, src.Subresource); err != nil {
		return nil, err
	}
	var out []SetObject
	var where []string
	for _, coll := range colls {
		where = append(where, strings.TrimSpace(coll.Resource()+" "+coll.Where()))
		list, err := c.Dynamic.Resource(coll.Mapping.Resource).Namespace(coll.ListNamespace()).
			List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
		if err != nil {
			return nil, classifyList(coll, "list", err)
		}
		for i := range list.Items {
			obj := &list.Items[i]
			// A list's items carry no kind of their own.
			obj.SetGroupVersionKind(coll.Mapping.GroupVersionKind)
			t := coll.Target(obj.GetNamespace(), obj.GetName())
			t.Subresource = src.Subresource
			out = append(out, SetObject{Target: t, Object: obj, Selector: sel.String(), listNamespace: coll.ListNamespace()})
		}
	}
	if len(out) == 0 {
		return nil, &NoMatchError{Selector: src.Selector, Where: where}
	}
	return out, c.viewAll(ctx, out)
}

// viewAll turns each object listed into what its target edits: its status
// view, or its Scale, read from the server setGets at a time. An object
// deleted since it was listed is one *MissingError naming each.
func (c *Cluster) viewAll(ctx context.Context, objs []SetObject) error {
	if len(objs) == 0 || objs[0].Target.Subresource == "" {
		return nil
	}
	if objs[0].Target.Subresource == SubresourceStatus {
		for i := range objs {
			objs[i].Object = statusView(objs[i].Object)
		}
		return nil
	}
	return c.readAll(ctx, objs)
}

// getAll reads each target, setGets at a time, in order.
func (c *Cluster) getAll(ctx context.Context, targets []*Target) ([]SetObject, error) {
	out := make([]SetObject, len(targets))
	for i, t := range targets {
		out[i].Target = t
	}
	return out, c.readAll(ctx, out)
}

// readAll reads each object's target into it, setGets at a time. Objects
// that do not exist are one *MissingError naming each.
func (c *Cluster) readAll(ctx context.Context, objs []SetObject) error {
	errs := make([]error, len(objs))
	sem := make(chan struct{}, setGets)
	var wg sync.WaitGroup
	for i := range objs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			objs[i].Object, errs[i] = Get(ctx, c.Dynamic, objs[i].Target)
		}()
	}
	wg.Wait()
	return missingOr(errs)
}

// missingOr is the first error of errs that is not a *NotFoundError, else
// one *MissingError of those that are, else nil.
func missingOr(errs []error) error {
	var missing []error
	for _, err := range errs {
		var nf *NotFoundError
		switch {
		case errors.As(err, &nf):
			missing = append(missing, err)
		case err != nil:
			return err
		}
	}
	if len(missing) > 0 {
		return &MissingError{Errs: missing}
	}
	return nil
}

// setKey names an object once, whatever the form it was named in.
type setKey struct {
	resource        schema.GroupResource
	namespace, name string
}

// dedupe keeps the first of each object named twice.
func dedupe(targets []*Target) []*Target {
	seen := map[setKey]bool{}
	out := targets[:0:0]
	for _, t := range targets {
		k := setKey{t.Mapping.Resource.GroupResource(), t.Namespace, t.Name}
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// manifestTargets names the live objects src.Files' manifests are of.
func (c *Cluster) manifestTargets(src SetSource) ([]*Target, error) {
	docs, err := readManifests(src.Files, src.Stdin, src.Recursive)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, &UsageError{"the manifests hold no objects: " + strings.Join(src.Files, ", ")}
	}
	var out []*Target
	for _, d := range docs {
		mapping, err := c.mapper.RESTMapping(d.gvk.GroupKind(), d.gvk.Version)
		if err != nil {
			return nil, fmt.Errorf("%s: %s %s: %w", d.source, d.gvk.GroupVersion(), d.gvk.Kind, &UnknownTypeError{Type: d.gvk.Kind})
		}
		coll, err := c.collectionFor(d.gvk.Kind, mapping, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.source, err)
		}
		ns := d.namespace
		switch {
		case !coll.Namespaced():
		case ns == "":
			ns = c.Namespace
		case src.NamespaceFlag != "" && ns != src.NamespaceFlag:
			return nil, &UsageError{fmt.Sprintf("%s: %s/%s is in namespace %q, not -n %q: give -n %s, or no -n", d.source, coll.Resource(), d.name, ns, src.NamespaceFlag, ns)}
		}
		out = append(out, coll.Target(ns, d.name))
	}
	return out, nil
}
