package ui

import (
	"github.com/kedit/kedit/diff"
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

// maskSecretLines is common.MaskSecretLines.
func maskSecretLines(text string) []string { return common.MaskSecretLines(text) }

// diffHunks is common.DiffHunks.
func diffHunks(a, b string, masked bool) []diff.DiffHunk { return common.DiffHunks(a, b, masked) }
