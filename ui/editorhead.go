package ui

import (
	"fmt"
	"strings"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// An $EDITOR file of a draft that was refused opens with the reasons as
// "# " lines at its top, as kubectl edit's does: the head. The head is
// kedit's own: it is taken off the text that comes back, and only its
// lines, byte for byte, so that a comment the user wrote stays, and none
// of it reaches the server or the draft store.

// withHead is text with the head's lines before it.
func withHead(head []string, text string) string {
	if len(head) == 0 {
		return text
	}
	return strings.Join(head, "\n") + "\n" + text
}

// withoutHead is text with the head's lines taken off its top: all of
// them when the head is there whole, else those of its lines, in order,
// that the top still holds (the user deleted some). The first line that
// is not one of the head's ends it.
func withoutHead(head []string, text string) string {
	if len(head) == 0 {
		return text
	}
	if whole := withHead(head, ""); strings.HasPrefix(text, whole) {
		return text[len(whole):]
	}
	pos, next := 0, 0
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			break // a line without its end is the user's
		}
		line := text[pos : pos+end]
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

// headLine is one comment line of the head: s with every character a
// terminal or an editor could take for something else (a line's end,
// an escape) written visibly, so that the head's lines stay its own.
func headLine(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return "# " + escape.String(s)
}

// refusedHead is the head of the $EDITOR file of text, the draft: the
// server's field causes of its refused save and the schema's word on it,
// each with its line in the file (the head's lines counted). A Secret's
// reasons name the field and not the server's words, which may quote
// its value. Nothing when text was not refused.
func (m App) refusedHead(text string, extra int) []string {
	type reason struct {
		line        int
		field, what string
	}
	var reasons []reason
	secret := m.sess.Ref().IsSecret()
	lines := strings.Split(text, "\n")
	if f := m.sess.Failure(); f != nil {
		for _, c := range f.Causes {
			r := reason{line: common.CauseLine(lines, c.Field) + 1, field: c.Field, what: c.Message}
			if secret {
				r.what = "refused by the server"
			}
			reasons = append(reasons, r)
		}
	}
	if m.diag.text == text {
		for _, d := range refusedOf(m.diag.found) {
			// The schema's message names its field.
			r := reason{line: d.Line, what: d.Message}
			if secret {
				r.field, r.what = d.Path, "not as the schema says"
			}
			reasons = append(reasons, r)
		}
	}
	if len(reasons) == 0 {
		return nil
	}
	head := []string{headLine("kedit: the draft was refused; these lines go when the file is saved")}
	at := extra + len(reasons) + 1
	for _, r := range reasons {
		s := r.what
		if r.field != "" {
			s = r.field + ": " + s
		}
		if r.line > 0 {
			s = fmt.Sprintf("line %d: %s", r.line+at, s)
		}
		head = append(head, headLine(s))
	}
	return head
}
