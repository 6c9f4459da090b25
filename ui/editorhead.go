package ui

import (
	"fmt"
	"strings"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
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
// that the top still holds (the user deleted some), whatever their line
// ends (an editor that saves CRLF). The first line that is not one of
// the head's ends it.
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

// headLine is one comment line of the head: s with every character a
// terminal or an editor could take for something else (a line's end,
// an escape) written visibly, so that the head's lines stay its own.
func headLine(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return "# " + escape.String(s)
}

// refusal is one reason a text was refused: the field, why, and its
// line (0 when it has none); of names the object in a file of several.
type refusal struct {
	line            int
	of, field, what string
}

// refusals are why text was refused: the server's field causes of its
// refused save and the schema's word on it (found), each on its line of
// text. A field both refuse is one refusal with both words: the
// server's cause, then the schema's. A Secret's name the field and not
// the words, which may quote its value.
func refusals(text string, causes []model.FieldCause, found []schemacheck.Diagnostic, secret bool) []refusal {
	var out []refusal
	lines := strings.Split(text, "\n")
	for _, c := range causes {
		r := refusal{line: common.CauseLine(lines, c.Field) + 1, field: c.Field, what: c.Message}
		if secret {
			r.what = "refused by the server"
		}
		out = append(out, r)
	}
	server := len(out)
	for _, d := range found {
		if k := sameRefusal(out[:server], d); k >= 0 {
			if secret {
				out[k].what = "refused by the server, and not as the schema says"
			} else {
				out[k].what += "; the schema: " + d.Message
			}
			continue
		}
		// The schema's message names its field.
		r := refusal{line: d.Line, what: d.Message}
		if secret {
			r.field, r.what = d.Path, "not as the schema says"
		}
		out = append(out, r)
	}
	return out
}

// sameRefusal is the index of the server's refusal (of rs) of d's field,
// -1 for none: the same path, or the same field's name on the same line
// (the server may name a list's item otherwise).
func sameRefusal(rs []refusal, d schemacheck.Diagnostic) int {
	path := strings.TrimPrefix(d.Path, ".")
	for k, r := range rs {
		field := strings.TrimPrefix(r.field, ".")
		if field == path || r.line > 0 && r.line == d.Line && lastField(field) == lastField(path) {
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

// headOf is a head saying title, then each reason with its line in the
// file: its line counted after the head's own lines and extra more.
// Nothing without a reason.
func headOf(title string, rs []refusal, extra int) []string {
	if len(rs) == 0 {
		return nil
	}
	head := []string{headLine(title)}
	at := extra + len(rs) + 1
	for _, r := range rs {
		s := r.what
		if r.field != "" {
			s = r.field + ": " + s
		}
		if r.of != "" {
			s = r.of + ": " + s
		}
		if r.line > 0 {
			s = fmt.Sprintf("line %d: %s", r.line+at, s)
		}
		head = append(head, headLine(s))
	}
	return head
}

// refusalsOf are why the object's text was refused: its last save's
// causes, and the schema's word when it is on text.
func (st *objectState) refusalsOf(text string) []refusal {
	var causes []model.FieldCause
	if f := st.sess.Failure(); f != nil {
		causes = f.Causes
	}
	var found []schemacheck.Diagnostic
	if st.diag.text == text {
		found = refusedOf(st.diag.found)
	}
	return refusals(text, causes, found, st.sess.Ref().IsSecret())
}

// refusedHead is the head of the $EDITOR file of text, the draft (or
// the merged result): the server's field causes of its refused save and
// the schema's word on it, each with its line in the file (the head's
// lines and extra counted). Nothing when text was not refused.
func (m App) refusedHead(text string, extra int) []string {
	return headOf("kedit: the draft was refused; these lines go when the file is saved", m.objectState.refusalsOf(text), extra)
}

// mergedHead makes, off the UI's goroutine, the head of the $EDITOR
// file of text, the rebase's merged result not checked yet: the reasons
// of refusedHead with the schema's word on text. Nil without a check.
func (m App) mergedHead(text string) func() ([]string, []string) {
	if m.opened == nil || m.opened.Check == nil {
		return nil
	}
	var causes []model.FieldCause
	if f := m.sess.Failure(); f != nil {
		causes = f.Causes
	}
	check, ctx, format, ref := m.opened.Check, m.ctx, m.sess.Format(), m.sess.Ref()
	secret := ref.IsSecret()
	// The merged result is sent on theirs, which the server holds.
	old := m.sess.Base().Object
	if r := m.sess.Rebase(); r != nil {
		old = r.Theirs.Object
	}
	return func() ([]string, []string) {
		var found []schemacheck.Diagnostic
		if p := format.ParseDraft(text); p.Err(ref) == nil && p.Object() != nil {
			found, _ = check(ctx, text, p.Object(), old)
			found = refusedOf(found)
		}
		rs := refusals(text, causes, found, secret)
		title := "kedit: the merged result is refused; these lines go when the file is saved"
		return headOf(title, rs, 0), headOf(title, rs, 1)
	}
}

// setRefusedHead is the head of the $EDITOR file of e, a set's List:
// each object's reasons, as refusedHead's, on their lines of the List.
func (m App) setRefusedHead(e *model.SetEdit) []string {
	if len(e.Lines) != len(e.Members) {
		return nil // a refused text given back: its items are not known
	}
	var rs []refusal
	for k, i := range e.Members {
		st := m.member(i)
		text, err := st.sess.DraftText()
		if err != nil {
			continue
		}
		key := keyOf(st.target)
		name := kube.ResourceName(key.Resource) + "/" + key.Name
		for _, r := range st.refusalsOf(text) {
			if r.line > 0 {
				r.line += e.Lines[k] - 1
			}
			r.of = name
			rs = append(rs, r)
		}
	}
	return headOf("kedit: drafts were refused; these lines go when the file is saved", rs, 0)
}
