package ui

import (
	"context"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// Set is the objects of a set, opened: kedit cm/a cm/b, -l, -f.
type Set struct {
	// Objects are the set's objects, in order, each opened as
	// Cluster.Open opens one, but without a watch of its own (Watch is
	// nil): the set watches them all.
	Objects []*Object
	// Title says how the set was named, for the header: `configmaps -l
	// app=web in namespace "web"`.
	Title string
	// Format is the format of the set's edit in $EDITOR (-o); "" is YAML.
	Format model.Format
	// Watch starts the watch of every object; the app stops it when it
	// ends.
	Watch func(ctx context.Context) (SetWatcher, error)
}

// SetWatcher is a started watch of a set's objects (*kube.SetWatch).
type SetWatcher interface {
	Events() <-chan kube.SetEvent
	Stop()
}
