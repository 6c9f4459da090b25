package main

import (
	"testing"

	"github.com/muesli/termenv"
)

type mapEnviron map[string]string

func (m mapEnviron) Environ() []string {
	var kv []string
	for k, v := range m {
		kv = append(kv, k+"="+v)
	}
	return kv
}

func (m mapEnviron) Getenv(key string) string { return m[key] }

// TestTerminalProfile: on a terminal, kedit draws with the colours TERM
// and COLORTERM name, and at least bold, underline and reverse unless
// the terminal is dumb; CI and NO_COLOR change nothing (NO_COLOR is kept
// by kedit's styles, which then have no colour).
func TestTerminalProfile(t *testing.T) {
	for _, tc := range []struct {
		env  mapEnviron
		want termenv.Profile
	}{
		{mapEnviron{"TERM": "xterm-256color"}, termenv.ANSI256},
		{mapEnviron{"TERM": "xterm-256color", "CI": "true"}, termenv.ANSI256},
		{mapEnviron{"TERM": "xterm-256color", "NO_COLOR": "1"}, termenv.ANSI256},
		{mapEnviron{"TERM": "xterm-256color", "COLORTERM": "truecolor"}, termenv.TrueColor},
		{mapEnviron{"TERM": "screen"}, termenv.ANSI},
		{mapEnviron{"TERM": "vt100", "CI": "1"}, termenv.ANSI},
		{mapEnviron{"TERM": "dumb"}, termenv.Ascii},
		{mapEnviron{}, termenv.Ascii},
	} {
		if got := terminalProfile(tc.env); got != tc.want {
			t.Errorf("%v: profile %v, want %v", tc.env, got, tc.want)
		}
	}
}
