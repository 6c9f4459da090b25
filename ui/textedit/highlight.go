package textedit

import "strings"

// class is how a stretch of a line is drawn.
type class uint8

const (
	clsPlain class = iota
	clsKey
	clsString
	clsComment
	clsMarker
	clsEscape
	clsMatch
	clsCurrentMatch
	clsCursor
	clsSelection
	// The gutter's and the notes' classes.
	clsLineNumber
	clsCursorLineNumber
	clsNoteLineNumber
	clsAdded
	clsChanged
	clsDeleted
	clsNote
	nClasses
)

// span is a stretch of bytes of a line drawn in one class.
type span struct {
	start, end int
	cls        class
}

// maxHighlight is the longest line highlighted. Highlighting reads the line
// from its start, and a line of a megabyte (a certificate, a minified JSON
// value) would be read in full for every frame; such a line is drawn
// plain.
const maxHighlight = 4096

// diff3Markers start the lines of a conflict block that kedit writes.
var diff3Markers = []string{"<<<<<<<", "|||||||", "=======", ">>>>>>>"}

// highlight appends the YAML classes of line s: a diff3 marker line, a
// mapping key, a quoted string and a comment. It looks at the line alone
// (a block scalar's lines that look like keys are drawn as keys), which
// is what keeps it to the rows on screen.
func highlight(s string, spans []span) []span {
	if len(s) > maxHighlight {
		return spans
	}
	for _, mk := range diff3Markers {
		if strings.HasPrefix(s, mk) && (len(s) == len(mk) || s[len(mk)] == ' ') {
			return append(spans, span{0, len(s), clsMarker})
		}
	}
	i := skipSpaces(s, 0)
	for i+1 < len(s) && s[i] == '-' && s[i+1] == ' ' {
		i = skipSpaces(s, i+1)
	}
	if k := keyEnd(s, i); k > i {
		spans = append(spans, span{i, k, clsKey})
		i = skipSpaces(s, k+1)
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		e := quoteEnd(s, i)
		spans = append(spans, span{i, e, clsString})
		i = e
	}
	for j := i; j < len(s); j++ {
		if s[j] == '#' && (j == 0 || s[j-1] == ' ' || s[j-1] == '\t') {
			spans = append(spans, span{j, len(s), clsComment})
			break
		}
	}
	return spans
}

func skipSpaces(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// keyEnd returns the end of the mapping key at i (where its ':' is), or i
// when there is none: a plain or quoted scalar followed by ':' and a space
// or the end of the line, before any comment.
func keyEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '#', '{', '[', '|', '>', '&', '*', '!', '%', '@', '`':
		return i
	case '"', '\'':
		e := quoteEnd(s, i)
		if e < len(s) && s[e] == ':' && (e+1 == len(s) || s[e+1] == ' ') {
			return e
		}
		return i
	}
	for j := i; j < len(s); j++ {
		switch {
		case s[j] == ':' && (j+1 == len(s) || s[j+1] == ' '):
			return j
		case s[j] == '#' && j > i && s[j-1] == ' ':
			return i
		}
	}
	return i
}

// quoteEnd returns the end of the quoted scalar at i, past its closing
// quote (or the end of the line when it continues on the next).
func quoteEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			j++
		case s[j] == q:
			return j + 1
		}
	}
	return len(s)
}
