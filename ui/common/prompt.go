package common

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
)

// Prompt is a question on the bottom line, in place of the status bar,
// waiting for its answer: y or n, and for the offer of several stored
// drafts, the number of the one to recover. Other keys wait with it, but
// ctrl+c, which quits from anywhere. The app words the question (the
// quit question says where the drafts are) and acts on the answer.
type Prompt struct {
	keys   PromptKeyMap
	styles *Styles
	width  int
	text   escape.Text
	// picks is how many answers a number picks (the stored drafts
	// offered); 0 for a question of y or n.
	picks int
	// source: g answers too (write the change to the object's source
	// manifests), offered by the question of a GitOps owner.
	source bool
}

// AnswerMsg is the answer to the question: Yes or no, and for the offer
// of stored drafts, Pick, the index of the one to recover (y recovers the
// first).
type AnswerMsg struct {
	Yes  bool
	Pick int
	// Source is g's answer: write the change to the source instead; with
	// Yes, b's: save it and write it to the source both.
	Source bool
}

// NewPrompt returns a prompt with no question until Ask.
func NewPrompt(keys PromptKeyMap, styles *Styles) Prompt {
	return Prompt{keys: keys, styles: styles}
}

// Ask starts a question whose answers are y and n, and with picks > 0 a
// number up to picks. Its words come with SetQuestion.
func (m *Prompt) Ask(picks int) { m.text, m.picks, m.source = "", picks, false }

// OfferSource makes g an answer of the question asked: write the change
// to the object's source manifests.
func (m *Prompt) OfferSource() { m.source = true }

// SetQuestion sets the question's words; the app words it again at every
// layout, as they may say what changed meanwhile.
func (m *Prompt) SetQuestion(text escape.Text) { m.text = text }

// SetSize sets the width the question wraps at.
func (m *Prompt) SetSize(width, _ int) { m.width = width }

// Update takes the answer. A number beyond the drafts offered, and any
// key that is no answer, are ignored.
func (m Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.ForceQuit):
		return m, Emit(ForceQuitMsg{})
	case key.Matches(k, m.keys.Yes):
		return m, Emit(AnswerMsg{Yes: true})
	case key.Matches(k, m.keys.No):
		return m, Emit(AnswerMsg{})
	case m.source && key.Matches(k, m.keys.Source):
		return m, Emit(AnswerMsg{Source: true})
	case m.source && key.Matches(k, m.keys.Both):
		return m, Emit(AnswerMsg{Yes: true, Source: true})
	case m.picks > 0 && key.Matches(k, m.keys.Pick) && len(k.Runes) == 1:
		i := int(k.Runes[0] - '1')
		return m, EmitIf(i < m.picks, AnswerMsg{Yes: true, Pick: i})
	}
	return m, nil
}

// View draws the question, wrapped at words to the width: a path (where
// the drafts are kept) starts a line rather than break mid-name.
func (m Prompt) View() string {
	lines := WrapWords(string(m.text), max(1, m.width))
	for i, l := range lines {
		lines[i] = m.styles.Banner.Render(l)
	}
	return strings.Join(lines, "\n")
}

// ShortHelp is the answers, which the footer names while the question
// waits: it takes every key until it is answered.
func (m Prompt) ShortHelp() []key.Binding {
	if m.picks > 0 {
		return []key.Binding{m.keys.Yes, m.keys.No, m.keys.Pick, m.keys.ForceQuit}
	}
	if m.source {
		return []key.Binding{m.keys.Yes, m.keys.No, m.keys.Source, m.keys.Both, m.keys.ForceQuit}
	}
	return []key.Binding{m.keys.Yes, m.keys.No, m.keys.ForceQuit}
}

// FullHelp is the answers.
func (m Prompt) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// PromptKeyMap is the keys of a question on the bottom line: yes, no, and
// for the offer of several stored drafts, the number of the one to recover.
type PromptKeyMap struct {
	Yes, No, Pick key.Binding
	// Source answers a GitOps owner's question: write the change to the
	// object's source manifests instead of saving it; Both saves it and
	// writes it there too (the live fix now, the change for review).
	Source, Both key.Binding

	ForceQuit key.Binding
}

// DefaultPromptKeyMap returns a question's keys.
func DefaultPromptKeyMap() PromptKeyMap {
	return PromptKeyMap{
		Yes:       Binding("yes", "y"),
		No:        Bind("no", "n", "n", "esc"),
		Pick:      Bind("recover that draft", "1-9", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
		Source:    Binding("write it to the source", "g"),
		Both:      Binding("save it and write it to the source", "b"),
		ForceQuit: ForceQuitKey(),
	}
}
