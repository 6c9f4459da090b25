package editfile

import (
	"fmt"
	"strings"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// An $EDITOR file of a draft that was refused opens with the reasons as
// "# " lines at its top, as kubectl edit's does: the head. The head is
// kedit's own: it is taken off the text that comes back, and only its
// lines, byte for byte, so that a comment the user wrote stays, and none
// of it reaches the server or the draft store.

// WithHead is text with the head's lines before it.
func WithHead(head []string, text string) string {
	if len(head) == 0 {
		return text
	}
	return strings.Join(head, "\n") + "\n" + text
}

// WithoutHead is text with the head's lines taken off its top: all of
// them when the head is there whole, else those of its lines, in order,
// that the top still holds (the user deleted some), whatever their line
// ends (an editor that saves CRLF). The first line that is not one of
// the head's ends it.
func WithoutHead(head []string, text string) string {
	if len(head) == 0 {
		return text
	}
	if whole := WithHead(head, ""); strings.HasPrefix(text, whole) {
		return text[len(whole):]
	}
	pos, next := 0, 0
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			break // a line without its end is the user's
		}
		// A line end the user's editor made CRLF is still a line end.
		line := strings.TrimSuffix(text[pos:pos+end], "\r")
		j := next
		for j < len(head) && head[j] != line {
			j++
		}
		if j == len(head) {
			break
		}
		pos, next = pos+end+1, j+1
	}
	return text[pos:]
}

// HeadLine is one comment line of the head: s with every character a
// terminal or an editor could take for something else (a line's end,
// an escape) written visibly, so that the head's lines stay its own.
func HeadLine(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return "# " + escape.String(s)
}

// Refusal is one reason a text was refused: the field, why, and its
// line (0 when it has none); Of names the object in a file of several.
type Refusal struct {
	Line            int
	Of, Field, What string
}

// Refusals are why text was refused: the server's field causes of its
// refused save and the schema's word on it, and the server's dry run's
// (found, those of the dry run marked Server), each on its line of text.
// A field both refuse is one refusal with both words: the server's
// cause, then the schema's; the dry run's word on a field the save's
// causes name is said once. A Secret's name the field and not the
// words, which may quote its value.
func Refusals(text string, causes []model.FieldCause, found []schemacheck.Diagnostic, secret bool) []Refusal {
	var out []Refusal
	lines := strings.Split(text, "\n")
	for _, c := range causes {
		r := Refusal{Line: common.CauseLine(lines, c.Field) + 1, Field: c.Field, What: c.Message}
		if secret {
			r.What = "refused by the server"
		}
		out = append(out, r)
	}
	server := len(out)
	for _, d := range found {
		if d.Server {
			if sameRefusal(out[:server], d) >= 0 {
				continue
			}
			// The dry run's message names its field, as the schema's.
			r := Refusal{Line: d.Line, What: d.Message}
			if secret {
				r.Field, r.What = d.Path, "refused by the server"
			}
			out = append(out, r)
			continue
		}
		if k := sameRefusal(out[:server], d); k >= 0 {
			if secret {
				out[k].What = "refused by the server, and not as the schema says"
			} else {
				out[k].What += "; the schema: " + d.Message
			}
			continue
		}
		// The schema's message names its field.
		r := Refusal{Line: d.Line, What: d.Message}
		if secret {
			r.Field, r.What = d.Path, "not as the schema says"
		}
		out = append(out, r)
	}
	return out
}

// sameRefusal is the index of the server's refusal (of rs) of d's field,
// -1 for none: the same path, or the same field's name on the same line
// (the server may name a list's item otherwise).
func sameRefusal(rs []Refusal, d schemacheck.Diagnostic) int {
	path := strings.TrimPrefix(d.Path, ".")
	for k, r := range rs {
		field := strings.TrimPrefix(r.Field, ".")
		if field == path || r.Line > 0 && r.Line == d.Line && lastField(field) == lastField(path) {
			return k
		}
	}
	return -1
}

// lastField is a dotted path's last name, without an index.
func lastField(path string) string {
	path = path[strings.LastIndexByte(path, '.')+1:]
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	return path
}

// HeadOf is a head saying title, then each reason with its line in the
// file: its line counted after the head's own lines and extra more.
// Nothing without a reason.
func HeadOf(title string, rs []Refusal, extra int) []string {
	if len(rs) == 0 {
		return nil
	}
	head := []string{HeadLine(title)}
	at := extra + len(rs) + 1
	for _, r := range rs {
		s := r.What
		if r.Field != "" {
			s = r.Field + ": " + s
		}
		if r.Of != "" {
			s = r.Of + ": " + s
		}
		if r.Line > 0 {
			s = fmt.Sprintf("line %d: %s", r.Line+at, s)
		}
		head = append(head, HeadLine(s))
	}
	return head
}
