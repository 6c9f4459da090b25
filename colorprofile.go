package main

import (
	"io"
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"golang.org/x/term"
)

// useTerminalProfile has lipgloss draw for out's terminal, when out is one.
//
// lipgloss's own guess is wrong for kedit in two ways. It draws nothing at
// all, not even bold or reverse, when CI is set (termenv takes such a
// process for one without a terminal), so that in a CI runner's shell the
// editor's cursor and the list's selection do not show. And it draws
// nothing when NO_COLOR is set, where kedit's styles (common.NewStyles,
// textedit.DefaultStyles) keep bold, underline and reverse, and no colour.
func useTerminalProfile(out io.Writer) {
	f, ok := out.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return
	}
	lipgloss.SetColorProfile(terminalProfile(osEnviron{}))
}

// terminalProfile is the profile kedit draws with on a terminal whose
// environment is env: the colours its TERM and COLORTERM say it has, and
// at least the attributes (bold, underline, reverse) every terminal but a
// dumb one draws. CI and NO_COLOR do not change it.
func terminalProfile(env termenv.Environ) termenv.Profile {
	switch env.Getenv("TERM") {
	case "", "dumb":
		return termenv.Ascii
	}
	p := termenv.NewOutput(io.Discard, termenv.WithTTY(true), termenv.WithEnvironment(env)).ColorProfile()
	if p == termenv.Ascii {
		return termenv.ANSI
	}
	return p
}

// osEnviron is the process's environment as termenv reads it.
type osEnviron struct{}

func (osEnviron) Environ() []string        { return os.Environ() }
func (osEnviron) Getenv(key string) string { return os.Getenv(key) }
