package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui"
)

// askAbove is the size of a set above which kedit asks before opening it:
// a selector that matches more than meant (app=web in a namespace of
// thousands) should not open a watch of each at once.
var askAbove = 500

// setSource reads from the arguments and flags whether they name a set,
// and which: several objects (kubectl's TYPE/NAME TYPE/NAME or TYPE NAME
// NAME), a selector (-l) or manifests (-f).
func setSource(cmd *cobra.Command, flags *kube.ConnFlags, opts appOptions, args []string) (kube.SetSource, bool) {
	src := kube.SetSource{Args: args, Selector: opts.selector, Files: opts.files, Recursive: opts.recursive, AllNamespaces: opts.allNamespaces,
		Stdin: cmd.InOrStdin(), NamespaceFlag: flags.Namespace}
	// With --audit-log the arguments after the object are logs
	// (--audit-log audit*.log), so only -l and -f make a set.
	return src, len(opts.files) > 0 || opts.selector != "" || len(opts.auditLogs) == 0 && kube.SplitSetArgs(args)
}

// openSet reads the set's objects and opens them. Above askAbove objects
// it asks on the terminal first; no answers no. stdout must be a terminal
// before anything is asked (uiNeedsTerminal).
func openSet(ctx context.Context, cmd *cobra.Command, o *opener, src kube.SetSource, opts appOptions) (*ui.Set, error) {
	objs, err := o.ReadSet(ctx, src)
	if err != nil {
		return nil, err
	}
	if err := uiNeedsTerminal(cmd, opts); err != nil {
		return nil, err
	}
	if len(objs) > askAbove {
		fmt.Fprintf(cmd.ErrOrStderr(), "kedit: %s names %s; open them all? (y/n) ", setTitle(src, objs), words.Count(len(objs), "object"))
		answer, _ := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
		if a := strings.TrimSpace(strings.ToLower(answer)); a != "y" && a != "yes" {
			return nil, errors.New("nothing opened")
		}
	}
	return o.OpenSet(ctx, objs, setTitle(src, objs))
}

// OpenSet opens the objects of a set as read (kube.Cluster.ReadSet), each
// as Open opens one object, all watched by one kube.SetWatch, which the
// app starts.
func (o *opener) OpenSet(ctx context.Context, objs []kube.SetObject, title string) (*ui.Set, error) {
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

// setTitle names the set for the header and the question: how it was
// named, where, and the subresource edited.
func setTitle(src kube.SetSource, objs []kube.SetObject) string {
	if src.Subresource != "" {
		s := src
		s.Subresource = ""
		return setTitle(s, objs) + " --subresource " + string(src.Subresource)
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
