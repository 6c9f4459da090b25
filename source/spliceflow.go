package source

import (
	"slices"
	"strings"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// flow writes the changes of a flow collection ([a, b] or {k: v}, on one
// line or several): its values changed in place, an item removed with its
// comma, a new one after the last or before the next item kept.
func (s *splicer) flow(o, e *kyaml.Node) {
	if len(o.Content) == 0 || len(e.Content) == 0 || o.Kind != e.Kind {
		s.add(s.t.content(o), s.t.end(o), s.flowText(e))
		return
	}
	var units []unit
	removed := map[int]bool{}
	type insert struct {
		before int // a unit of o, -1 after the last
		text   string
	}
	var inserts []insert
	if o.Kind == kyaml.MappingNode {
		origAt := map[string]int{}
		for i := 0; i+1 < len(o.Content); i += 2 {
			units = append(units, unit{s.t.start(o.Content[i]), s.entryEnd(o, i)})
			origAt[o.Content[i].Value] = i / 2
			removed[i/2] = true
		}
		for i := 0; i+1 < len(e.Content); i += 2 {
			j, ok := origAt[e.Content[i].Value]
			if !ok {
				pair := &kyaml.Node{Kind: kyaml.MappingNode, Tag: "!!map", Content: e.Content[i : i+2]}
				inserts = append(inserts, insert{-1, strings.TrimSuffix(strings.TrimPrefix(s.flowText(pair), "{"), "}")})
				continue
			}
			delete(removed, j)
			s.node(o.Content[2*j+1], e.Content[i+1], where{flow: true, dash: -1})
		}
	} else {
		for _, it := range o.Content {
			units = append(units, unit{s.t.start(it), s.t.end(it)})
		}
		for _, g := range gaps(o.Content, e.Content) {
			for _, pr := range g.pairs(o.Content, e.Content) {
				s.node(o.Content[pr[0]], e.Content[pr[1]], where{flow: true, dash: -1})
			}
			for _, r := range g.removed {
				removed[r] = true
			}
			for _, a := range g.added {
				inserts = append(inserts, insert{g.next, s.flowText(styled(o.Content[len(o.Content)-1], e.Content[a]))})
			}
		}
	}
	last := -1
	for i := range units {
		if !removed[i] {
			last = i
		}
	}
	if last < 0 {
		s.add(s.t.content(o), s.t.end(o), s.flowText(e))
		return
	}
	for i := range units {
		if removed[i] && i < last {
			s.add(units[i].start, units[i+1].start, "")
		}
	}
	end := units[len(units)-1].end
	if last < len(units)-1 {
		s.add(units[last].end, end, "")
	}
	for _, in := range inserts {
		if in.before >= 0 {
			at := units[in.before].start
			s.add(at, at, in.text+", ")
		} else {
			s.add(end, end, ", "+in.text)
		}
	}
}

// unit is a flow collection's item, or a key and its value, in the text.
type unit struct{ start, end int }

// gap is a run of items removed from a list and added in their place,
// before the kept item next (-1: at the end).
type gap struct {
	removed, added []int
	next           int
}

// pairs takes out of the gap the items removed and added that are one
// item changed: those of one identity (a name, a literal's key), and
// items without one in their order. What is left is removed and added.
func (g *gap) pairs(o, e []*kyaml.Node) [][2]int {
	var out [][2]int
	var removed []int
	for _, r := range g.removed {
		id, hasID := identity(o[r])
		at := -1
		for k, a := range g.added {
			if aid, ok := identity(e[a]); ok == hasID && aid == id {
				at = k
				break
			}
		}
		if at < 0 {
			removed = append(removed, r)
			continue
		}
		out = append(out, [2]int{r, g.added[at]})
		g.added = slices.Delete(g.added, at, at+1)
	}
	g.removed = removed
	return out
}

// identity is what names a list item: a map's name, a literal's key
// before '='.
func identity(n *kyaml.Node) (string, bool) {
	switch n.Kind {
	case kyaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" && n.Content[i+1].Kind == kyaml.ScalarNode {
				return n.Content[i+1].Value, true
			}
		}
	case kyaml.ScalarNode:
		if k, _, ok := strings.Cut(n.Value, "="); ok {
			return k, true
		}
	}
	return "", false
}

// gaps matches two lists' items by a longest common subsequence of the
// same values, and returns what lies between the items matched.
func gaps(o, e []*kyaml.Node) []gap {
	n, m := len(o), len(e)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if same(o[i], e[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []gap
	cur := gap{next: -1}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && same(o[i], e[j]):
			if len(cur.removed)+len(cur.added) > 0 {
				cur.next = i
				out = append(out, cur)
			}
			cur = gap{next: -1}
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			cur.added = append(cur.added, j)
			j++
		default:
			cur.removed = append(cur.removed, i)
			i++
		}
	}
	if len(cur.removed)+len(cur.added) > 0 {
		out = append(out, cur)
	}
	return out
}
