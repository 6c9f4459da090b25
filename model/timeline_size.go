package model

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// Sizes in bytes of what the timeline keeps, as the Go heap holds it on
// amd64: a string header is 16 bytes, an interface 16, a slice header 24.
// A map's cost per entry is an estimate of its buckets' share (the key's
// header, the value's interface, the control bytes and the load factor's
// slack).
const (
	stringHeader   = 16
	ifaceSize      = 16
	sliceHeader    = 24
	mapHeader      = 48
	mapEntry       = 48
	boxedScalar    = 8
	opOverhead     = 80
	editOverhead   = 40
	entryOverhead  = 240
	changeOverhead = 40
)

// ObjectSize estimates the heap bytes obj's content holds: the rule the
// timeline keeps its versions by, which the watch's queue bounds its
// events by too (0 for nil).
func ObjectSize(obj *unstructured.Unstructured) int {
	if obj == nil {
		return 0
	}
	return valueSize(obj.Object)
}

// valueSize estimates the heap bytes v holds, the interface holding it
// excluded.
func valueSize(v any) int {
	switch x := v.(type) {
	case string:
		return stringHeader + len(x)
	case map[string]any:
		n := mapHeader
		for k, e := range x {
			n += mapEntry + len(k) + valueSize(e)
		}
		return n
	case []any:
		n := sliceHeader + ifaceSize*cap(x)
		for _, e := range x {
			n += valueSize(e)
		}
		return n
	case nil, bool:
		return 0
	}
	return boxedScalar
}

func opSize(op deltaOp) int {
	n := opOverhead + ifaceSize*len(op.path)
	for _, el := range op.path {
		if s, ok := el.(string); ok {
			n += stringHeader + len(s)
		} else {
			n += boxedScalar
		}
	}
	n += valueSize(op.value)
	for _, e := range op.edits {
		n += editOverhead + len(e.text)
	}
	return n
}

// entrySize estimates the heap bytes of an entry's own fields.
func entrySize(e *Entry) int {
	n := entryOverhead + len(e.ResourceVersion) + len(e.Manager) + len(e.Operation) + len(e.Subresource) + len(e.uid)
	for _, c := range e.Changes {
		n += changeOverhead + len(c.Path)
	}
	return n
}
