package diff

import (
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kedit/kedit/diff/internal/builtinschema"
)

// Schemas turns an object into a structured-merge-diff typed value, which
// tells MergeObjects which maps merge key by key, which lists merge item by
// item (and by which keys) and which values are atomic.
//
// kube/ hands in the schemas the API server publishes, which is how custom
// resources get merged by their own schema. Any
// k8s.io/apimachinery/pkg/util/managedfields.TypeConverter satisfies it, for
// instance one built with managedfields.NewTypeConverter from the server's
// OpenAPI v3 documents. An error (such as an unknown kind) makes MergeObjects
// fall back to the built-in schemas, then to a schema deduced from the
// objects themselves.
type Schemas interface {
	ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error)
}

// Option tunes MergeObjects and MergeDocuments.
type Option func(*mergeConfig)

type mergeConfig struct {
	schemas Schemas
	text    TextOptions
	// statusEdited: status is what the user edits (WithStatusEdited).
	statusEdited bool
}

// WithStatusEdited says that the object is edited through its status
// subresource: its status is what the user edits, merges and saves, not
// the server's. Without it status is the server's, as the rest of what
// StripServerOwned removes: never compared, never merged, theirs' taken.
func WithStatusEdited() Option {
	return func(c *mergeConfig) { c.statusEdited = true }
}

// configOf is the merge configuration opts make.
func configOf(opts []Option) mergeConfig {
	var cfg mergeConfig
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// WithText makes MergeDocuments write its result as opts say (see
// MergeDocuments); MergeObjects does not look at it.
func WithText(opts TextOptions) Option {
	return func(c *mergeConfig) { c.text = opts }
}

// WithSchemas makes MergeObjects try s before the built-in schemas; kube/
// passes the server's published schemas here so that custom resources merge
// by their own list keys.
func WithSchemas(s Schemas) Option {
	return func(c *mergeConfig) { c.schemas = s }
}

// SchemaSource says where the schema used for a merge came from.
type SchemaSource string

// The schema sources, in the order MergeObjects tries them.
const (
	// SchemaGiven is the schema handed in with WithSchemas.
	SchemaGiven SchemaSource = "given"
	// SchemaBuiltin is client-go's schema for the built-in kinds.
	SchemaBuiltin SchemaSource = "builtin"
	// SchemaDeduced is deduced from the objects: maps merge key by key,
	// every list is atomic.
	SchemaDeduced SchemaSource = "deduced"
)

// builtinSchemas is the type converter for the built-in kinds: client-go's
// schema of them (builtinschema holds it as Go data: client-go's own
// converter parses its YAML at the first merge, about 150 ms), looked up by
// the OpenAPI names client-go's scheme gives the kinds (builtinschema has
// that table too, so diff does not link the scheme and with it every
// built-in API group). It is shared, so that what its parser resolves is
// resolved once.
var builtinSchemas = sync.OnceValue(func() Schemas {
	return builtinConverter{builtinschema.Parser()}
})

// builtinConverter is managedfields.NewSchemeTypeConverter over client-go's
// scheme, for the objects diff types: unstructured ones.
type builtinConverter struct{ parser *typed.Parser }

func (c builtinConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("the built-in schemas type unstructured objects, not %T", obj)
	}
	gvk := u.GroupVersionKind()
	name, ok := builtinschema.TypeName(gvk.Group, gvk.Version, gvk.Kind)
	if !ok {
		return nil, fmt.Errorf("%s is not a built-in kind", gvk)
	}
	return c.parser.Type(name).FromUnstructured(u.Object, opts...)
}

// LoadBuiltinSchemas makes the first MergeObjects of a built-in kind as
// fast as the next ones by resolving a first object ahead of time (well
// under a millisecond since the schema is Go data; it was 150 ms when
// client-go's YAML was parsed here). It is safe to call from any
// goroutine, any number of times.
func LoadBuiltinSchemas() {
	_, _ = builtinSchemas().ObjectToTyped(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "warm-up"},
	}})
}

// compareAll types the three versions with the first schema that accepts
// all of them, and compares mine and theirs with base.
func compareAll(cfg mergeConfig, b, m, t *unstructured.Unstructured) (tb, tm, tt *typed.TypedValue, cmpMine, cmpTheirs *typed.Comparison, src SchemaSource, err error) {
	type candidate struct {
		src SchemaSource
		s   Schemas
	}
	var cands []candidate
	if cfg.schemas != nil {
		cands = append(cands, candidate{SchemaGiven, cfg.schemas})
	}
	cands = append(cands, candidate{SchemaBuiltin, builtinSchemas()})
	var errs []error
	for _, c := range cands {
		tb, tm, tt, cmpMine, cmpTheirs, err = compareWith(c.s.ObjectToTyped, b, m, t)
		if err == nil {
			return tb, tm, tt, cmpMine, cmpTheirs, c.src, nil
		}
		errs = append(errs, fmt.Errorf("%s schema: %w", c.src, err))
	}
	deduced := func(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
		return typed.DeducedParseableType.FromUnstructured(obj.(*unstructured.Unstructured).Object, opts...)
	}
	tb, tm, tt, cmpMine, cmpTheirs, err = compareWith(deduced, b, m, t)
	if err != nil {
		errs = append(errs, fmt.Errorf("deduced schema: %w", err))
		return nil, nil, nil, nil, nil, "", fmt.Errorf("diff: cannot compare the objects: %w", errors.Join(errs...))
	}
	return tb, tm, tt, cmpMine, cmpTheirs, SchemaDeduced, nil
}

func compareWith(toTyped func(runtime.Object, ...typed.ValidationOptions) (*typed.TypedValue, error), b, m, t *unstructured.Unstructured) (tb, tm, tt *typed.TypedValue, cmpMine, cmpTheirs *typed.Comparison, err error) {
	defer func() {
		// A schema library that panics on odd input must not take kedit
		// down with it; the next schema gets a try.
		if r := recover(); r != nil {
			err = fmt.Errorf("panic while typing: %v", r)
		}
	}()
	if tb, err = toTyped(b, typed.AllowDuplicates); err != nil {
		return
	}
	// Base alone is validated: validation is a large part of a merge's
	// time, and Compare fails by itself on what matters (a field the
	// schema does not know), which sends the merge to the next schema; a
	// value of the wrong type in mine or theirs is just a changed leaf.
	// Compare then runs on the three pruned of what they share, which
	// gives the same change sets for a fraction of the work.
	pw := &walker{schema: tb.Schema()}
	pb, pm, pt := pw.prune(tb.TypeRef(), b.Object, m.Object, t.Object)
	asTyped := func(v any) *typed.TypedValue {
		//lint:ignore SA1019 deprecated for callers that skip validation by accident; see above.
		return typed.AsTypedUnvalidated(value.NewValueInterface(v), tb.Schema(), tb.TypeRef())
	}
	cb := asTyped(pb)
	tm, tt = asTyped(pm), asTyped(pt)
	if cmpMine, err = cb.Compare(tm); err != nil {
		return
	}
	cmpTheirs, err = cb.Compare(tt)
	return
}

// changeSet is every field a comparison mentions.
func changeSet(c *typed.Comparison) *fieldpath.Set {
	return c.Added.Union(c.Modified).Union(c.Removed)
}
