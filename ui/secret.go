package ui

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// A Secret's values show only on purpose: the object view and
// the conflict view mask them until R reveals them; the editors always
// show them decoded, since editing needs them. Masking works on the text
// the views draw, line for line, so that a diff, a refused save's causes
// and a conflict's lines still find their place.

// common.SecretMask and common.LastApplied (the annotation that holds a Secret whole,
// values and all) are mask.go's: the timeline and the preview mask
// versions of a Secret the same way.

// isSecretValue says whether p is a field that holds a Secret's value: a
// key of data or stringData, or kubectl's last-applied annotation.
func isSecretValue(p fieldpath.Path) bool {
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
		return name(1) == "annotations" && name(2) == common.LastApplied
	}
	return false
}

// maskedText is a value's text with each line masked, blank lines kept:
// as many lines, so that a conflict's lines keep their place.
func maskedText(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		if strings.TrimSpace(l) != "" {
			ls[i] = common.SecretMask
		}
	}
	return strings.Join(ls, "\n")
}

// binaryText writes a value of a Secret's data that is not text as the
// editors do: base64, marked.
func binaryText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return base64.StdEncoding.EncodeToString([]byte(s)) + " " + diff.BinaryComment
}

// secretValueText is common.DisplayValue for a value of a Secret's data: one that
// is not text shows base64 and marked (binaryText), which is decided on its
// bytes, before they are escaped.
func secretValueText(v diff.FieldValue, st *common.Styles) string {
	if s, ok := v.Value.(string); ok && v.Present {
		v.Value = binaryText(s)
	}
	// A Secret is YAML whatever the format asked (model.SecretStaysYAML).
	return common.DisplayValue(v, st, model.FormatYAML)
}

// maskSecretLines is common.MaskSecretLines.
func maskSecretLines(text string) []string { return common.MaskSecretLines(text) }

// diffHunks is common.DiffHunks.
func diffHunks(a, b string, masked bool) []diff.DiffHunk { return common.DiffHunks(a, b, masked) }
