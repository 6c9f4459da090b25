package common

import (
	"strings"
)

// FieldContext is where a position in an object's text is, for the field
// docs and completion: the path of the mapping its line is in (Parent,
// field names from the object's root, a list's items entered by the
// list's name, as kubectl explain names them), the key on its line (Key,
// and Typed, what of it is before the position), whether the position is
// after the key's colon (Value), and the keys the mapping already has
// (Present, the line's own key left out).
type FieldContext struct {
	Parent  []string
	Key     string
	Typed   string
	Value   bool
	Present []string
}

// Path is the field the position names: its line's key under Parent, or
// Parent itself on a line without a key.
func (c FieldContext) Path() []string {
	if c.Key == "" {
		return c.Parent
	}
	return append(append([]string(nil), c.Parent...), c.Key)
}

// FieldAt reads an object's text in block YAML or indented JSON (as kedit
// renders both), of n lines that line returns, at line row and byte col.
// It goes by the lines' indentation, not by a parser, so that a line being
// typed (a key without its colon yet) is read too.
func FieldAt(n int, line func(i int) string, row, col int) FieldContext {
	if row < 0 || row >= n {
		return FieldContext{}
	}
	var c FieldContext
	text := line(row)
	cur := readLine(text)
	target := cur.keyCol
	if cur.blank {
		// An empty line: the cursor's column says which mapping it is in.
		target = min(col, len(text))
	}
	switch {
	case cur.blank:
	case cur.key != "":
		c.Key = cur.key
		c.Value = col > cur.colon
		if !c.Value {
			c.Typed = cut(cur.key, col-cur.keyCol-cur.quoted)
		}
	case !cur.structural:
		// A key being typed, before its colon (a JSON key after its
		// quote).
		typed := text[cur.keyCol:]
		quote := 0
		if typed[0] == '"' {
			quote = 1
		}
		c.Typed = cut(strings.TrimRight(typed[quote:], " "), col-cur.keyCol-quote)
	}
	// The mapping's column: the line's key's, or on an empty line the
	// cursor's.
	mapping := target
	itemStart := cur.dash >= 0 && !cur.blank
	var parents []string
	for r := row - 1; r >= 0; r-- {
		ln := readLine(line(r))
		if ln.separator {
			break
		}
		if ln.blank || ln.keyCol > target {
			continue // a comment, or a deeper line: a sibling's own fields
		}
		if itemStart {
			// The mapping started at a list's item: the list is the key
			// above, at the dash's column or left of it.
			if ln.keyCol > cur.dash || ln.dash >= 0 && ln.dash == cur.dash && ln.keyCol >= target {
				continue // an earlier item, or its fields
			}
			itemStart = false
		}
		if ln.keyCol == target {
			if ln.key != "" && parents == nil {
				c.Present = append(c.Present, ln.key)
			}
			if ln.dash >= 0 {
				itemStart, cur = true, ln
			}
			continue
		}
		// Left of the mapping: the key whose value it is, or a JSON
		// bracket that opens it.
		if ln.key != "" {
			parents = append(parents, ln.key)
		}
		target = ln.keyCol
		if ln.dash >= 0 {
			itemStart, cur = true, ln
		}
	}
	for i := len(parents) - 1; i >= 0; i-- {
		c.Parent = append(c.Parent, parents[i])
	}
	if len(c.Present) == 0 {
		c.Present = nil
	}
	// The lines below the position in the same mapping are present too.
	c.Present = append(c.Present, below(n, line, row, mapping)...)
	return c
}

// below are the keys of the lines after row in the mapping whose keys
// are at column keyCol: the mapping of row's key, or of an empty line
// the cursor is on, whose keys may all be below it.
func below(n int, line func(int) string, row, keyCol int) []string {
	var out []string
	for r := row + 1; r < n; r++ {
		ln := readLine(line(r))
		switch {
		case ln.separator:
			return out
		case ln.blank || ln.keyCol > keyCol:
			continue
		case ln.keyCol < keyCol || ln.dash >= 0:
			return out // the mapping ended, or the next item began
		}
		if ln.key != "" {
			out = append(out, ln.key)
		}
	}
	return out
}

// cut is the first n bytes of s, within its length.
func cut(s string, n int) string {
	return s[:max(0, min(n, len(s)))]
}

// line is one line of an object's text, read for its place in the
// mapping it is in.
type line struct {
	// blank: empty or a comment; separator: a YAML document's `---`.
	blank, separator bool
	// dash is the column of the line's first list marker (`- `), -1 for
	// none; keyCol is where its content starts after its indentation and
	// markers.
	dash, keyCol int
	// key is the line's key, "" for none; colon is the column of its
	// colon.
	key   string
	colon int
	// quoted is 1 for a quoted key, the quote's width.
	quoted int
	// structural: a JSON bracket alone (`{`, `},`).
	structural bool
}

func readLine(s string) line {
	l := line{dash: -1, colon: -1}
	i := len(s) - len(strings.TrimLeft(s, " "))
	if i == len(s) || s[i] == '#' {
		l.blank = true
		l.keyCol = i
		return l
	}
	if strings.HasPrefix(s[i:], "---") && strings.TrimSpace(s) == "---" {
		l.separator, l.blank = true, true
		return l
	}
	for i < len(s) && s[i] == '-' && (i+1 == len(s) || s[i+1] == ' ') {
		if l.dash < 0 {
			l.dash = i
		}
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	l.keyCol = i
	rest := s[i:]
	if strings.Trim(strings.TrimSpace(rest), "{}[],") == "" {
		l.structural = true
		return l
	}
	key, colon := readKey(rest)
	if colon >= 0 {
		l.key, l.colon = key, i+colon
		if rest[0] == '"' || rest[0] == '\'' {
			l.quoted = 1
		}
	}
	return l
}

// readKey reads a mapping's key at the start of s: a quoted one, or a
// plain one ending at `: ` or a colon that ends the line. colon is -1 when
// s has no key.
func readKey(s string) (string, int) {
	if s[0] == '"' || s[0] == '\'' {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", -1
		}
		after := strings.TrimLeft(s[end+2:], " ")
		if !strings.HasPrefix(after, ":") {
			return "", -1
		}
		return s[1 : end+1], len(s) - len(after)
	}
	for j := 0; j < len(s); j++ {
		switch {
		case s[j] == ' ' && j+1 < len(s) && s[j+1] == '#':
			return "", -1 // a comment after a scalar
		case s[j] == ':' && (j+1 == len(s) || s[j+1] == ' '):
			return s[:j], j
		}
	}
	return "", -1
}
