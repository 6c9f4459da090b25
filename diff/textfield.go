package diff

import (
	"sort"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// textField is a multi-line string both sides changed, with lines that
// collide: its value is put together from base's lines, the clean regions
// of both sides, and one choice per colliding region. Nothing only one
// side changed can go missing that way, whatever the choices.
type textField struct {
	base textLines
	// hunks are the line merge's regions in base order.
	hunks []Hunk
}

func newTextField(base string, hunks []Hunk) *textField {
	f := &textField{base: newTextLines(base), hunks: append([]Hunk(nil), hunks...)}
	// Regions never overlap in base; Merge3Text lists them in mine's
	// order, which is the same but for empty runs, so sort to be sure.
	sort.SliceStable(f.hunks, func(a, b int) bool { return f.hunks[a].Base.Start < f.hunks[b].Base.Start })
	return f
}

// text writes the field: base's lines between regions, a clean region's
// side, and for the j-th colliding region what pick(j, h) writes.
func (f *textField) write(b *strings.Builder, pick func(j int, h *Hunk)) {
	pos, j := 0, 0
	for k := range f.hunks {
		h := &f.hunks[k]
		b.WriteString(f.base.span(pos, h.Base.Start-pos))
		switch {
		case h.Conflict:
			pick(j, h)
			j++
		case h.Side == SideTheirs:
			writeLines(b, h.TheirsLines)
		default:
			writeLines(b, h.MineLines)
		}
		pos = h.Base.Start + h.Base.Len
	}
	b.WriteString(f.base.span(pos, f.base.n()-pos))
}

// resolved is the field with the j-th colliding region resolved by r(j).
func (f *textField) resolved(r func(j int) Resolution) string {
	var b strings.Builder
	f.write(&b, func(j int, h *Hunk) { b.WriteString(hunkLines(h, r(j))) })
	return b.String()
}

// withBlocks is the field with each open colliding region written as a
// block in bf's format with markers of size, and the others as resolved:
// what the user edits by hand. Inside a block every section ends with a
// line end, as git writes them.
func (f *textField) withBlocks(r func(j int) Resolution, bf blockFormat, size int) string {
	var b strings.Builder
	section := func(ls []string) {
		writeLines(&b, ls)
		if n := len(ls); n > 0 && !strings.HasSuffix(ls[n-1], "\n") {
			b.WriteByte('\n')
		}
	}
	f.write(&b, func(j int, h *Hunk) {
		if res := r(j); res.Choice != Unresolved {
			b.WriteString(hunkLines(h, res))
			return
		}
		bf.writeBlock(&b, size, h.MineLines, h.BaseLines, h.TheirsLines, section)
	})
	return b.String()
}

// hunkLines is the text a resolution gives a colliding region; an open one
// keeps theirs' lines, as an open conflict keeps theirs' value.
func hunkLines(h *Hunk, r Resolution) string {
	switch r.Choice {
	case TakeMine:
		return strings.Join(h.MineLines, "")
	case TakeBase:
		return strings.Join(h.BaseLines, "")
	case TakeCustom:
		s, _ := r.Value.Value.(string)
		return s
	}
	return strings.Join(h.TheirsLines, "")
}

// childValue is v's value at one path element: a map's field, the item of
// a keyed list whose keys match, a set's item, or an item by index.
func childValue(v any, pe fieldpath.PathElement) (any, bool) {
	switch {
	case pe.FieldName != nil:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		c, ok := m[*pe.FieldName]
		return c, ok
	case pe.Key != nil:
		items, _ := v.([]any)
	items:
		for _, it := range items {
			m, ok := it.(map[string]any)
			if !ok {
				continue
			}
			for _, f := range *pe.Key {
				kv, ok := m[f.Name]
				if !ok || !equalJSON(kv, f.Value.Unstructured()) {
					continue items
				}
			}
			return it, true
		}
	case pe.Value != nil:
		items, _ := v.([]any)
		want := (*pe.Value).Unstructured()
		for _, it := range items {
			if equalJSON(it, want) {
				return it, true
			}
		}
	case pe.Index != nil:
		items, _ := v.([]any)
		if i := *pe.Index; i >= 0 && i < len(items) {
			return items[i], true
		}
	}
	return nil, false
}

// ValueAt returns obj's value at path, in the form FieldValue holds
// (absent when obj has no such field). A Secret's data is not decoded.
func ValueAt(obj map[string]any, path fieldpath.Path) FieldValue {
	n := node{obj, obj != nil}
	for _, pe := range path {
		n = n.child(pe)
	}
	return n.field()
}

// blockFormat is how an object merge writes its conflict blocks.
type blockFormat struct {
	labels  Labels
	noBase  bool
	minSize int
}

// blockFormat is the format opts ask of an object merge's blocks.
func (o TextOptions) blockFormat() blockFormat {
	bf := blockFormat{labels: DefaultLabels, noBase: o.Style == StyleMerge, minSize: o.MarkerSize}
	if o.Labels != nil {
		bf.labels = *o.Labels
	}
	return bf
}

// writeBlock writes one conflict block with markers of size, each side's
// lines written by section, as Merge3Text writes a block.
func (bf blockFormat) writeBlock(b *strings.Builder, size int, mine, base, theirs []string, section func([]string)) {
	writeMarker(b, '<', size, bf.labels.Mine, true, false)
	section(mine)
	if !bf.noBase {
		writeMarker(b, '|', size, bf.labels.Base, true, false)
		section(base)
	}
	writeMarker(b, '=', size, "", false, false)
	section(theirs)
	writeMarker(b, '>', size, bf.labels.Theirs, true, false)
}
