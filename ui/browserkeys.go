package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// The browser's keys: the list's, the filter's and the : prompt's.

// key handles a key: ctrl+c whatever is being typed, then the keys of the
// list, the filter, the prompt or the picker, whichever has them.
func (m Browser) key(msg tea.KeyMsg) (Browser, tea.Cmd) {
	if key.Matches(msg, m.keys.ForceQuit) {
		return m, common.Emit(common.ForceQuitMsg{})
	}
	if m.mode == modeList && msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		// Keys typed faster than the terminal is read arrive as one
		// message: the first one may open the filter or the prompt, which
		// then takes the rest as text.
		first := msg
		first.Runes = msg.Runes[:1]
		m, cmd := m.key(first)
		rest := msg
		rest.Runes = msg.Runes[1:]
		m, more := m.key(rest)
		return m, tea.Batch(cmd, more)
	}
	switch m.mode {
	case modeFilter:
		return m.filterKey(msg)
	case modePrompt:
		return m.promptKey(msg)
	case modePicker:
		return m.pickerKey(msg)
	}
	return m.listKey(msg)
}

// listKey handles a key while the list has the keys.
func (m Browser) listKey(msg tea.KeyMsg) (Browser, tea.Cmd) {
	k := m.keys
	if d, ok := (common.ListKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}).Step(msg, m.tableHeight(), len(m.shown)); ok {
		m.move(d)
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Filter):
		m.mode = modeFilter
	case key.Matches(msg, k.ClearFilter):
		m.setFilter("")
	case key.Matches(msg, k.Order):
		sel, ok := m.Selected()
		m.order = (m.order + 1) % orderCount
		m.sort()
		m.refilter()
		if ok {
			m.selectObject(sel.Namespace, sel.Name)
		}
	case key.Matches(msg, k.Command):
		m.mode, m.prompt, m.completion = modePrompt, "", completion{}
	case key.Matches(msg, k.Open):
		row, ok := m.Selected()
		if !ok || m.coll == nil {
			return m, nil
		}
		return m, common.Emit(OpenObjectMsg{Target: m.coll.Target(row.Namespace, row.Name), UID: row.UID})
	case key.Matches(msg, k.Quit):
		return m, common.Emit(common.QuitRequestedMsg{})
	case key.Matches(msg, k.Help):
		return m, common.Emit(common.HelpMsg{})
	}
	return m, nil
}

func (m *Browser) setFilter(f string) {
	sel, ok := m.Selected()
	m.filter = f
	m.refilter()
	if ok {
		m.selectObject(sel.Namespace, sel.Name)
	}
}

// filterKey handles a key while the filter is typed: it applies at every
// key, esc clears it, enter keeps it and gives the keys back to the list.
func (m Browser) filterKey(msg tea.KeyMsg) (Browser, tea.Cmd) {
	if moved := m.arrowKey(msg); moved {
		return m, nil
	}
	switch {
	case key.Matches(msg, m.keys.ClearFilter):
		m.mode = modeList
		m.setFilter("")
	case key.Matches(msg, m.keys.Accept):
		m.mode = modeList
	default:
		if f, ok := editLine(m.filter, msg); ok {
			m.setFilter(f)
		}
	}
	return m, nil
}

// arrowKey moves the selection with the keys that are never text.
func (m *Browser) arrowKey(msg tea.KeyMsg) bool {
	switch msg.Type {
	case tea.KeyUp:
		m.move(-1)
	case tea.KeyDown:
		m.move(1)
	case tea.KeyPgUp:
		m.move(-m.tableHeight())
	case tea.KeyPgDown:
		m.move(m.tableHeight())
	default:
		return false
	}
	return true
}

// editLine applies a key to a line of text: typing, backspace, ctrl+w
// (the last word) and ctrl+u (everything). ok is false for other keys.
func editLine(s string, msg tea.KeyMsg) (string, bool) {
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace:
		return s + string(msg.Runes), true
	case tea.KeyBackspace:
		r := []rune(s)
		if len(r) == 0 {
			return s, true
		}
		return string(r[:len(r)-1]), true
	case tea.KeyCtrlW:
		t := strings.TrimRight(s, " ")
		return t[:strings.LastIndex(t, " ")+1], true
	case tea.KeyCtrlU:
		return "", true
	}
	return s, false
}

