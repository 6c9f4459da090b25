package escape

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Text is text that is safe to draw on a terminal and holds every piece of
// server text in it escaped exactly once. It is made only of kedit's own
// words (a constant, which Go turns into a Text where one is wanted) and
// of server text escaped on entry (Safe, SafeQuoted, SafeYAML, Textf), put
// together with +, Join and Textf. A view's drawing functions and the
// status bar take Text, so that server text cannot reach them raw (a
// string is not a Text: the compiler says so), and Textf takes a Text as
// it is (Safe takes none), so that nothing escaped is escaped again.
//
// Each piece of server text is escaped on its own (a name, a manager, a
// message), not a sentence made of several: a combining mark that starts
// one is then drawn as its escape, not joined to the space before it.
//
// The rule that keeps it so: no code outside this package converts a
// string to Text, and the UI never escapes a Text's string again
// (TestNoConversionToText); a Text turns into a string only to be drawn.
type Text string

// Safe is server text s escaped by the rule (String), to be drawn.
func Safe(s string) Text { return Text(String(s)) }

// SafeQuoted is server text s in double quotes, escaped (Quoted), for a
// value inside a sentence.
func SafeQuoted(s string) Text { return Text(Quoted(s)) }

// SafeYAML is YAML text s (an object or a value rendered by kedit) drawn
// by the rule without styles (Source).
func SafeYAML(s string) Text { return Text(Source(s, nil)) }

// Truncate cuts t to width cells, with "…" in place of what is cut.
func Truncate(t Text, width int) Text { return Text(ansi.Truncate(string(t), width, "…")) }

// TrimPrefix is t without prefix when t starts with it, as
// strings.TrimPrefix.
func TrimPrefix(t, prefix Text) Text { return Text(strings.TrimPrefix(string(t), string(prefix))) }

// Replace is t with the first n of old replaced by replacement, as
// strings.Replace: each is escaped already, so the result is too.
func Replace(t, old, replacement Text, n int) Text {
	return Text(strings.Replace(string(t), string(old), string(replacement), n))
}

// Join puts texts together with sep between them, as strings.Join does.
func Join(texts []Text, sep Text) Text {
	var b strings.Builder
	for i, t := range texts {
		if i > 0 {
			b.WriteString(string(sep))
		}
		b.WriteString(string(t))
	}
	return Text(b.String())
}

// Textf formats as fmt.Sprintf does, kedit's words in format and every
// argument escaped once: a Text as it is, anything else (a string, an
// error, a number, a Stringer) as fmt writes it, escaped (String). %q
// quotes an argument as SafeQuoted does.
func Textf(format Text, args ...any) Text {
	wrapped := make([]any, len(args))
	for i, a := range args {
		wrapped[i] = arg{a}
	}
	return Text(fmt.Sprintf(string(format), wrapped...))
}

// arg is an argument of Textf, escaped as fmt writes it.
type arg struct{ v any }

// Format writes the argument by its verb, escaped (a Text as it is); a
// width pads the escaped text, as it is drawn.
func (a arg) Format(f fmt.State, verb rune) {
	var text string
	switch v := a.v.(type) {
	case Text:
		text = string(v)
	case string, error, fmt.Stringer:
		text = String(fmt.Sprint(v))
	default:
		_, _ = f.Write([]byte(String(fmt.Sprintf(fmt.FormatString(f, verb), v))))
		return
	}
	switch verb {
	case 'q':
		_, _ = f.Write([]byte(`"` + strings.ReplaceAll(text, `"`, `\"`) + `"`))
	case 's', 'v':
		_, _ = fmt.Fprintf(f, fmt.FormatString(f, 's'), text)
	default:
		_, _ = fmt.Fprintf(f, "%%!%c(escape.Text=%s)", verb, text)
	}
}
