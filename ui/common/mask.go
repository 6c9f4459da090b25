package common

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// A Secret's values show only on purpose: the object view and
// the conflict view mask them until R reveals them; the editors always
// show them decoded, since editing needs them. Masking works on the text
// the views draw, line for line, so that a diff, a refused save's causes
// and a conflict's lines still find their place.

// SecretMask stands for a Secret's value (diff.SecretMask): R reveals
// the values where the user asks.
const SecretMask = diff.SecretMask

// MaskSecret returns a copy of obj, a Secret, with every value of data and
// stringData replaced by SecretMask (diff.MaskSecretValues); nil stays
// nil.
func MaskSecret(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	c := obj.DeepCopy()
	diff.MaskSecretValues(c.Object)
	return c
}

// LastApplied is the annotation kubectl apply keeps the applied object in.
const LastApplied = diff.LastApplied

// MaskSecretLines returns the lines of text, a Secret's YAML, with every
// value of data and stringData, and kubectl's last-applied annotation,
// replaced by SecretMask: a value's first line keeps its key (and a binary
// value its mark), the further lines of a multi-line value their
// indentation. There are as many lines as in text. Text that is not YAML
// (a draft being typed) is masked as far as its lines can be read.
func MaskSecretLines(text string) []string {
	lines := strings.Split(text, "\n")
	out := make([]string, len(lines))
	section := false // in data or stringData
	keyIndent := -1  // of the section's keys, once one is seen
	valueAt := -1    // >= 0 in a masked value: deeper lines are its own
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		indent := len(l) - len(trimmed)
		out[i] = l
		if valueAt >= 0 {
			switch {
			case strings.TrimSpace(l) == "":
				continue // a block's empty line
			case indent > valueAt:
				out[i] = l[:indent] + SecretMask
				continue
			}
			valueAt = -1
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if indent == 0 {
			key, rest, _ := keyValue(trimmed)
			section = key == "data" || key == "stringData"
			keyIndent = -1
			if section && rest != "" && rest != "{}" && !strings.HasPrefix(rest, "#") {
				// A flow map: data: {a: b}.
				out[i], valueAt = key+": "+SecretMask, 0
			}
			continue
		}
		if section {
			if keyIndent < 0 {
				keyIndent = indent
			}
			if indent > keyIndent {
				out[i] = l[:indent] + SecretMask
				continue
			}
			out[i], valueAt = maskValue(l, indent), indent
			continue
		}
		if strings.HasPrefix(trimmed, LastApplied+":") {
			out[i], valueAt = maskValue(l, indent), indent
		}
	}
	return out
}

// maskValue masks the value on a key's line (from indent on): `key: ••••`,
// keeping a binary value's mark. The second line of a long key ("? key",
// then ": value") is one too.
func maskValue(l string, indent int) string {
	trimmed := l[indent:]
	if strings.HasPrefix(trimmed, "? ") {
		return l // the key alone; its value follows on a line of ":"
	}
	key, rest, ok := keyValue(trimmed)
	if !ok {
		return l[:indent] + SecretMask
	}
	masked := l[:indent] + key + ": " + SecretMask
	if strings.HasSuffix(rest, " "+diff.BinaryComment) {
		masked += " " + diff.BinaryComment
	}
	return masked
}

// keyValue splits `key: value` (the key perhaps quoted) into the key as
// written and what follows ": "; ok is false when the line holds no key.
func keyValue(s string) (key, rest string, ok bool) {
	end := 0
	switch {
	case strings.HasPrefix(s, ":"):
		// The value line of a long key.
	case s[0] == '"' || s[0] == '\'':
		q := s[0]
		end = 1
		for end < len(s) && s[end] != q {
			if q == '"' && s[end] == '\\' {
				end++
			}
			end++
		}
		end++
		if end > len(s) {
			return "", "", false
		}
	default:
		i := strings.Index(s, ": ")
		if i < 0 {
			if !strings.HasSuffix(s, ":") {
				return "", "", false
			}
			i = len(s) - 1
		}
		end = i
	}
	if end >= len(s) || s[end] != ':' {
		return "", "", false
	}
	return s[:end], strings.TrimSpace(s[end+1:]), true
}

// DiffHunks is the diff of two texts of an object, in hunks with three lines
// of context as git diff shows them; masked, a Secret's values in it are
// masked. Every view's diff of a Secret is masked so: after the diff, so
// that a changed value still shows as a changed line (- password: ••••,
// + password: ••••), where masked texts would show no difference.
func DiffHunks(a, b string, masked bool) []diff.DiffHunk {
	hunks := diff.Hunks(diff.LineDiff(a, b), diff.DefaultContext)
	if masked {
		hunks = maskSecretHunks(hunks, a, b)
	}
	return hunks
}

// maskSecretHunks returns hunks, a diff of two Secret texts a and b, with
// each line as MaskSecretLines masks it in its text.
func maskSecretHunks(hunks []diff.DiffHunk, a, b string) []diff.DiffHunk {
	ma, mb := MaskSecretLines(a), MaskSecretLines(b)
	line := func(ls []string, i int) string {
		if i < len(ls) {
			return ls[i] + "\n"
		}
		return "\n"
	}
	out := make([]diff.DiffHunk, len(hunks))
	for i, h := range hunks {
		out[i] = h
		out[i].Edits = make([]diff.LineEdit, len(h.Edits))
		for j, e := range h.Edits {
			m := e
			m.Lines = make([]string, len(e.Lines))
			for k := range e.Lines {
				if e.Op == diff.LineInsert {
					m.Lines[k] = line(mb, e.B.Start+k)
				} else {
					m.Lines[k] = line(ma, e.A.Start+k)
				}
			}
			out[i].Edits[j] = m
		}
	}
	return out
}

// IsSecretValue says whether p is a field that holds a Secret's value: a
// key of data or stringData, or kubectl's last-applied annotation.
func IsSecretValue(p fieldpath.Path) bool {
	name := func(i int) string {
		if i < len(p) && p[i].FieldName != nil {
			return *p[i].FieldName
		}
		return ""
	}
	switch name(0) {
	case "data", "stringData":
		return len(p) >= 2
	case "metadata":
		return name(1) == "annotations" && name(2) == LastApplied
	}
	return false
}
