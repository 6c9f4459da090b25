package model

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kedit/kedit/diff"
)

// The timeline keeps the newest version whole and, for every older one, a
// reverse delta: what to change in the next newer version to get it back.
// A delta holds only the fields that differ, each with its older value, so
// a version that changed one line of a 1 MiB ConfigMap costs that line, not
// another megabyte.

// opKind says what a deltaOp does at its path.
type opKind int8

const (
	// opSet puts the older value at the path (it was added or changed
	// since).
	opSet opKind = iota + 1
	// opDelete removes the path's map key: the older version did not have
	// it.
	opDelete
	// opText edits the path's multi-line string line by line.
	opText
)

// deltaOp is one field of a reverse delta.
type deltaOp struct {
	// path leads from the object's root: string for a map key, int for a
	// list index. Lists are entered by index only when both versions have
	// the same length, so indexes mean the same item on both sides.
	path []any
	kind opKind
	// value is the older value for opSet. It is never changed once
	// stored, and handed out only as a copy.
	value any
	// edits turn the newer string into the older for opText, ascending
	// and not overlapping.
	edits []textEdit
}

// textEdit replaces lines [start, start+n) of the newer string (0-based,
// each with its "\n") by text, the older lines.
type textEdit struct {
	start, n int
	text     string
}

// delta is a reverse delta: applying it to a version gives the version
// before it. Its ops' paths are disjoint: none is a prefix of another.
type delta struct {
	ops  []deltaOp
	size int
}

// textDeltaMin is the size from which a changed multi-line string is stored
// as a line edit rather than whole: below it the edit's bookkeeping costs
// more than the text.
const textDeltaMin = 1024

// reverseDelta returns the delta that turns newer back into older. Neither
// is changed, and the delta shares no memory with newer; it may share
// subtrees of older, which the caller must no longer change.
func reverseDelta(newer, older any) delta {
	var d delta
	diffValues(&d, nil, newer, older)
	for _, op := range d.ops {
		d.size += opSize(op)
	}
	return d
}

func diffValues(d *delta, path []any, newer, older any) {
	switch o := older.(type) {
	case map[string]any:
		n, ok := newer.(map[string]any)
		if !ok {
			break
		}
		for k, ov := range o {
			nv, found := n[k]
			if !found {
				d.ops = append(d.ops, deltaOp{path: extend(path, k), kind: opSet, value: retain(ov)})
				continue
			}
			diffValues(d, extend(path, k), nv, ov)
		}
		for k := range n {
			if _, found := o[k]; !found {
				d.ops = append(d.ops, deltaOp{path: extend(path, k), kind: opDelete})
			}
		}
		return
	case []any:
		n, ok := newer.([]any)
		if !ok || len(n) != len(o) {
			break
		}
		for i := range o {
			diffValues(d, extend(path, i), n[i], o[i])
		}
		return
	case string:
		n, ok := newer.(string)
		if !ok {
			break
		}
		if n == o {
			return
		}
		if len(n)+len(o) >= textDeltaMin && strings.Contains(n, "\n") && strings.Contains(o, "\n") {
			d.ops = append(d.ops, deltaOp{path: clonePath(path), kind: opText, edits: textEdits(n, o)})
			return
		}
	default:
		if sameScalar(newer, older) {
			return
		}
	}
	d.ops = append(d.ops, deltaOp{path: clonePath(path), kind: opSet, value: retain(older)})
}

// extend returns path with el appended, never sharing path's array: the
// recursion's siblings each keep their own.
func extend(path []any, el any) []any {
	out := make([]any, len(path)+1)
	copy(out, path)
	out[len(path)] = el
	return out
}

func clonePath(path []any) []any { return append([]any(nil), path...) }

// retain returns v for keeping: strings are cloned, so that a substring
// never holds on to a larger string it was cut from, and containers are
// deep-copied, so that the delta owns what it keeps.
func retain(v any) any {
	switch x := v.(type) {
	case string:
		return strings.Clone(x)
	case map[string]any, []any:
		return cloneStrings(x)
	}
	return v
}

