package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// JSON renders the merged object as `kubectl get -o json` prints it
// (MarshalJSON), with resolved conflicts applied and each open conflict as
// a diff3 block around the JSON lines of its field:
//
//	"data": {
//	<<<<<<< mine
//	    "foo": "mine's value",
//	||||||| base
//	    "foo": "base's value",
//	=======
//	    "foo": "theirs' value",
//	>>>>>>> theirs
//	    "zoo": "merged"
//	}
//
// A side without the field has an empty section. The commas around a
// block are placed so that keeping the same side of every block leaves
// JSON (layoutCommas): a section may start with the comma instead of
// ending with it. A JSON string is one
// line, so a multi-line string whose line merge has conflicts is one
// block around the field, each section holding the field with every open
// region as that side has it and all else merged. ParseJSON reads the text
// back once every block is gone.
func (m *ObjectMerge) JSON() ([]byte, error) {
	bf := TextOptions{}.blockFormat()
	return m.withBlocks(marshalObjectJSON, func(out string, tokens map[int]string) (string, bool, error) {
		return m.expandJSONBlocks(out, tokens, bf)
	})
}

// marshalObjectJSON is MarshalJSON of an object's content.
func marshalObjectJSON(obj map[string]any) ([]byte, error) { return MarshalJSON(obj) }

// expandJSONBlocks replaces each token's line of out, MarshalJSON's
// rendering, by its unit's block. It reports false when a token is not a
// value on a line of its own, which means the object itself holds the
// token text.
func (m *ObjectMerge) expandJSONBlocks(out string, tokens map[int]string, bf blockFormat) (string, bool, error) {
	lines := strings.SplitAfter(out, "\n")
	byToken := make(map[string]int, len(tokens))
	for i, tok := range tokens {
		byToken[`"`+tok+`"`] = i
	}
	sites := map[int]*jsonSite{}
	for li, l := range lines {
		body := strings.TrimRight(l, "\n")
		if !strings.Contains(body, "kedit-conflict-") {
			continue
		}
		comma := strings.HasSuffix(body, ",")
		value := strings.TrimSuffix(body, ",")
		i, ok := -1, false
		for tok, u := range byToken {
			if strings.HasSuffix(value, tok) {
				i, ok = u, true
				value = strings.TrimSuffix(value, tok)
				break
			}
		}
		if !ok {
			if tokensIn(body, byToken) {
				return "", false, nil
			}
			continue
		}
		if _, dup := sites[i]; dup {
			return "", false, nil
		}
		indent := value[:len(value)-len(strings.TrimLeft(value, " "))]
		rest := value[len(indent):]
		isKey, _ := m.conflictKey(i)
		// A map's field is `"key": token`, a list's item the token alone.
		if isKey != (rest != "") || isKey && !strings.HasSuffix(rest, ": ") {
			return "", false, nil
		}
		sites[i] = &jsonSite{line: li, indent: indent, comma: comma}
	}
	if len(sites) != len(tokens) {
		return "", false, nil
	}
	for i, s := range sites {
		mine, base, theirs := m.unitSides(i)
		s.optional = !mine.Present || !base.Present || !theirs.Present
	}
	drop := layoutCommas(lines, sites)
	sections := make(map[int][3][]string, len(sites))
	for i, s := range sites {
		isKey, key := m.conflictKey(i)
		c := &m.Conflicts[m.units[i].first]
		var secs [3][]string
		mine, base, theirs := m.unitSides(i)
		for j, fv := range [3]FieldValue{mine, base, theirs} {
			if !fv.Present {
				continue
			}
			ls, err := renderJSONField(isKey, key, m.encodeForYAML(c, fv.Value), s)
			if err != nil {
				return "", false, err
			}
			secs[j] = ls
		}
		sections[i] = secs
	}
	size := m.conflictMarkerSize(bf, lines, sections)
	at := make(map[int]int, len(sites))
	for i, s := range sites {
		at[s.line] = i
	}
	var b strings.Builder
	b.Grow(len(out) + 256*len(sites))
	for li, l := range lines {
		i, ok := at[li]
		if !ok {
			if drop[li] {
				l = strings.Replace(l, ",\n", "\n", 1)
			}
			b.WriteString(l)
			continue
		}
		secs := sections[i]
		bf.writeBlock(&b, size, secs[0], secs[1], secs[2], func(ls []string) { writeLines(&b, ls) })
	}
	return b.String(), true, nil
}

