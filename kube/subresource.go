package kube

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
)

// Subresource is the part of an object kedit edits (--subresource): the
// object itself (""), its status, where controllers write, or its scale,
// the autoscaling/v1 Scale through which `kubectl scale` writes replicas.
// Either is read, watched and saved with the object's resourceVersion, as
// the object is: a save over a write made meanwhile is a conflict.
type Subresource string

// The subresources kedit edits.
const (
	SubresourceStatus Subresource = "status"
	SubresourceScale  Subresource = "scale"
)

// Subresources lists them in the order help shows them.
var Subresources = []Subresource{SubresourceStatus, SubresourceScale}

// ParseSubresource reads the value of --subresource; "" is the object
// itself.
func ParseSubresource(s string) (Subresource, error) {
	if s == "" {
		return "", nil
	}
	for _, v := range Subresources {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("unknown subresource %q: kedit edits status or scale", s)
}

// args are the dynamic client's subresource arguments for s.
func (s Subresource) args() []string {
	if s == "" {
		return nil
	}
	return []string{string(s)}
}

// SubresourceError says that a type has no such subresource, and which
// types the server serves with one.
type SubresourceError struct {
	// Resource is the type asked for, resource.group.
	Resource    string
	Subresource Subresource
	// More are the other types of a set that lack it too.
	More []string
	// Have are the types that have the subresource, resource.group,
	// sorted.
	Have []string
}

func (e *SubresourceError) Error() string {
	msg := fmt.Sprintf("%s has no %s subresource", e.Resource, e.Subresource)
	if len(e.More) > 0 {
		msg = fmt.Sprintf("%s have no %s subresource", strings.Join(append([]string{e.Resource}, e.More...), ", "), e.Subresource)
	}
	if len(e.Have) == 0 {
		return msg + "; no type on this server has one"
	}
	return msg + "; the types that have one: " + strings.Join(e.Have, ", ")
}

// CheckSubresource asks discovery whether gvr has sub; a
// *SubresourceError says it does not, naming the types that do.
func CheckSubresource(dc discovery.DiscoveryInterface, gvr schema.GroupVersionResource, sub Subresource) error {
	if sub == "" {
		return nil
	}
	list, err := dc.ServerResourcesForGroupVersion(gvr.GroupVersion().String())
	if err != nil {
		return fmt.Errorf("asking the server whether %s has a %s subresource: %w", resourceName(gvr.GroupResource()), sub, err)
	}
	for _, r := range list.APIResources {
		if r.Name == gvr.Resource+"/"+string(sub) {
			return nil
		}
	}
	e := &SubresourceError{Resource: resourceName(gvr.GroupResource()), Subresource: sub}
	_, lists, _ := dc.ServerGroupsAndResources() // partial results are fine for the list
	seen := map[string]bool{}
	for _, l := range lists {
		gv, _ := schema.ParseGroupVersion(l.GroupVersion)
		for _, r := range l.APIResources {
			parent, s, ok := strings.Cut(r.Name, "/")
			if !ok || s != string(sub) {
				continue
			}
			if name := resourceName(schema.GroupResource{Group: gv.Group, Resource: parent}); !seen[name] {
				seen[name] = true
				e.Have = append(e.Have, name)
			}
		}
	}
	sort.Strings(e.Have)
	return e
}

// resourceName is a resource as kubectl spells it, resource.group.
func resourceName(gr schema.GroupResource) string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

// statusView is the object as a status edit shows it: apiVersion, kind,
// metadata and status. The server takes nothing else through the status
// subresource, so nothing else is offered to edit, nor to collide in a
// rebase.
func statusView(obj *unstructured.Unstructured) *unstructured.Unstructured {
	out := map[string]any{}
	for _, k := range []string{"apiVersion", "kind", "metadata", "status"} {
		if v, ok := obj.Object[k]; ok {
			out[k] = v
		}
	}
	return &unstructured.Unstructured{Object: out}
}

// errNoScale says that a watch event's object could not be read as its
// Scale: the watch skips the event, and the next one (or the relist after
// a reconnection) brings the object again.
var errNoScale = errors.New("reading the scale subresource")

// view turns obj, the object as a list or watch of its collection gives
// it, into what t edits: the object itself, its status view, or its
// Scale, read from the server (its resourceVersion is the object's).
func (t *Target) view(ctx context.Context, get func(ctx context.Context, name string, opts metav1.GetOptions, sub ...string) (*unstructured.Unstructured, error), obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	switch t.Subresource {
	case SubresourceStatus:
		return statusView(obj), nil
	case SubresourceScale:
		scale, err := get(ctx, t.Name, metav1.GetOptions{}, string(SubresourceScale))
		if err != nil {
			return nil, fmt.Errorf("%w of %s: %w", errNoScale, t, err)
		}
		return withWriters(scale, obj), nil
	}
	return obj, nil
}

// withWriters gives scale, a Scale read from the server, the
// managedFields of obj, its object, when obj is of the same version: the
// server keeps no managedFields for a Scale, and the object's are the
// record of who wrote it (`kubectl scale` leaves an entry with
// subresource scale), so that a change to the Scale is credited to the
// entry that made it. A Scale of another version keeps none: a writer is
// never named from another version's record. Saves leave managedFields
// out, so the server's record is not touched.
func withWriters(scale, obj *unstructured.Unstructured) *unstructured.Unstructured {
	if scale == nil || obj == nil || scale.GetResourceVersion() != obj.GetResourceVersion() || scale.GetUID() != obj.GetUID() {
		return scale
	}
	scale.SetManagedFields(obj.GetManagedFields())
	return scale
}

// scaleReads is how many times getScale reads a Scale and its object
// for the two to be of one version, when other writes come between.
const scaleReads = 3

// getScale reads t's Scale and, for its managedFields (withWriters), its
// object. When another write comes between the two reads each time, the
// Scale has none, and its writer is not named.
func getScale(ctx context.Context, ri dynamic.ResourceInterface, t *Target) (*unstructured.Unstructured, error) {
	var scale *unstructured.Unstructured
	for range scaleReads {
		var err error
		scale, err = ri.Get(ctx, t.Name, metav1.GetOptions{}, string(SubresourceScale))
		if err != nil {
			return nil, err
		}
		obj, err := ri.Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return scale, nil
		}
		if obj.GetResourceVersion() == scale.GetResourceVersion() {
			return withWriters(scale, obj), nil
		}
	}
	return scale, nil
}

