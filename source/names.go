package source

import (
	"regexp"
)

// The names of a build's objects: a generated object's name carries a
// hash of its content, which no edit of its source is a change of.

// hashSuffix is the suffix kustomize adds to a generated object's name.
var hashSuffix = regexp.MustCompile(`-[a-z0-9]{10}$`)

// unhashed returns the build's objects with each generated object's name
// hash taken off, wherever the name appears as a value: a generator's
// content changes its name and every reference to it, which is not a
// change of those objects.
func unhashed(objs []built) []built {
	names := map[string]string{}
	for _, b := range objs {
		if b.origin.ConfiguredBy.Kind == "ConfigMapGenerator" || b.origin.ConfiguredBy.Kind == "SecretGenerator" {
			if hashSuffix.MatchString(b.ref.Name) {
				names[b.ref.Name] = hashSuffix.ReplaceAllString(b.ref.Name, "")
			}
		}
	}
	if len(names) == 0 {
		return objs
	}
	out := make([]built, len(objs))
	for i, b := range objs {
		b.obj = renameValues(b.obj, names).(map[string]any)
		if n, ok := names[b.ref.Name]; ok {
			b.ref.Name = n
		}
		out[i] = b
	}
	return out
}

func renameValues(v any, names map[string]string) any {
	switch x := v.(type) {
	case string:
		if n, ok := names[x]; ok {
			return n
		}
		return x
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = renameValues(e, names)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = renameValues(e, names)
		}
		return l
	}
	return v
}

// sameRef says whether b is the object named by r: the same identity, or
// for a generated object the same name but for its hash.
func sameRef(b built, r Ref) bool {
	// An object the build leaves without a namespace is applied to one
	// (the GitOps tool's target namespace, or kubectl's default).
	if b.ref.Group != r.Group || b.ref.Kind != r.Kind || (b.ref.Namespace != "" && b.ref.Namespace != r.Namespace) {
		return false
	}
	if b.ref.Name == r.Name {
		return true
	}
	// The build's name without its hash: an output taken through unhashed.
	return hashSuffix.MatchString(r.Name) && hashSuffix.ReplaceAllString(b.ref.Name, "") == hashSuffix.ReplaceAllString(r.Name, "")
}
