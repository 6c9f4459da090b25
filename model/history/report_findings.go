package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// The report's first lines, one per finding, and the words they and the
// sections share.

// findingKind is one kind of finding: its name (in "no lost update, ...")
// and the first lines of the text report it gives, one per finding, each
// starting with its mark (LOST, BLIND, FIGHT). Each line says what a
// reader acts on without the table: the field, whose value was lost and
// when, who replaced it with what, and its value now.
type findingKind struct {
	name  string
	lines func(r Report, c clock) []string
	// unknown marks what the log cannot settle (a blind write: whether
	// its writer had seen what it replaced is unknown): it is said among
	// the first lines, but makes the answer inconclusive (kedit history's
	// exit status 3), not something found.
	unknown bool
}

// findingKinds are the kinds of findings, in the order the report's first
// lines give them; a new kind of finding is one more entry.
var findingKinds = []findingKind{
	{"lost update", func(r Report, c clock) []string {
		var out []string
		for _, l := range r.LostUpdates {
			out = append(out, fmt.Sprintf("LOST %s: %s overwritten by %s with %s; %s", escape.String(l.Path), lostBy(l, c),
				writtenBy(l.OverwrittenBy, c), value(l.NewValue, maxShort), now(l)))
		}
		return out
	}, false},
	{"blind write", func(r Report, c clock) []string {
		var out []string
		for _, l := range r.BlindWrites {
			out = append(out, fmt.Sprintf("BLIND %s: %s replaced by %s with %s; the log has no read of it by %s, so whether they had seen it is unknown; %s",
				escape.String(l.Path), lostBy(l, c), writtenBy(l.OverwrittenBy, c), value(l.NewValue, maxShort),
				escape.String(l.OverwrittenBy.User), now(l)))
		}
		return out
	}, true},
	{"reverted value", func(r Report, c clock) []string {
		var out []string
		for _, l := range r.Reverted {
			out = append(out, fmt.Sprintf("REVERTED %s: %s set back by %s to %s; %s", escape.String(l.Path), lostBy(l, c),
				writtenBy(l.OverwrittenBy, c), value(l.NewValue, maxShort), now(l)))
		}
		return out
	}, false},
	{"fight", func(r Report, c clock) []string {
		var out []string
		for _, f := range r.Fights {
			out = append(out, fmt.Sprintf("FIGHT %s: changed hands %s between %s and %s, last at %s", escape.String(f.Path),
				words.Count(f.Count, "time"), escape.String(f.Clients[0].String()), escape.String(f.Clients[1].String()),
				c.short(f.Times[len(f.Times)-1])))
		}
		return out
	}, false},
}

// Findings are the first lines of the text report: one per finding, of
// every kind but the blind writes. Any of them is something to look at
// (kedit history's exit status 1).
func (r Report) Findings() []string { return r.firstLines(false) }

// Unknowns are the first lines of the blind writes: values replaced by
// writers the log has no read of, which make the answer inconclusive.
func (r Report) Unknowns() []string { return r.firstLines(true) }

func (r Report) firstLines(unknown bool) []string {
	c := r.clock()
	var out []string
	for _, k := range findingKinds {
		if k.unknown == unknown {
			out = append(out, k.lines(r, c)...)
		}
	}
	return out
}

// Conclusive reports whether the report's answer stands whole: every
// write judged, every log read to its end, and no value replaced by a
// writer the log has no read of. Only then is finding nothing OK.
func (r Report) Conclusive() bool { return r.Coverage.Judged() && len(r.BlindWrites) == 0 }

// lostBy names a lost value: whose, what, when and by which manager.
func lostBy(l ReportLoss, c clock) string {
	at := c.short(l.LostAt.Time)
	if l.LostAt.Manager != "" {
		at += ", " + escape.String(l.LostAt.Manager)
	}
	return fmt.Sprintf("%s's %s (%s)", escape.String(l.LostAt.User), value(l.LostValue, maxShort), at)
}

// writtenBy names a write by its user and command (Version.Command).
func writtenBy(v ReportVersion, c clock) string {
	tool := v.Command
	if tool == "" {
		tool = v.Verb
	}
	return fmt.Sprintf("%s's %s (%s)", escape.String(v.User), escape.String(tool), c.short(v.Time))
}

// now says a lost field's value now, and where it was read: the live
// object, or the newest version the log holds.
func now(l ReportLoss) string {
	v := "absent"
	if l.NowValue != nil {
		v = value(l.NowValue, maxShort)
	}
	switch l.NowFrom {
	case "live":
		return "now " + v + " (live)"
	case "log":
		return "now " + v + " (the log's newest version)"
	}
	return "its value now unknown"
}

// orList joins words as "a, b or c".
func orList(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

func who(v ReportVersion) string {
	s := escape.String(v.User)
	if v.Manager != "" {
		s += " (" + escape.String(v.Manager) + ")"
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// value writes a value for the text report: JSON, escaped, cut short
// past n runes.
func value(v any, n int) string {
	if v == nil {
		return "(removed)"
	}
	if s, ok := v.(string); ok && s == SecretValue {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return escape.String(fmt.Sprint(v))
	}
	s := safeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