// MergeOptions are the merge options editing t takes, for the session's
// merges and kube's own: a status edit merges status as the user's
// (diff.WithStatusEdited).
func (t *Target) MergeOptions() []diff.Option {
	if t.Subresource == SubresourceStatus {
		return []diff.Option{diff.WithStatusEdited()}
	}
	return nil
}

// WithSubresource makes t edit sub of its object, once discovery says
// that t's type has it (a *SubresourceError otherwise, naming the types
// that do).
func WithSubresource(flags *ConnFlags, t *Target, sub Subresource) error {
	if sub == "" {
		return nil
	}
	if err := HasSubresource(flags, t.Mapping.Resource, sub); err != nil {
		return err
	}
	t.Subresource = sub
	return nil
}

// HasSubresource is CheckSubresource through flags' discovery client.
func HasSubresource(flags *ConnFlags, gvr schema.GroupVersionResource, sub Subresource) error {
	if sub == "" {
		return nil
	}
	dc, err := flags.ToDiscoveryClient()
	if err != nil {
		return fmt.Errorf("connecting to the cluster: %w", err)
	}
	return CheckSubresource(dc, gvr, sub)
}

// viewOf turns an event's object into what a subresource's watch reports:
// its status view, or its Scale, read from the server (the informer's
// handler may wait on it: the informer queues what comes meanwhile). A
// deleted object's Scale is the last one read. ok is false when the Scale
// could not be read: the event is skipped, and the next one, or the
// relist after a reconnection, brings the object again.
func (w *Watch) viewOf(typ WatchEventType, u *unstructured.Unstructured) (*unstructured.Unstructured, bool) {
	w.mu.Lock()
	ctx, last := w.ctx, w.lastView
	w.mu.Unlock()
	if typ == ObjectDeleted && w.target.Subresource == SubresourceScale {
		if last == nil {
			return nil, false
		}
		return last.DeepCopy(), true
	}
	if ctx == nil {
		ctx = context.Background()
	}
	v, err := w.target.view(ctx, w.resource.Get, u)
	if err != nil {
		logr.FromContextOrDiscard(ctx).Info("skipping a watch event", "err", err.Error())
		return nil, false
	}
	if w.target.Subresource == SubresourceScale {
		w.mu.Lock()
		w.lastView = v.DeepCopy()
		w.mu.Unlock()
	}
	return v, true
}

// latestView is Latest for a subresource's watch, u the object's latest
// version: its status view, or the last Scale read when it is of u's
// version (else false: theirs is then read from the server).
func (w *Watch) latestView(u *unstructured.Unstructured) (*unstructured.Unstructured, bool) {
	if w.target.Subresource == SubresourceStatus {
		return statusView(u).DeepCopy(), true
	}
	w.mu.Lock()
	last := w.lastView
	w.mu.Unlock()
	if last == nil || last.GetResourceVersion() != u.GetResourceVersion() {
		return nil, false
	}
	return last.DeepCopy(), true
}
