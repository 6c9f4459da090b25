package cluster

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui"
)

// OpenSet opens the objects of a set as read (kube.Cluster.ReadSet), each
// as Open opens one object, all watched by one kube.SetWatch, which the
// app starts.
func (o *Opener) OpenSet(ctx context.Context, objs []kube.SetObject, title string) (*ui.Set, error) {
	sw, err := kube.NewSetWatch(o.Config, objs)
	if err != nil {
		return nil, err
	}
	set := &ui.Set{Title: title, Format: o.format}
	for i, so := range objs {
		ob, opened, err := o.openRead(ctx, so.Target, so.Object)
		if err != nil {
			for _, done := range set.Objects {
				done.Close()
			}
			return nil, fmt.Errorf("%s: %w", so.Target, err)
		}
		ob.runner.Cached = func() (*unstructured.Unstructured, bool) { return sw.Latest(i) }
		o.keep(ob)
		set.Objects = append(set.Objects, opened)
	}
	o.mu.Lock()
	o.setWatches = append(o.setWatches, sw)
	o.mu.Unlock()
	set.Watch = func(ctx context.Context) (ui.SetWatcher, error) {
		if err := sw.Start(ctx); err != nil {
			return nil, err
		}
		return sw, nil
	}
	return set, nil
}

// SetTitle names the set for the header and the question: how it was
// named, where, and the subresource edited.
func SetTitle(src kube.SetSource, objs []kube.SetObject) string {
	if src.Subresource != "" {
		s := src
		s.Subresource = ""
		return SetTitle(s, objs) + " --subresource " + string(src.Subresource)
	}
	switch {
	case len(src.Files) > 0 && src.Recursive:
		return "-f " + strings.Join(src.Files, " -f ") + " -R"
	case len(src.Files) > 0:
		return "-f " + strings.Join(src.Files, " -f ")
	case src.Selector != "":
		where := ""
		if t := objs[0].Target; t.Namespaced() {
			where = " in namespace " + t.Namespace
		}
		if src.AllNamespaces {
			where = " in all namespaces"
		}
		return src.Args[0] + " -l " + src.Selector + where
	}
	return strings.Join(src.Args, " ")
}