// conflictKey says whether the open unit u's conflict is a map's field,
// and its key; otherwise it is a whole list item.
func (m *ObjectMerge) conflictKey(u int) (bool, string) {
	last := m.Conflicts[m.units[u].first].Path
	if len(last) > 0 && last[len(last)-1].FieldName != nil {
		return true, *last[len(last)-1].FieldName
	}
	return false, ""
}

// jsonSite is where an open conflict's block goes in MarshalJSON's text:
// the token's line, its indentation, and the commas around the field.
type jsonSite struct {
	line   int
	indent string
	// comma ends each section with a comma; lead starts each with one.
	comma, lead bool
	// optional is set when a side has no such field: keeping its empty
	// section leaves the member out.
	optional bool
}

// layoutCommas places the commas of the containers that hold a member a
// block may leave out (optional), so that keeping any section of any
// block leaves JSON: a member followed by one that is always there keeps
// the comma after it; the last member always there loses it; and each
// optional member after that starts with a comma instead (", " before its
// key, where the indentation was). It returns the lines whose comma
// goes. A container whose every member is optional cannot be laid out so
// (leaving out the first alone leaves a comma); ParseJSON names that one.
func layoutCommas(lines []string, sites map[int]*jsonSite) map[int]bool {
	byLine := make(map[int]*jsonSite, len(sites))
	for _, s := range sites {
		byLine[s.line] = s
	}
	drop := map[int]bool{}
	done := map[int]bool{}
	for _, s := range sites {
		if !s.optional {
			continue
		}
		ind := len(s.indent)
		first := s.line
		for first > 0 && indentOf(lines[first-1]) >= ind {
			first--
		}
		if done[first] {
			continue
		}
		done[first] = true
		// The container's members start at its indentation; the lines
		// there that close a member's value are no start.
		var starts []int
		end := first
		for ; end < len(lines) && lines[end] != "" && indentOf(lines[end]) >= ind; end++ {
			l := lines[end][ind:]
			if indentOf(lines[end]) == ind && !strings.HasPrefix(l, "}") && !strings.HasPrefix(l, "]") {
				starts = append(starts, end)
			}
		}
		always := func(k int) bool { st, ok := byLine[starts[k]]; return !ok || !st.optional }
		lastAlways := -1
		for k := range starts {
			if always(k) {
				lastAlways = k
			}
		}
		for k, start := range starts {
			st, isSite := byLine[start]
			switch {
			case k < lastAlways:
				// The comma after it stays: a member follows.
			case k == lastAlways && isSite:
				st.comma = false
			case k == lastAlways:
				last := end - 1
				if k+1 < len(starts) {
					last = starts[k+1] - 1
				}
				drop[last] = true
			default:
				st.comma = false
				st.lead = lastAlways >= 0 || k > 0
			}
		}
	}
	return drop
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// renderJSONField renders `"key": v` (or the list item v when isKey is
// false) as MarshalJSON writes it at s's indentation, with the commas s
// says.
func renderJSONField(isKey bool, key string, v any, s *jsonSite) ([]string, error) {
	out, err := MarshalJSON(v)
	if err != nil {
		return nil, fmt.Errorf("diff: rendering a conflict: %w", err)
	}
	ls := strings.SplitAfter(strings.TrimSuffix(string(out), "\n"), "\n")
	if isKey {
		k, err := jsonString(key)
		if err != nil {
			return nil, err
		}
		ls[0] = k + ": " + ls[0]
	}
	for j := range ls {
		ls[j] = s.indent + ls[j]
	}
	if s.lead && len(s.indent) >= 2 {
		ls[0] = s.indent[:len(s.indent)-2] + ", " + ls[0][len(s.indent):]
	}
	last := len(ls) - 1
	if s.comma {
		ls[last] += ","
	}
	ls[last] += "\n"
	return ls, nil
}

// jsonString is s as a JSON string, as MarshalJSON writes it.
func jsonString(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return string(escapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))), nil
}
