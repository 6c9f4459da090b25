// Package words is kedit's one rule for how a message counts things: every
// message that says a number of something says it through Count (and a
// verb that agrees with it through Agree), so that no message reads
// "1 conflicts" or "conflict(s)". A test scans the module for counts made
// by hand.
package words

import (
	"strconv"
	"strings"
)

// Count says n things in words: "1 conflict", "2 conflicts", "0 entries",
// "3 older versions". noun is singular; only its last word is made plural.
func Count(n int, noun string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + noun
	}
	return strconv.Itoa(n) + " " + Plural(noun)
}

// Plural returns the plural of noun, a singular English noun or a phrase
// ending in one: conflict → conflicts, entry → entries, match → matches.
func Plural(noun string) string {
	head, last := "", noun
	if i := strings.LastIndexByte(noun, ' '); i >= 0 {
		head, last = noun[:i+1], noun[i+1:]
	}
	if p, ok := irregular[last]; ok {
		return head + p
	}
	switch {
	case last == "":
		return noun
	case strings.HasSuffix(last, "y") && len(last) > 1 && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		return head + last[:len(last)-1] + "ies"
	case strings.HasSuffix(last, "s"), strings.HasSuffix(last, "x"), strings.HasSuffix(last, "z"),
		strings.HasSuffix(last, "ch"), strings.HasSuffix(last, "sh"):
		return head + last + "es"
	}
	return head + last + "s"
}

// irregular are the plurals that do not follow the rules, as kedit's
// messages use them.
var irregular = map[string]string{
	"is":   "are",
	"was":  "were",
	"has":  "have",
	"this": "these",
	"that": "those",
	"it":   "them",
}

// Agree returns one when n is 1, else many: the verb or pronoun that goes
// with a count, as in "1 of 2 conflicts is still open" and "2 of 3
// conflicts are still open".
func Agree(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}
