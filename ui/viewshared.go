package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// The views of this package reach what they share with the view packages
// (ui/common) by these names.

// keyIntent is a binding and the intent its key asks for.
type keyIntent struct {
	keys   key.Binding
	intent tea.Msg
}

// firstIntent is the intent of the first of intents whose keys k is; nil
// for none.
func firstIntent(k tea.KeyMsg, intents []keyIntent) tea.Msg {
	for _, in := range intents {
		if key.Matches(k, in.keys) {
			return in.intent
		}
	}
	return nil
}

// revealHelp is common.RevealHelp.
func revealHelp(b key.Binding, revealed bool) key.Binding { return common.RevealHelp(b, revealed) }

// lineWidth is common.LineWidth.
func lineWidth(l string) int { return common.LineWidth(l) }

// cutSideways is common.CutSideways.
func cutSideways(st *common.Styles, l string, fixed, x, width int) string {
	return common.CutSideways(st, l, fixed, x, width)
}

// sideways is a body's horizontal state (common.Sideways).
type sideways struct {
	// x is how many columns of the body are scrolled off to the left.
	x int
	// lines are the body's lines, longest the width of the widest.
	lines   []string
	longest int
}

// measure takes the body's lines.
func (s *sideways) measure(text string) {
	s.lines = strings.Split(text, "\n")
	s.longest = 0
	for _, l := range s.lines {
		s.longest = max(s.longest, lineWidth(l))
	}
}
