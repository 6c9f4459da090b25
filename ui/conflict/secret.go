package conflict

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// A Secret's values show only on purpose: the conflict view masks them
// until R reveals them. Masking works on the text the view draws, line
// for line, so that a conflict's lines still find their place.

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
