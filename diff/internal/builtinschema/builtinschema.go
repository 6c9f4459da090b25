// Package builtinschema holds client-go's structured-merge-diff schema of
// the built-in kinds as Go data. client-go keeps it as YAML that its
// parser reads and validates at a process's first merge of a built-in kind
// (about 150 ms); here it is laid out at build time and costs nothing to
// load. The test checks it against client-go's own, so a client-go upgrade
// without go generate fails it.
package builtinschema

//go:generate go run ./gen

import (
	"sort"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// The scalars and element relationships that types point to. The
// generator (gen) writes &relX for every relationship a type states: the
// built-in kinds state none but separable today, and may in another
// Kubernetes version.
var (
	scalarNumeric = schema.Numeric
	scalarString  = schema.String
	scalarBoolean = schema.Boolean
	scalarUntyped = schema.Untyped
	relSeparable  = schema.Separable
	//lint:ignore U1000 for the generator's output (above)
	relAtomic = schema.Atomic
	//lint:ignore U1000 for the generator's output (above)
	relAssociative = schema.Associative
)

// Parser returns a parser of the built-in kinds' types, by their OpenAPI
// definition names (io.k8s.api.apps.v1.Deployment). Each call returns a
// parser of its own, which shares the types: parsers cache what they
// resolve.
func Parser() *typed.Parser {
	mapDefaults()
	p := &typed.Parser{}
	p.Schema.Types = types
	return p
}

// mapDefaults sets the defaults that are maps, once: as Go literals they
// would make the whole table be built at start-up.
var mapDefaults = sync.OnceFunc(setMapDefaults)

// kind is a row of the kinds table: a group, version and kind, and the
// name of its type.
type kind struct{ group, version, kind, name string }

// TypeName returns the name of the type of the built-in kind (group "" for
// the core group), as client-go's scheme names it
// (io.k8s.api.apps.v1.Deployment for apps/v1 Deployment), and false for a
// kind the scheme does not have or has no type of here.
func TypeName(group, version, kindName string) (string, bool) {
	less := func(r kind) bool {
		if r.group != group {
			return r.group < group
		}
		if r.version != version {
			return r.version < version
		}
		return r.kind < kindName
	}
	i := sort.Search(len(kinds), func(i int) bool { return !less(kinds[i]) })
	if i < len(kinds) && kinds[i].group == group && kinds[i].version == version && kinds[i].kind == kindName {
		return kinds[i].name, true
	}
	return "", false
}
