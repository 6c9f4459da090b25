package kube

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// setGroup follows the objects of a set that one selector listed in one
// collection: an informer on the selector, as kubectl get -l -w watches,
// whose cache keeps the set's objects whole and any other object that
// comes to match the selector as its name alone. Like Watch and Browse it
// relists after an expired watch, reconnects with backoff and never
// resyncs.
type setGroup struct {
	s    *SetWatch
	coll *Collection
	// sub is what the members edit: the objects, or their status (a Scale
	// is read per object, by a Watch of its own).
	sub      Subresource
	members  map[string]int
	informer cache.SharedIndexInformer
	// handOver hands the group's objects to Watches of their own, once:
	// the user may list them but not watch them.
	handOver sync.Once
	cancel   context.CancelFunc
}

func newSetGroup(s *SetWatch, o SetObject) *setGroup {
	t := o.Target
	coll := &Collection{Context: t.Context, Server: t.Server, Mapping: t.Mapping, Namespace: t.Namespace, AllNamespaces: t.Namespaced() && o.listNamespace == ""}
	g := &setGroup{s: s, coll: coll, sub: t.Subresource, members: map[string]int{}}
	ri := s.dc.Resource(t.Mapping.Resource).Namespace(o.listNamespace)
	selector := o.Selector
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.LabelSelector = selector
			list, err := ri.List(ctx, opts)
			g.observe(ctx, "list", err)
			if err != nil {
				return nil, err // not a typed nil in an interface
			}
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.LabelSelector = selector
			wi, err := ri.Watch(ctx, opts)
			switch {
			case apierrors.IsForbidden(err):
				// Listed, not watched: Watches of their own poll.
				g.handOver.Do(g.toWatches)
				return nil, err
			case err == nil && isEmptyWatch(wi):
				g.observe(ctx, "watch", errWatchCut)
				return wi, nil
			}
			g.observe(ctx, "watch", err)
			return wi, err
		},
	}
	g.informer = cache.NewSharedIndexInformerWithOptions(lw, &unstructured.Unstructured{}, cache.SharedIndexInformerOptions{
		ResyncPeriod:      0,
		ObjectDescription: coll.Resource() + " -l " + selector,
	})
	_ = g.informer.SetTransform(g.trim)
	_ = g.informer.SetWatchErrorHandlerWithContext(g.watchError)
	_, _ = g.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { g.changed(ObjectAdded, obj) },
		UpdateFunc: func(_, obj any) { g.changed(ObjectModified, obj) },
		DeleteFunc: g.deleted,
	})
	return g
}

// run runs the informer until ctx ends or the group hands its objects
// over.
func (g *setGroup) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	g.s.mu.Lock()
	g.cancel = cancel
	g.s.mu.Unlock()
	defer cancel()
	g.informer.RunWithContext(ctx)
}

// member returns the set's member obj is, if it is one.
func (g *setGroup) member(obj any) (int, *unstructured.Unstructured, bool) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return -1, nil, false
	}
	i, ok := g.members[setMemberKey(u.GetNamespace(), u.GetName())]
	return i, u, ok
}

// trim keeps an object that is not one of the set's as its name alone: a
// selector may come to match objects that nobody opened.
func (g *setGroup) trim(obj any) (any, error) {
	_, u, ok := g.member(obj)
	if ok || u == nil {
		return obj, nil
	}
	out := &unstructured.Unstructured{}
	out.SetAPIVersion(u.GetAPIVersion())
	out.SetKind(u.GetKind())
	out.SetNamespace(u.GetNamespace())
	out.SetName(u.GetName())
	out.SetResourceVersion(u.GetResourceVersion())
	return out, nil
}

func (g *setGroup) changed(typ WatchEventType, obj any) {
	i, u, ok := g.member(obj)
	if !ok || !g.s.follows(i, g) {
		return
	}
	u = g.view(u)
	g.s.push(SetEvent{Member: i, Event: WatchEvent{Type: typ, Object: u, ResourceVersion: u.GetResourceVersion()}})
}

// deleted takes a member gone from the selector's view: deleted, or no
// longer matching it (SetWatch.lost tells which).
func (g *setGroup) deleted(obj any) {
	i, u, ok := g.member(obj)
	if !ok || !g.s.follows(i, g) {
		return
	}
	s := g.s
	s.mu.Lock()
	ctx := s.ctx
	s.follow[i] = nil // neither the group's nor yet a Watch's
	s.mu.Unlock()
	last := g.view(u)
	s.wg.Go(func() { s.lost(ctx, i, last) })
}

// latest is t's object as the group last saw it.
func (g *setGroup) latest(t *Target) (*unstructured.Unstructured, bool) {
	item, exists, err := g.informer.GetStore().GetByKey(setMemberKey(t.Namespace, t.Name))
	if err != nil || !exists {
		return nil, false
	}
	u, ok := item.(*unstructured.Unstructured)
	if !ok {
		return nil, false
	}
	return g.view(u), true
}

// view is a copy of u, as the informer's cache holds it, as the members
// edit it: whole, or its status view.
func (g *setGroup) view(u *unstructured.Unstructured) *unstructured.Unstructured {
	if g.sub == SubresourceStatus {
		return statusView(u).DeepCopy()
	}
	return u.DeepCopy()
}

// toWatches hands every member the group still follows to a Watch of its
// own, and stops the group.
func (g *setGroup) toWatches() {
	s := g.s
	s.mu.Lock()
	delete(s.states, g)
	var mine []int
	for _, i := range g.members {
		if s.follow[i] == g {
			mine = append(mine, i)
		}
	}
	cancel := g.cancel
	s.mu.Unlock()
	for _, i := range mine {
		s.followAlone(i)
	}
	if cancel != nil {
		cancel()
	}
}

// observe turns the outcome of every list and watch request into the
// group's connection state, as Browse.observe does.
func (g *setGroup) observe(ctx context.Context, verb string, err error) {
	if state, cause, ok := requestState(ctx, err, func(err error) error { return classifyList(g.coll, verb, err) }); ok {
		g.s.state(g, Connection{State: state, Err: cause})
	}
}

// watchError is the reflector's WatchErrorHandler, as Browse's.
func (g *setGroup) watchError(ctx context.Context, _ *cache.Reflector, err error) {
	if watchEndLost(ctx, err) {
		g.s.state(g, Connection{State: Reconnecting, Err: err})
	}
}
