package diff

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// DocumentMerge is a three-way merge of three documents as `kedit merge`
// does it: Kubernetes manifests field by field, any other text line by
// line.
type DocumentMerge struct {
	// Object is the object merge when the documents were manifests, nil
	// for a line merge.
	Object *ObjectMerge
	// Text is the line merge when the documents were not manifests.
	Text TextMerge
	// Output is the merged document: for manifests the merged object as
	// YAML with a diff3 block per conflict (ObjectMerge.YAML), otherwise
	// the line merge, which equals
	// `git merge-file -p --diff3 -L mine -L base -L theirs` (with the
	// flags WithText's options stand for).
	Output string
	// markerSize is the line merge's, for finding its blocks.
	markerSize int
}

// Clean says whether the merge has no conflicts.
func (d *DocumentMerge) Clean() bool {
	if d.Object != nil {
		return d.Object.Open() == 0
	}
	return d.Text.Conflicts == 0
}

// ErrUnionObject is MergeDocuments' answer to FavorUnion for manifests: a
// field holds one value, so two cannot be joined as two texts' lines are.
var ErrUnionObject = errors.New("a union keeps the lines of both sides, and a manifest's field holds one value")

// MergeDocuments merges mine and theirs, both derived from base. When any
// of them is a Kubernetes manifest (YAML or JSON, one object with
// apiVersion and kind) all three must be, and they merge with MergeObjects;
// a document that is not then gives an *InputError naming its side. When
// none is a manifest, they merge line by line with Merge3Text.
//
// WithText's options apply to the line merge as to Merge3Text. For
// manifests, FavorMine and FavorTheirs resolve every conflict for that
// side, FavorUnion is ErrUnionObject, and the rest shapes the blocks as
// ObjectMerge.YAMLWith says.
//
// MergeDocuments does not change mine, base or theirs, and a line merge's
// result (Text, Output) shares their memory rather than copying megabytes
// it has no need to: the caller must not change them while it uses the
// result.
func MergeDocuments(mine, base, theirs []byte, opts ...Option) (*DocumentMerge, error) {
	var cfg mergeConfig
	for _, o := range opts {
		o(&cfg)
	}
	docs := []struct {
		side string
		data []byte
	}{{"mine", mine}, {"base", base}, {"theirs", theirs}}
	var objs [3]*unstructured.Unstructured
	var errs [3]error
	anyObject := false
	for i, d := range docs {
		objs[i], errs[i] = DecodeObject(d.data)
		anyObject = anyObject || errs[i] == nil
	}
	if !anyObject {
		tm := Merge3Text(viewString(mine), viewString(base), viewString(theirs), cfg.text)
		return &DocumentMerge{Text: tm, Output: tm.Merged, markerSize: cfg.text.MarkerSize}, nil
	}
	for i, err := range errs {
		if err != nil {
			if errors.Is(err, ErrNotObject) {
				err = fmt.Errorf("%w, unlike the other documents", err)
			}
			return nil, &InputError{Side: docs[i].side, Err: err}
		}
	}
	if cfg.text.Favor == FavorUnion {
		return nil, ErrUnionObject
	}
	om, err := MergeObjects(objs[1], objs[0], objs[2], opts...)
	if err != nil {
		return nil, err
	}
	if side := map[Favor]Choice{FavorMine: TakeMine, FavorTheirs: TakeTheirs}[cfg.text.Favor]; side != Unresolved {
		for i := range om.Conflicts {
			if om.Resolutions[i].Choice == Unresolved {
				if _, err := om.Resolve(i, Resolution{Choice: side}); err != nil {
					return nil, err
				}
			}
		}
	}
	out, err := om.YAMLWith(cfg.text)
	if err != nil {
		return nil, err
	}
	return &DocumentMerge{Object: om, Output: string(out)}, nil
}

// viewString is b as a string without a copy, for bytes that nobody
// changes while the string is in use (see MergeDocuments).
func viewString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Report is the machine-readable result of a merge, as `kedit merge --json`
// writes it.
type Report struct {
	Clean     bool             `json:"clean"`
	Conflicts []ReportConflict `json:"conflicts"`
	// Merged is the merged object for manifests (each open conflict's
	// field holding theirs' value, see ObjectMerge.Merged), and the merged
	// text with its conflict blocks otherwise.
	Merged any `json:"merged"`
}