// promptKey handles a key while a command is typed after :.
func (m Browser) promptKey(msg tea.KeyMsg) (Browser, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Back):
		m.mode = modeList
	case key.Matches(msg, m.keys.Complete):
		if m.namespaceWord(m.prompt) && m.namespaces == nil && m.nsErr == nil {
			// The namespaces are read when first completed; the tab
			// takes effect once they are in (SetNamespaces).
			m.completion = completion{note: "reading the namespaces ...", waiting: true}
			cmd := m.readNamespaces()
			return m, cmd
		}
		m.prompt = m.completion.next(m.prompt, m.candidates(m.prompt), m.noMatch(m.prompt))
	case key.Matches(msg, m.keys.Accept):
		m.mode = modeList
		return m.run(m.prompt)
	case msg.Type == tea.KeyBackspace && m.prompt == "":
		m.mode = modeList // as in vi and k9s: backspace past : leaves
	default:
		if p, ok := editLine(m.prompt, msg); ok {
			m.prompt, m.completion = p, completion{}
		}
	}
	return m, nil
}

// run carries out a command typed after :.
func (m Browser) run(line string) (Browser, tea.Cmd) {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return m, nil
	case words[0] == "ns" && len(words) == 1:
		m.mode = modePicker
		m.openNamespacePicker()
		// Namespaces come and go: ask again each time.
		m.nsReading = true
		return m, common.Emit(NamespacesWantedMsg{})
	case words[0] == "ns" && len(words) == 2:
		return m, common.Emit(SwitchNamespaceMsg{Namespace: words[1]})
	case words[0] == "drafts" && len(words) == 1:
		m.mode = modePicker
		m.picker = newPicker(pickDraft, "stored drafts", nil)
		m.picker.empty = "reading the stored drafts ..."
		return m, common.Emit(DraftsWantedMsg{})
	case len(words) == 1:
		return m, common.Emit(SwitchTypeMsg{Type: words[0]})
	}
	// Nothing else takes arguments: say what is understood.
	m.mode, m.prompt = modePrompt, line
	m.completion = completion{note: "commands: TYPE, ns, ns NAME, drafts"}
	return m, nil
}

// namespaceWord reports whether line is :ns followed by the namespace being
// typed.
func (m Browser) namespaceWord(line string) bool {
	rest, ok := strings.CutPrefix(line, "ns ")
	return ok && !strings.Contains(rest, " ")
}

// readNamespaces asks for the namespaces, unless they are being read.
func (m *Browser) readNamespaces() tea.Cmd {
	if m.nsReading {
		return nil
	}
	m.nsReading = true
	return common.Emit(NamespacesWantedMsg{})
}

// noMatch says that nothing completes line: for a namespace, which one,
// or why the namespaces are not known.
func (m Browser) noMatch(line string) escape.Text {
	if !m.namespaceWord(line) {
		return "no match"
	}
	switch {
	case m.nsErr != nil:
		return "cannot complete namespaces: " + common.ErrorText(m.nsErr)
	case m.namespaces == nil && m.nsReading:
		return "reading the namespaces ..."
	case m.namespaces == nil:
		return "tab completes namespaces"
	}
	return escape.Textf("no namespace starts with %q", strings.TrimPrefix(line, "ns "))
}

// candidates are the completions for the word being typed in line.
func (m Browser) candidates(line string) []completionCandidate {
	if rest, ok := strings.CutPrefix(line, "ns "); ok && !strings.Contains(rest, " ") {
		out := make([]completionCandidate, len(m.namespaces))
		for i, n := range m.namespaces {
			out[i] = completionCandidate{text: "ns " + n}
		}
		return out
	}
	if strings.Contains(line, " ") {
		return nil
	}
	out := []completionCandidate{{text: "ns"}, {text: "drafts"}}
	return append(out, m.types...)
}
