package ui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// renderValue renders one side's value of a conflicting field: a string
// as it is, anything else in the session's format f.
func renderValue(v diff.FieldValue, f model.Format) string {
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

// displayValue draws one side's value of a conflict or a merged change for
// the conflict view, escaped: a string by the rule for server text, any
// other value as the YAML or JSON it is rendered to (f).
func displayValue(v diff.FieldValue, st *Styles, f model.Format) string {
	if s, ok := v.Value.(string); ok && v.Present {
		return st.Escaped(s)
	}
	return st.EscapedYAML(renderValue(v, f))
}

// shortValue is a value on one line, escaped, cut to a length a status
// bar can hold: a string quoted, with kedit's escapes (a quote inside it
// is drawn \"), anything else as YAML, whose flow form reads on one line
// in either format.
func shortValue(v diff.FieldValue) escape.Text {
	if s, ok := v.Value.(string); ok && !strings.Contains(strings.TrimSuffix(s, "\n"), "\n") {
		return escape.Truncate(escape.SafeQuoted(s), 40)
	}
	return escape.Truncate(escape.SafeYAML(oneLine(renderValue(v, model.FormatYAML))), 40)
}

// bannerText is the banner's sentence: what changed on the server since the
// draft's base, and who changed it.
func bannerText(ch model.ServerChange) escape.Text {
	if ch.Recreated {
		return recreatedBanner(ch)
	}
	if ch.Deleted {
		return escape.Textf("deleted on server: rv %s was deleted; s offers to create it again from the draft", ch.FromRV)
	}
	var paths []string
	for _, c := range ch.Changes {
		paths = append(paths, c.Path)
	}
	text := escape.Textf("changed on server: rv %s -> %s by %s", ch.FromRV, ch.ToRV, writerText(ch.Manager))
	if len(paths) > 0 {
		text += ": " + safeList(paths, ", ")
	}
	return text
}

// safeList is server texts ss, each escaped on its own (a combining mark
// that starts one is not taken into the separator before it), with sep
// between them.
func safeList(ss []string, sep escape.Text) escape.Text {
	texts := make([]escape.Text, len(ss))
	for i, s := range ss {
		texts[i] = escape.Safe(s)
	}
	return escape.Join(texts, sep)
}

// unknownWriter is what kedit calls the writer of a change that no
// managedFields entry tells (model.WriterSince): kedit never credits a
// manager whose entry predates the change.
const unknownWriter = "unknown writer (no managedFields entry changed)"

// writerText names the writer of a version or change: its field manager,
// or, when managedFields do not tell, unknownWriter.
func writerText(manager string) escape.Text {
	if manager == "" {
		return unknownWriter
	}
	return escape.Safe(manager)
}

// failureText says in plain words why a save did not go through, and what
// the user can do; the draft is always kept.
func failureText(f *model.Failure) escape.Text {
	if f == nil {
		return ""
	}
	if retrying(f) {
		return retryText(f, 0)
	}
	return failureWhy(f) + " (the draft is kept)"
}

// causeLinesText says on which lines of the draft's text the fields of a
// refused save are, `; on line 31 of the draft`, so that a field the
// server does not know is found; "" when none is found.
func causeLinesText(text string, causes []model.FieldCause) escape.Text {
	lines := strings.Split(text, "\n")
	var at []int
	for _, c := range causes {
		if l := causeLine(lines, c.Field); l >= 0 && !slices.Contains(at, l+1) {
			at = append(at, l+1)
		}
	}
	switch len(at) {
	case 0:
		return ""
	case 1:
		return escape.Textf("; on line %d of the draft", at[0])
	}
	nums := make([]string, len(at))
	for i, l := range at {
		nums[i] = strconv.Itoa(l)
	}
	return escape.Safe("; on lines " + strings.Join(nums, ", ") + " of the draft")
}

// retrying reports whether f is a failure the save is tried again after.
func retrying(f *model.Failure) bool {
	return f.Kind == model.ErrorUnavailable || f.Kind == model.ErrorTimeout
}

// failureWhy is failureText of a failure not tried again, without what
// becomes of the draft: what failed, and the causes.
func failureWhy(f *model.Failure) escape.Text {
	s := failureKindText(f)
	var causes []escape.Text
	for _, c := range f.Causes {
		causes = append(causes, causeText(c))
	}
	if len(causes) > 0 {
		s += ": " + escape.Join(causes, "; ")
	}
	return s
}

// causeText is a field cause of a refused save in the server's words:
// `spec.replicas: Invalid value: -1`.
func causeText(c model.FieldCause) escape.Text {
	return escape.Safe(c.Field + ": " + c.Message)
}

// retryText says that a save which got no answer is tried again: whether
// it may have been stored (then the object is read back first) or surely
// was not (a 429, the API server's own 503, no connection at all), the
// attempt and, with next, when it goes again. The server's own words (a
// timeout, a reset, a 502) come last, so that what the user acts on is not
// what a narrow status line cuts.
func retryText(f *model.Failure, next time.Duration) escape.Text {
	landed := model.MayHaveLanded(f.Err)
	s := escape.Textf("the save was not taken; retrying (attempt %d)", f.Attempt)
	if landed {
		s = escape.Textf("the save did not get an answer; retrying (attempt %d)", f.Attempt)
	}
	if next > 0 {
		s += escape.Textf(", next try in %s", next.Round(time.Second))
	}
	if landed {
		s += ", after reading the object back in case it went through"
	}
	s += " (the draft is kept)"
	if f.Err != nil {
		s += ": " + escape.Safe(f.Err.Error())
	}
	return s
}

// failureKindText says what kind of failure f is, before its causes
// (retryText says the kinds that are tried again).
func failureKindText(f *model.Failure) escape.Text {
	switch f.Kind {
	case model.ErrorInvalid:
		if ie := (*kube.InvalidError)(nil); errors.As(f.Err, &ie) {
			return "the server refused the draft as invalid (" + escape.Safe(ie.Status()) + ")"
		}
		return "the server refused the draft as invalid (422)"
	case model.ErrorForbidden:
		return "forbidden: you may not update this object (403)"
	case model.ErrorNotFound:
		return "the object was deleted on the server; s creates it again from the draft, x discards the draft"
	case model.ErrorTooLarge:
		return "the object is too large for the API server (413)"
	case model.ErrorImmutable:
		return "the object, or a field of it, is immutable and cannot change"
	case model.ErrorUnauthorized:
		return "the server does not accept your credentials (401)"
	case model.ErrorRefused:
		return refusedText(f)
	case model.ErrorFieldManagerConflict:
		return "server-side apply: fields are owned by another manager"
	case model.ErrorRecreated:
		return "not saved: " + escape.Safe(f.Err.Error()) + "; s asks before saving it onto the new one"
	case model.ErrorApplyCannotRemove:
		return "not sent: server-side apply cannot remove a field another manager owns; u sends this save as an update (a PUT with base's resourceVersion) instead"
	}
	if f.Err != nil {
		return "the save failed: " + escape.Safe(f.Err.Error())
	}
	return "the save failed"
}

// refusedText says that the server refused the save: an answer, final,
// in the server's words, which name the field, if any.
func refusedText(f *model.Failure) escape.Text {
	var s escape.Text = "the server refused the save"
	var r *kube.RefusedError
	switch {
	case errors.As(f.Err, &r):
		s += " (" + escape.Safe(r.Status()) + ")"
		if len(f.Causes) == 0 {
			s += ": " + escape.Safe(r.Message())
		}
	case len(f.Causes) == 0 && f.Err != nil:
		s += ": " + escape.Safe(f.Err.Error())
	}
	return s
}

// errorText says in words why an intent was refused. An error's message
// is where server text enters the UI most often (kube's typed errors carry
// the server's own words): it is escaped here, once, and nothing that
// takes the Text escapes it again.
func errorText(err error) escape.Text {
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

// escapeLegend explains the escapes in ?: how a character of the object
// that kedit will not send to the terminal is drawn, and how it is told
// from the same letters.
func escapeLegend(st *Styles) string {
	return "escapes (reversed): " + st.Escape.Render(`\x1b`) + " " + st.Escape.Render(`\u009b`) + " " + st.Escape.Render(`\u202e`) +
		" are control characters, C1 or bidi controls, or invalid bytes of the object, never sent to the terminal; " +
		"a backslash of the object is drawn " + st.Escape.Render(`\\`) + " (in YAML, a string with either is double-quoted)"
}

// hunkText renders hunks as git diff shows them, each line escaped, and
// returns the lines where the hunks start (for n and N). The object
// view's diff, the timeline's and the preview's all read the same.
func hunkText(st *Styles, hunks []diff.DiffHunk) (string, []int) {
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

// annotateCauses puts each of causes under the line of its field in text,
// escaped; a cause whose field is not found goes on top. The draft's view
// and the preview show a refused save's causes alike.
func annotateCauses(st *Styles, text string, causes []model.FieldCause) string {
	if len(causes) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	notes := map[int][]string{}
	for _, c := range causes {
		at := causeLine(lines, c.Field)
		note := causeText(c)
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

// causeLine finds the line of field (the server's dotted path, e.g.
// "metadata.labels" or "spec.containers[0].image") in YAML or JSON lines
// (where a key is quoted), following each element one indentation level
// deeper; -1 when it is not there.
func causeLine(lines []string, field string) int {
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
