package cluster

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"

	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
)

// The server's schemas of the kinds opened, read once each: for the
// merge (by group-version) and for the schema check, the field docs and
// completion (by kind).

// schemas are the server's schemas of t's group-version, read once per
// group-version: a set of a hundred custom resources parses them once.
func (o *Opener) schemas(t *kube.Target) (managedfields.TypeConverter, error) {
	gv := t.Mapping.GroupVersionKind.GroupVersion()
	o.schemasMu.Lock()
	defer o.schemasMu.Unlock()
	if c, ok := o.gvSchemas[gv]; ok {
		return c.conv, c.err
	}
	conv, err := kube.LoadSchemas(o.flags, t)
	if o.gvSchemas == nil {
		o.gvSchemas = map[schema.GroupVersion]schemaResult{}
	}
	o.gvSchemas[gv] = schemaResult{conv, err}
	return conv, err
}

// checkSchema is the server's schema of t's kind for schemacheck, read
// once per kind (from the documents on disk when the server's hash is
// unchanged): the first draft checked waits for it, off the UI's
// goroutine.
func (o *Opener) checkSchema(t *kube.Target) (*schemacheck.Schema, error) {
	gvk := t.Mapping.GroupVersionKind
	o.checksMu.Lock()
	defer o.checksMu.Unlock()
	if c, ok := o.kindChecks[gvk]; ok {
		return c.schema, c.err
	}
	s, err := kube.LoadCheckSchema(o.flags, t)
	if err != nil {
		o.logger.Info("no schema check", "kind", gvk.String(), "err", err.Error())
	}
	if o.kindChecks == nil {
		o.kindChecks = map[schema.GroupVersionKind]checkResult{}
	}
	o.kindChecks[gvk] = checkResult{s, err}
	return s, err
}

// checkResult is one kind's schema for schemacheck, or why it cannot be
// read.
type checkResult struct {
	schema *schemacheck.Schema
	err    error
}

// schemaResult is one group-version's schemas, or why they cannot be read.
type schemaResult struct {
	conv managedfields.TypeConverter
	err  error
}