// ReportConflict is one conflict of a Report. A side without the field has
// no key at all, while a field set to null has the value null.
type ReportConflict struct {
	// Path is the field in server-side apply's syntax for manifests, and
	// "line N" (the line of the block's opening marker in the merged text)
	// for a line merge.
	Path   string     `json:"path"`
	Base   *JSONValue `json:"base,omitempty"`
	Mine   *JSONValue `json:"mine,omitempty"`
	Theirs *JSONValue `json:"theirs,omitempty"`
	// Lines is set for a manifest's multi-line string whose lines collide:
	// each colliding region is a conflict of its own, with the same Path
	// and whole values, and Lines says which lines of each side it covers.
	Lines *ReportLines `json:"lines,omitempty"`
}

// ReportLines locates a colliding region of a multi-line string in each
// version.
type ReportLines struct {
	Base   ReportRegion `json:"base"`
	Mine   ReportRegion `json:"mine"`
	Theirs ReportRegion `json:"theirs"`
}

// ReportRegion is a run of lines of one version: Start is the 1-based
// number of its first line (of the line it comes before when Count is 0),
// and Text its lines.
type ReportRegion struct {
	Start int    `json:"start"`
	Count int    `json:"count"`
	Text  string `json:"text"`
}

func reportRegion(r LineRange, lines []string) ReportRegion {
	return ReportRegion{Start: r.Start + 1, Count: r.Len, Text: strings.Join(lines, "")}
}

// JSONValue is a present value in a report, null included.
type JSONValue struct{ V any }

// MarshalJSON writes the value itself.
func (v *JSONValue) MarshalJSON() ([]byte, error) { return json.Marshal(v.V) }

// Report describes the merge for machines.
func (d *DocumentMerge) Report() Report {
	r := Report{Clean: d.Clean(), Conflicts: []ReportConflict{}}
	if d.Object != nil {
		r.Merged = d.Object.Merged.Object
		for i, c := range d.Object.Conflicts {
			if d.Object.Resolutions[i].Choice != Unresolved {
				continue
			}
			rc := ReportConflict{
				Path:   c.Path.String(),
				Base:   reportValue(c.Base),
				Mine:   reportValue(c.Mine),
				Theirs: reportValue(c.Theirs),
			}
			if h := c.Hunk; h != nil {
				rc.Lines = &ReportLines{
					Base:   reportRegion(h.Base, h.BaseLines),
					Mine:   reportRegion(h.Mine, h.MineLines),
					Theirs: reportRegion(h.Theirs, h.TheirsLines),
				}
			}
			r.Conflicts = append(r.Conflicts, rc)
		}
		return r
	}
	r.Merged = d.Text.Merged
	lines := blockLines(d.Text.Merged, d.markerSize)
	n := 0
	for _, h := range d.Text.Hunks {
		if !h.Conflict {
			continue
		}
		path := fmt.Sprintf("base lines %d-%d", h.Base.Start+1, h.Base.Start+h.Base.Len)
		if n < len(lines) {
			path = fmt.Sprintf("line %d", lines[n])
		}
		n++
		r.Conflicts = append(r.Conflicts, ReportConflict{
			Path:   path,
			Base:   &JSONValue{strings.Join(h.BaseLines, "")},
			Mine:   &JSONValue{strings.Join(h.MineLines, "")},
			Theirs: &JSONValue{strings.Join(h.TheirsLines, "")},
		})
	}
	return r
}

func reportValue(fv FieldValue) *JSONValue {
	if !fv.Present {
		return nil
	}
	return &JSONValue{fv.Value}
}

// blockLines returns the 1-based lines of the opening markers of size (0
// meaning DefaultMarkerSize) in a line merge's output, in order.
func blockLines(text string, size int) []int {
	if size <= 0 {
		size = DefaultMarkerSize
	}
	var out []int
	for i, l := range strings.Split(text, "\n") {
		if n := len(l) - len(strings.TrimLeft(l, "<")); n == size && markerEnds(l, n) {
			out = append(out, i+1)
		}
	}
	return out
}
