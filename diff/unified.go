package diff

import "fmt"

// DefaultContext is how many unchanged lines `git diff` shows around a
// change.
const DefaultContext = 3

// DiffHunk is one hunk of a two-way diff as `git diff` shows it: the
// changed runs that lie close together, with up to context unchanged lines
// around them.
type DiffHunk struct {
	// A and B are the lines of each text the hunk covers, context
	// included.
	A, B LineRange
	// Edits are the hunk's runs, the equal ones cut to the context.
	Edits []LineEdit
}

// Header is the hunk's `@@ -a,n +b,m @@` line, with 1-based line numbers;
// an empty range is numbered by the line before it, as in git.
func (h DiffHunk) Header() string {
	r := func(l LineRange) string {
		start := l.Start + 1
		if l.Len == 0 {
			start = l.Start
		}
		if l.Len == 1 {
			return fmt.Sprint(start)
		}
		return fmt.Sprintf("%d,%d", start, l.Len)
	}
	return "@@ -" + r(h.A) + " +" + r(h.B) + " @@"
}

// Hunks groups a line diff (LineDiff's runs) into hunks with context
// unchanged lines around each change; changes fewer than 2*context lines
// apart share a hunk. Equal texts have no hunks.
func Hunks(edits []LineEdit, context int) []DiffHunk {
	var out []DiffHunk
	var cur *DiffHunk
	for i, e := range edits {
		if e.Op != LineEqual {
			if cur == nil {
				out = append(out, DiffHunk{A: LineRange{Start: e.A.Start}, B: LineRange{Start: e.B.Start}})
				cur = &out[len(out)-1]
			}
			cur.Edits = append(cur.Edits, e)
			continue
		}
		first, last := i == 0, i == len(edits)-1
		n := len(e.Lines)
		switch {
		case cur == nil && first && last:
		case cur == nil:
			// Context before the next change.
			k := min(context, n)
			if last {
				continue
			}
			out = append(out, DiffHunk{A: LineRange{Start: e.A.Start + n - k}, B: LineRange{Start: e.B.Start + n - k}})
			cur = &out[len(out)-1]
			cur.Edits = append(cur.Edits, cut(e, n-k, k))
		case last || n > 2*context:
			// Context after the change; the hunk ends here.
			cur.Edits = append(cur.Edits, cut(e, 0, min(context, n)))
			cur = nil
			if !last {
				k := min(context, n)
				out = append(out, DiffHunk{A: LineRange{Start: e.A.Start + n - k}, B: LineRange{Start: e.B.Start + n - k}})
				cur = &out[len(out)-1]
				cur.Edits = append(cur.Edits, cut(e, n-k, k))
			}
		default:
			cur.Edits = append(cur.Edits, e)
		}
	}
	// A hunk opened on context with no change after it is dropped.
	kept := out[:0]
	for _, h := range out {
		changed := false
		for _, e := range h.Edits {
			if e.Op != LineEqual {
				changed = true
			}
			h.A.Len += e.A.Len
			h.B.Len += e.B.Len
		}
		if changed {
			kept = append(kept, h)
		}
	}
	return kept
}

// cut is n lines of an equal run from its k-th.
func cut(e LineEdit, k, n int) LineEdit {
	return LineEdit{Op: LineEqual, A: LineRange{e.A.Start + k, n}, B: LineRange{e.B.Start + k, n}, Lines: e.Lines[k : k+n]}
}
