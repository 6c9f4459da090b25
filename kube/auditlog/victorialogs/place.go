package victorialogs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// shape is what a field of an audit event holds.
type shape int

const (
	text     shape = iota // a string
	number                // a JSON number
	array                 // a JSON array
	body                  // any JSON: a request's or response's object
	object                // the fields of a struct: fields
	textMap               // a map of strings: any key, dots and all
	arrayMap              // a map of arrays (a user's extra)
)

type node struct {
	shape  shape
	fields map[string]*node
}

var (
	textNode   = &node{shape: text}
	numberNode = &node{shape: number}
	arrayNode  = &node{shape: array}
	userInfo   = &node{shape: object, fields: map[string]*node{
		"username": textNode, "uid": textNode, "groups": arrayNode, "extra": {shape: arrayMap},
	}}
	// eventShape is an audit.k8s.io/v1 Event.
	eventShape = &node{shape: object, fields: map[string]*node{
		"kind": textNode, "apiVersion": textNode, "level": textNode, "auditID": textNode, "stage": textNode,
		"requestURI": textNode, "verb": textNode, "userAgent": textNode,
		"requestReceivedTimestamp": textNode, "stageTimestamp": textNode,
		"user": userInfo, "impersonatedUser": userInfo, "sourceIPs": arrayNode,
		"objectRef": {shape: object, fields: map[string]*node{
			"resource": textNode, "namespace": textNode, "name": textNode, "uid": textNode, "apiGroup": textNode,
			"apiVersion": textNode, "resourceVersion": textNode, "subresource": textNode,
		}},
		"responseStatus": {shape: object, fields: map[string]*node{
			"kind": textNode, "apiVersion": textNode, "status": textNode, "message": textNode, "reason": textNode, "code": numberNode,
			"metadata": {shape: object, fields: map[string]*node{
				"selfLink": textNode, "resourceVersion": textNode, "continue": textNode, "remainingItemCount": numberNode,
			}},
			"details": {shape: object, fields: map[string]*node{
				"name": textNode, "group": textNode, "kind": textNode, "uid": textNode, "causes": arrayNode, "retryAfterSeconds": numberNode,
			}},
		}},
		"requestObject": {shape: body}, "responseObject": {shape: body},
		"annotations":            {shape: textMap},
		"authenticationMetadata": {shape: object, fields: map[string]*node{"impersonationConstraint": textNode}},
	}}
)

// place puts the field named rest (full: its whole name) with value v
// into obj, whose shape is n. It reports a body that came flattened.
func place(obj map[string]any, n *node, full, rest, v string) (flattened bool, err error) {
	// No field of an event has a dot in its name: the first dot is a
	// level, and a map's key is the rest, dots and all (even none: an
	// empty key).
	key, sub, dotted := rest, "", false
	child, ok := n.fields[key]
	if !ok {
		if i := strings.IndexByte(rest, '.'); i > 0 {
			key, sub, dotted = rest[:i], rest[i+1:], true
			child, ok = n.fields[key]
		}
	}
	if !ok {
		if n == eventShape {
			return false, nil // a shipper's own field: no part of the event
		}
		obj[rest] = v // a field of a later version of the API: kept as text
		return false, nil
	}
	if !dotted {
		val, err := value(child, v)
		if err != nil {
			return false, fmt.Errorf("%s: %w", full, err)
		}
		return false, merge(obj, key, val, full)
	}
	switch child.shape {
	case object:
		inner, err := inner(obj, key, full)
		if err != nil {
			return false, err
		}
		return place(inner, child, full, sub, v)
	case textMap, arrayMap:
		inner, err := inner(obj, key, full)
		if err != nil {
			return false, err
		}
		item := textNode
		if child.shape == arrayMap {
			item = arrayNode
		}
		val, err := value(item, v)
		if err != nil {
			return false, fmt.Errorf("%s: %w", full, err)
		}
		inner[sub] = val
		return false, nil
	case body:
		inner, err := inner(obj, key, full)
		if err != nil {
			return false, err
		}
		setPath(inner, strings.Split(sub, "."), flatValue(v))
		return true, nil
	}
	return false, fmt.Errorf("%s: %s holds no fields", full, key)
}

// value reads v as what n holds. A field that is an object or a map comes
// whole as JSON when a key of it was too long to flatten.
func value(n *node, v string) (any, error) {
	switch n.shape {
	case text:
		return v, nil
	case number:
		var num json.Number
		if err := json.Unmarshal([]byte(v), &num); err != nil {
			return nil, fmt.Errorf("%q is no number", v)
		}
		return num, nil
	case body:
		if json.Valid([]byte(v)) {
			return json.RawMessage(v), nil
		}
		return v, nil
	}
	if !json.Valid([]byte(v)) {
		return nil, fmt.Errorf("%.80q is no JSON", v)
	}
	return json.RawMessage(v), nil
}

// merge sets obj[key] to val, or merges an object's JSON into the fields
// of it placed so far.
func merge(obj map[string]any, key string, val any, full string) error {
	old, had := obj[key]
	if !had {
		obj[key] = val
		return nil
	}
	oldMap, ok1 := old.(map[string]any)
	raw, ok2 := val.(json.RawMessage)
	var add map[string]any
	if !ok1 || !ok2 || decode(raw, &add) != nil {
		return fmt.Errorf("%s: given twice", full)
	}
	for k, v := range add {
		oldMap[k] = v
	}
	return nil
}

// inner is obj's object at key, made when missing; a key holding JSON
// (a part kept whole) is opened.
func inner(obj map[string]any, key, full string) (map[string]any, error) {
	switch v := obj[key].(type) {
	case nil:
		m := map[string]any{}
		obj[key] = m
		return m, nil
	case map[string]any:
		return v, nil
	case json.RawMessage:
		var m map[string]any
		if decode(v, &m) != nil {
			return nil, fmt.Errorf("%s: %s is no object", full, key)
		}
		obj[key] = m
		return m, nil
	}
	return nil, fmt.Errorf("%s: %s is no object", full, key)
}

// setPath sets a flattened body's field: each dot a level, as the best
// that can be done (a key with a dot cannot be told from two levels).
func setPath(obj map[string]any, path []string, v any) {
	for _, k := range path[:len(path)-1] {
		next, ok := obj[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[k] = next
		}
		obj = next
	}
	obj[path[len(path)-1]] = v
}

// flatValue guesses a flattened body's value: an array as JSON (its text
// is exact), anything else a string (a number and its text are one).
func flatValue(v string) any {
	if strings.HasPrefix(v, "[") && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	return v
}

// decode reads JSON keeping numbers as their text.
func decode(raw []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(v)
}
