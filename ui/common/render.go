package common

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/model"
)

// RenderValue renders one side's value of a conflicting field: a string
// as it is, anything else in the session's format f.
func RenderValue(v diff.FieldValue, f model.Format) string {
	if !v.Present {
		return "(absent)"
	}
	if s, ok := v.Value.(string); ok {
		return s
	}
	out, err := f.Marshal(v.Value)
	if err != nil {
		return fmt.Sprint(v.Value)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// DisplayValue draws one side's value of a conflict or a merged change for
// the conflict view, escaped: a string by the rule for server text, any
// other value as the YAML or JSON it is rendered to (f).
func DisplayValue(v diff.FieldValue, st *Styles, f model.Format) string {
	if s, ok := v.Value.(string); ok && v.Present {
		return st.Escaped(s)
	}
	return st.EscapedYAML(RenderValue(v, f))
}

// ShortValue is a value on one line, escaped, cut to a length a status
// bar can hold: a string quoted, with kedit's escapes (a quote inside it
// is drawn \"), anything else as YAML, whose flow form reads on one line
// in either format.
func ShortValue(v diff.FieldValue) escape.Text {
	if s, ok := v.Value.(string); ok && !strings.Contains(strings.TrimSuffix(s, "\n"), "\n") {
		return escape.Truncate(escape.SafeQuoted(s), 40)
	}
	return escape.Truncate(escape.SafeYAML(OneLine(RenderValue(v, model.FormatYAML))), 40)
}

// BannerText is the banner's sentence: what changed on the server since the
// draft's base, and who changed it.
func BannerText(ch model.ServerChange) escape.Text {
	if ch.Recreated {
		return RecreatedBanner(ch)
	}
	if ch.Deleted {
		return escape.Textf("deleted on server: rv %s was deleted; s offers to create it again from the draft", ch.FromRV)
	}
	var paths []string
	for _, c := range ch.Changes {
		paths = append(paths, c.Path)
	}
	switch {
	case len(ch.By) == len(ch.Changes) && len(ch.By) > 0:
		// Several writers: each field with its own.
		parts := make([]escape.Text, len(paths))
		for i, p := range paths {
			parts[i] = escape.Safe(p) + " by " + WriterText(ch.By[i])
		}
		return escape.Textf("changed on server: rv %s -> %s: ", ch.FromRV, ch.ToRV) + escape.Join(parts, ", ")
	case ch.Several:
		return escape.Textf("changed on server: rv %s -> %s by several writers (t says who wrote what): ", ch.FromRV, ch.ToRV) + SafeList(paths, ", ")
	}
	text := escape.Textf("changed on server: rv %s -> %s by %s", ch.FromRV, ch.ToRV, WriterText(ch.Manager))
	if len(paths) > 0 {
		text += ": " + SafeList(paths, ", ")
	}
	return text
}

// SafeList is server texts ss, each escaped on its own (a combining mark
// that starts one is not taken into the separator before it), with sep
// between them.
func SafeList(ss []string, sep escape.Text) escape.Text {
	texts := make([]escape.Text, len(ss))
	for i, s := range ss {
		texts[i] = escape.Safe(s)
	}
	return escape.Join(texts, sep)
}

// UnknownWriter is what kedit calls the writer of a change that no
// managedFields entry tells (model.WriterSince): kedit never credits a
// manager whose entry predates the change.
const UnknownWriter = "unknown writer (no managedFields entry changed)"

// WriterText names the writer of a version or change: its field manager,
// or, when managedFields do not tell, UnknownWriter.
func WriterText(manager string) escape.Text {
	if manager == "" {
		return UnknownWriter
	}
	return escape.Safe(manager)
}

// ErrorText says in words why an intent was refused. An error's message
// is where server text enters the UI most often (kube's typed errors carry
// the server's own words): it is escaped here, once, and nothing that
// takes the Text escapes it again.
func ErrorText(err error) escape.Text {
	var oc *model.OpenConflictsError
	if errors.As(err, &oc) {
		verb := "are"
		if oc.Open == 1 {
			verb = "is"
		}
		return escape.Textf("resubmit refused: %d of %s %s still open (m/t/b resolves the selected one)", oc.Open, model.Count(oc.Total, "conflict"), verb)
	}
	return escape.Safe(err.Error())
}

// EscapeLegend explains the escapes in ?: how a character of the object
// that kedit will not send to the terminal is drawn, and how it is told
// from the same letters.
func EscapeLegend(st *Styles) string {
	return "escapes (reversed): " + st.Escape.Render(`\x1b`) + " " + st.Escape.Render(`\u009b`) + " " + st.Escape.Render(`\u202e`) +
		" are control characters, C1 or bidi controls, or invalid bytes of the object, never sent to the terminal; " +
		"a backslash of the object is drawn " + st.Escape.Render(`\\`) + " (in YAML, a string with either is double-quoted)"
}

// HunkText renders hunks as git diff shows them, each line escaped, and
// returns the lines where the hunks start (for n and N). The object
// view's diff, the timeline's and the preview's all read the same.
func HunkText(st *Styles, hunks []diff.DiffHunk) (string, []int) {
	var b strings.Builder
	var at []int
	line := 0
	for _, h := range hunks {
		at = append(at, line)
		b.WriteString(st.Muted.Render(h.Header()) + "\n")
		line++
		for _, e := range h.Edits {
			for _, l := range e.Lines {
				l = st.EscapedYAML(strings.TrimSuffix(l, "\n"))
				switch e.Op {
				case diff.LineInsert:
					b.WriteString(st.Added.Render("+ " + l))
				case diff.LineDelete:
					b.WriteString(st.Removed.Render("- " + l))
				default:
					b.WriteString("  " + l)
				}
				b.WriteByte('\n')
				line++
			}
		}
	}
	return b.String(), at
}

// AnnotateCauses puts each of causes under the line of its field in text,
// escaped; a cause whose field is not found goes on top. The draft's view
// and the preview show a refused save's causes alike.
func AnnotateCauses(st *Styles, text string, causes []model.FieldCause) string {
	if len(causes) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	notes := map[int][]string{}
	for _, c := range causes {
		at := CauseLine(lines, c.Field)
		note := CauseText(c)
		if at >= 0 {
			indent := len(lines[at]) - len(strings.TrimLeft(lines[at], " "))
			note = escape.Safe(strings.Repeat(" ", indent)) + "^ " + note
		}
		notes[at] = append(notes[at], st.Error.Render(string(note)))
	}
	out := append([]string(nil), notes[-1]...)
	for i, l := range lines {
		out = append(out, l)
		out = append(out, notes[i]...)
	}
	return strings.Join(out, "\n")
}

// CauseLine finds the line of field (the server's dotted path, e.g.
// "metadata.labels" or "spec.containers[0].image") in YAML or JSON lines
// (where a key is quoted), following each element one indentation level
// deeper; -1 when it is not there.
func CauseLine(lines []string, field string) int {
	found, start, indent := -1, 0, -1
	for _, seg := range strings.Split(field, ".") {
		if i := strings.IndexByte(seg, '['); i >= 0 {
			seg = seg[:i]
		}
		if seg == "" {
			continue
		}
		hit := -1
		for i := start; i < len(lines); i++ {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				continue
			}
			// A list item's "- " counts as indentation: its keys are
			// inside the list even when the dash sits at the list's level.
			ind := len(l) - len(strings.TrimLeft(l, " -"))
			if found >= 0 && ind <= indent {
				break // out of the parent's block
			}
			if strings.HasPrefix(l[ind:], seg+":") || strings.HasPrefix(l[ind:], strconv.Quote(seg)+":") {
				hit, indent = i, ind
				break
			}
		}
		if hit < 0 {
			return found
		}
		found, start = hit, hit+1
	}
	return found
}

// OneLine shortens a value to its first line, saying how many more there
// are; the whole value is in the detail below the list.
func OneLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return `""`
	}
	first, rest, more := strings.Cut(s, "\n")
	if more {
		return first + " (+" + words.Count(strings.Count(rest, "\n")+1, "line") + ")"
	}
	return first
}

// ShortUID is a uid's first 8 characters, as the banner names an object.
func ShortUID(uid string) string {
	if len(uid) > 8 {
		return uid[:8]
	}
	return uid
}

// RecreatedBanner says that the object was deleted and created again under
// the draft: another object, which a save asks before going onto.
func RecreatedBanner(ch model.ServerChange) escape.Text {
	var by escape.Text
	if ch.Manager != "" {
		by = " by " + escape.Safe(ch.Manager)
	}
	return escape.Textf("deleted and created again on server: rv %s -> a new object (uid %s) at rv %s%s; s asks before saving onto it",
		ch.FromRV, ShortUID(ch.UID), ch.ToRV, by)
}

// CauseText is a field cause of a refused save in the server's words:
// `spec.replicas: Invalid value: -1`.
func CauseText(c model.FieldCause) escape.Text {
	return escape.Safe(c.Field + ": " + c.Message)
}
