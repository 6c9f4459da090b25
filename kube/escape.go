package kube

import "github.com/kedit/kedit/internal/escape"

// EscapeControl makes text from the server safe to print on a terminal, by
// kedit's one rule (internal/escape): every control character except
// newline and tab (ESC and so every CSI and OSC sequence, BEL, carriage
// return, NUL, DEL, the C1 controls), every bidirectional control and every
// invalid UTF-8 byte is written as a visible Go-style escape (\x1b, \r,
// \u202e), as is a character that takes no cell (\u200b) or a zero width
// joiner that joins nothing (\u200d), and a backslash is written \\, so that
// an escape is never taken for the same letters in the text. An object's content must never move
// the cursor, set the title, write the clipboard or clear the operator's
// screen.
func EscapeControl(s string) string { return escape.String(s) }

// HasControl reports whether s holds a character EscapeControl writes as an
// escape (a backslash, only doubled, does not count).
func HasControl(s string) bool { return escape.Needed(s) }
