package source

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The edits of several objects of one source, planned one on another
// and written as one.

// PlanOn plans as Plan does, on the files as the edits before left them:
// the edits of several objects of one source, each planned and checked on
// the texts the ones before it made, so that two edits of one file (two
// objects of one generator, say) both land. The contract holds for the
// edits together: each earlier edit's build, where it is another
// kustomization's, must come out the same, so that no edit changes what
// an earlier one wrote. The edit's Old texts are those the edits before
// left; Combine makes one edit of them all.
func PlanOn(before []*Edit, src *Source, base, mine *unstructured.Unstructured) (*Edit, error) {
	cs, left, err := changesLeft(base, mine)
	if err != nil {
		return nil, err
	}
	if err := unreproduced(base.Object, mine.Object, cs); err != nil {
		return nil, err
	}
	t, err := readTree(src.Dir)
	if err != nil {
		return nil, err
	}
	roots := map[string]bool{}
	for _, e := range before {
		if e.Dir != t.dir {
			return nil, fmt.Errorf("the edits are of two directories, %s and %s", e.Dir, t.dir)
		}
		for _, f := range e.Files {
			t.files[f.Path] = f.New
		}
		if e.root != "" && e.root != src.Kustomization {
			roots[e.root] = true
		}
	}
	e, err := planOn(t, src, cs, base)
	if err != nil {
		return nil, err
	}
	if len(e.Files) == 0 {
		return nil, fmt.Errorf("%w (%s): nothing to write", ErrAlreadyHeld, fieldsOf(cs))
	}
	if len(left) > 0 {
		e.Notes = append(e.Notes, leftOutNote(left))
	}
	over := map[string][]byte{}
	for _, f := range e.Files {
		over[f.Path] = f.New
	}
	for _, root := range slices.Sorted(maps.Keys(roots)) {
		was, err := t.build(root, nil)
		if err != nil {
			return nil, err
		}
		now, err := t.build(root, over)
		if err != nil {
			return nil, &PlaceError{Field: fieldsOf(cs), Why: "with the edit " + displayDir(root) + " does not build: " + err.Error()}
		}
		if r, same := sameBuild(was, now); !same {
			return nil, &PlaceError{Field: fieldsOf(cs), Why: "the edit would change " + r.String() + ", which " + displayDir(root) + " builds, as an earlier edit left it"}
		}
	}
	return e, nil
}

// sameBuild reports whether two builds hold the same objects, and else
// one that differs.
func sameBuild(was, now []built) (Ref, bool) {
	was, now = unhashed(was), unhashed(now)
	objs := map[Ref]map[string]any{}
	for _, b := range now {
		objs[b.ref] = b.obj
	}
	for _, b := range was {
		o, ok := objs[b.ref]
		if !ok || !sameObject(b.obj, o) {
			return b.ref, false
		}
		delete(objs, b.ref)
	}
	for r := range objs {
		return r, false
	}
	return Ref{}, true
}

// Combine makes one edit of edits planned one on another (PlanOn): each
// file from the text it had before the first to the text the last left,
// and every placement. Its Write checks every file before it writes any.
func Combine(edits []*Edit) (*Edit, error) {
	if len(edits) == 0 {
		return nil, errors.New("no edit to combine")
	}
	all := &Edit{Dir: edits[0].Dir}
	at := map[string]int{}
	for _, e := range edits {
		if e.Dir != all.Dir {
			return nil, fmt.Errorf("the edits are of two directories, %s and %s", all.Dir, e.Dir)
		}
		for _, f := range e.Files {
			if i, ok := at[f.Path]; ok {
				all.Files[i].New = f.New
				continue
			}
			at[f.Path] = len(all.Files)
			all.Files = append(all.Files, f)
		}
		all.Placed = append(all.Placed, e.Placed...)
		all.Notes = append(all.Notes, e.Notes...)
	}
	slices.SortFunc(all.Files, func(a, b FileEdit) int { return strings.Compare(a.Path, b.Path) })
	return all, nil
}
