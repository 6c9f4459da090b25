package diff

import (
	"slices"
	"strings"
)

// Characters beyond the basic multilingual plane (emoji, most of them)
// are written as they are. yaml.v2, which renders kedit's YAML as it
// renders kubectl's, takes every one of them for unprintable: a string
// holding one is written double-quoted with \U0001F468 escapes, and the
// joiners of a ZWJ sequence stay raw between them, so that 👨‍👩‍👧‍👦 reads
// "\U0001F468‍\U0001F469‍\U0001F467‍\U0001F466", escapes with invisible
// joiners between. So before yaml.v2 sees the strings, each such
// character is replaced by a private-use character of the basic plane
// that no string of the object holds (which yaml.v2 writes raw and counts
// as one column, as it would the character it stands for), and put back
// in what yaml.v2 wrote. The text reads back to the same strings: YAML
// allows any character beyond the basic plane in any scalar.

// astral maps the characters beyond the basic plane that an object's
// strings hold to the private-use characters that stand for them.
type astral struct {
	to   map[rune]rune
	back *strings.Replacer
}

// Private-use characters of the basic plane: U+E000 to U+F8FF.
const (
	privateFirst rune = 0xe000
	privateLast  rune = 0xf8ff
)

// planAstral returns the stand-ins for the characters beyond the basic
// plane that v's strings (keys included) hold, in their order, so that
// keys sort as they would; nil when there are none, or more than there
// are private-use characters no string holds (then yaml.v2 escapes them).
func planAstral(v any) *astral {
	var found []rune
	used := map[rune]bool{}
	walkStrings(v, func(s string) {
		if !hasHighBytes(s) {
			return
		}
		for _, r := range s {
			switch {
			case r > 0xffff:
				found = append(found, r)
			case r >= privateFirst && r <= privateLast:
				used[r] = true
			}
		}
	})
	if len(found) == 0 {
		return nil
	}
	slices.Sort(found)
	found = slices.Compact(found)
	a := &astral{to: make(map[rune]rune, len(found))}
	pairs := make([]string, 0, 2*len(found))
	next := privateFirst
	for _, r := range found {
		for next <= privateLast && used[next] {
			next++
		}
		if next > privateLast {
			return nil
		}
		a.to[r] = next
		pairs = append(pairs, string(next), string(r))
		next++
	}
	a.back = strings.NewReplacer(pairs...)
	return a
}

// hasHighBytes reports whether s may hold a private-use character or one
// beyond the basic plane: a byte 0xEE or above.
func hasHighBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xee {
			return true
		}
	}
	return false
}

// walkStrings calls f on every string of v, map keys included.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case map[string]any:
		for k, e := range x {
			f(k)
			walkStrings(e, f)
		}
	}
}

// sub is s with its characters beyond the basic plane replaced by their
// stand-ins; s itself when a is nil or s holds none.
func (a *astral) sub(s string) string {
	if a == nil || !hasHighBytes(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if p, ok := a.to[r]; ok {
			r = p
		}
		b.WriteRune(r)
	}
	return b.String()
}

// subTree is v with sub applied to every string and key.
func (a *astral) subTree(v any) any {
	if a == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		return a.sub(x)
	case []any:
		for i := range x {
			x[i] = a.subTree(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[a.sub(k)] = a.subTree(e)
		}
		return out
	}
	return v
}

// restore puts the characters back in what yaml.v2 wrote.
func (a *astral) restore(out []byte) []byte {
	if a == nil {
		return out
	}
	return []byte(a.back.Replace(string(out)))
}