// cloneStrings copies v with every string cloned (DeepCopyJSONValue shares
// strings, which is right for a copy but not for keeping a substring's
// whole backing array alive).
func cloneStrings(v any) any {
	switch x := v.(type) {
	case string:
		return strings.Clone(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[strings.Clone(k)] = cloneStrings(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = cloneStrings(e)
		}
		return l
	}
	return v
}

// textEdits returns the line edits that turn newer into older. The lines
// both share at the start and the end are set aside first; what remains is
// diffed line by line when most of it is shared (a few lines changed here
// and there), and otherwise kept as one replacement, which is what a
// rewrite costs anyway and spares a line diff of two unrelated texts its
// quadratic worst case.
func textEdits(newer, older string) []textEdit {
	nmid, omid, first := middles(newer, older)
	nm, om := splitLines(nmid), splitLines(omid)
	p := first
	if !mostlyShared(nm, om) {
		return []textEdit{{start: p, n: len(nm), text: strings.Clone(omid)}}
	}
	var out []textEdit
	var cur *textEdit
	for _, e := range diff.LineDiff(nmid, omid) {
		if e.Op == diff.LineEqual {
			cur = nil
			continue
		}
		// A delete and the insert next to it replace the same lines.
		if cur == nil || cur.start+cur.n != p+e.A.Start {
			out = append(out, textEdit{start: p + e.A.Start})
			cur = &out[len(out)-1]
		}
		if e.Op == diff.LineDelete {
			cur.n += e.A.Len
		} else {
			cur.text += strings.Join(e.Lines, "")
		}
	}
	for i := range out {
		// The inserted lines are cut from older: clone them so that they
		// do not keep older alive as a whole.
		out[i].text = strings.Clone(out[i].text)
	}
	return out
}

// middles cuts from a and b the whole lines they share at the start and at
// the end, by comparing bytes rather than splitting a megabyte into lines,
// and returns what remains of each and the number of lines cut from the
// start.
func middles(a, b string) (amid, bmid string, first int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	p = strings.LastIndexByte(a[:p], '\n') + 1
	ea, eb := len(a), len(b)
	for ea > p && eb > p && a[ea-1] == b[eb-1] {
		ea, eb = ea-1, eb-1
	}
	// The shared end must start a line in both texts; step into it until
	// it does (inside it, a's and b's bytes are the same).
	for ea < len(a) && !(lineStart(a, ea, p) && lineStart(b, eb, p)) {
		n := strings.IndexByte(a[ea:], '\n')
		if n < 0 {
			ea, eb = len(a), len(b)
			break
		}
		ea, eb = ea+n+1, eb+n+1
	}
	return a[p:ea], b[p:eb], strings.Count(a[:p], "\n")
}

// lineStart reports whether offset i of s starts a line, p being a line
// start known to both texts.
func lineStart(s string, i, p int) bool { return i == p || s[i-1] == '\n' }

// mostlyShared reports whether nine in ten of the lines of a are in b too.
func mostlyShared(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	in := make(map[string]struct{}, len(b))
	for _, l := range b {
		in[l] = struct{}{}
	}
	shared := 0
	for _, l := range a {
		if _, ok := in[l]; ok {
			shared++
		}
	}
	return shared*10 >= len(a)*9
}

// splitLines splits s into lines that keep their "\n"; the last line has
// none when s does not end in one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// applyText applies edits to s.
func applyText(s string, edits []textEdit) string {
	if len(edits) == 0 {
		return s
	}
	// starts[i] is the offset of line i; one past the last line is len(s).
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			starts = append(starts, i+1)
		}
	}
	lineAt := func(i int) int {
		if i >= len(starts) {
			return len(s)
		}
		return starts[i]
	}
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for _, e := range edits {
		b.WriteString(s[pos:lineAt(e.start)])
		b.WriteString(e.text)
		pos = lineAt(e.start + e.n)
	}
	b.WriteString(s[pos:])
	return b.String()
}

// apply applies d to root, which the caller owns and which apply changes,
// and returns the result (a new root only when the whole value was
// replaced).
func (d delta) apply(root any) any {
	for _, op := range d.ops {
		root = applyOp(root, op)
	}
	return root
}

func applyOp(root any, op deltaOp) any {
	if len(op.path) == 0 {
		switch op.kind {
		case opSet:
			return runtime.DeepCopyJSONValue(op.value)
		case opText:
			s, _ := root.(string)
			return applyText(s, op.edits)
		}
		return nil
	}
	parent := root
	for _, el := range op.path[:len(op.path)-1] {
		parent = child(parent, el)
	}
	last := op.path[len(op.path)-1]
	switch p := parent.(type) {
	case map[string]any:
		k, _ := last.(string)
		switch op.kind {
		case opSet:
			p[k] = runtime.DeepCopyJSONValue(op.value)
		case opDelete:
			delete(p, k)
		case opText:
			s, _ := p[k].(string)
			p[k] = applyText(s, op.edits)
		}
	case []any:
		i, _ := last.(int)
		if i < 0 || i >= len(p) {
			return root
		}
		switch op.kind {
		case opSet:
			p[i] = runtime.DeepCopyJSONValue(op.value)
		case opText:
			s, _ := p[i].(string)
			p[i] = applyText(s, op.edits)
		}
	}
	return root
}

func child(v any, el any) any {
	switch x := v.(type) {
	case map[string]any:
		k, _ := el.(string)
		return x[k]
	case []any:
		i, _ := el.(int)
		if i >= 0 && i < len(x) {
			return x[i]
		}
	}
	return nil
}

// sameScalar reports whether two values are the same JSON scalar of the
// same Go type: int64(1) and float64(1) differ, since a reconstructed
// version must be the version observed, type for type.
func sameScalar(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return false
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return a == b
}
