package browser

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/list"
)

// The browser's keys: the list's, the filter's and the : prompt's.

// key handles a key: ctrl+c whatever is being typed, then the keys of the
// list, the filter, the prompt or the picker, whichever has them.
func (m Model) key(msg tea.KeyMsg) (Model, tea.Cmd) {
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
func (m Model) listKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.keys
	if d, ok := (list.Keys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}).Step(msg, m.tableHeight(), len(m.shown)); ok {
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
		m.mode, m.prompt.line, m.prompt.completion = modePrompt, "", completion{}
	case key.Matches(msg, k.Open):
		row, ok := m.Selected()
		if !ok || m.coll == nil {
			return m, nil
		}
		return m, common.Emit(OpenObjectMsg{Namespace: row.Namespace, Name: row.Name, UID: row.UID})
	case key.Matches(msg, k.Quit):
		return m, common.Emit(common.QuitRequestedMsg{})
	case key.Matches(msg, k.Help):
		return m, common.Emit(common.HelpMsg{})
	}
	return m, nil
}

func (m *Model) setFilter(f string) {
	sel, ok := m.Selected()
	m.filter = f
	m.refilter()
	if ok {
		m.selectObject(sel.Namespace, sel.Name)
	}
}

// filterKey handles a key while the filter is typed: it applies at every
// key, esc clears it, enter keeps it and gives the keys back to the list.
func (m Model) filterKey(msg tea.KeyMsg) (Model, tea.Cmd) {
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
func (m *Model) arrowKey(msg tea.KeyMsg) bool {
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
func (m Model) promptKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	p := &m.prompt
	switch {
	case key.Matches(msg, m.keys.Back):
		m.mode = modeList
	case key.Matches(msg, m.keys.Complete):
		if namespaceWord(p.line) && p.namespaces == nil && p.nsErr == nil {
			// The namespaces are read when first completed; the tab
			// takes effect once they are in (SetNamespaces).
			p.completion = completion{note: "reading the namespaces ...", waiting: true}
			cmd := p.readNamespaces()
			return m, cmd
		}
		p.complete()
	case key.Matches(msg, m.keys.Accept):
		m.mode = modeList
		return m.run(p.line)
	case msg.Type == tea.KeyBackspace && p.line == "":
		m.mode = modeList // as in vi and k9s: backspace past : leaves
	default:
		if l, ok := editLine(p.line, msg); ok {
			p.line, p.completion = l, completion{}
		}
	}
	return m, nil
}

// run carries out a command typed after :.
func (m Model) run(line string) (Model, tea.Cmd) {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return m, nil
	case words[0] == "ns" && len(words) == 1:
		m.mode = modePicker
		m.prompt.openNamespacePicker(m.namespaced())
		// Namespaces come and go: ask again each time.
		m.prompt.nsReading = true
		return m, common.Emit(NamespacesWantedMsg{})
	case words[0] == "ns" && len(words) == 2:
		return m, common.Emit(SwitchNamespaceMsg{Namespace: words[1]})
	case words[0] == "drafts" && len(words) == 1:
		m.mode = modePicker
		m.prompt.picker = newPicker(pickDraft, "stored drafts", nil)
		m.prompt.picker.empty = "reading the stored drafts ..."
		return m, common.Emit(DraftsWantedMsg{})
	case len(words) == 1:
		return m, common.Emit(SwitchTypeMsg{Type: words[0]})
	}
	// Nothing else takes arguments: say what is understood.
	m.mode, m.prompt.line = modePrompt, line
	m.prompt.completion = completion{note: "commands: TYPE, ns, ns NAME, drafts"}
	return m, nil
}

// KeyMap is the browser's keys: the list of a type's objects. While a
// filter or a command is typed, or a picker is open, only the arrow and
// page keys move; the other keys are text.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding

	// The list: open the selected object, filter by name, clear the
	// filter, change the order, and type a command after :.
	Open, Filter, ClearFilter, Order, Command key.Binding

	// The : prompt and the pickers: complete, accept, and go back.
	Complete, Accept, Back key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the browser's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(), Home: common.HomeKey(), End: common.EndKey(),

		Open:        common.Binding("open", "enter"),
		Filter:      common.Binding("filter", "/"),
		ClearFilter: common.Binding("clear filter", "esc"),
		Order:       common.Binding("order", "o"),
		Command:     common.Binding("command", ":"),

		Complete: common.Binding("complete", "tab"),
		Accept:   common.Binding("ok", "enter"),
		Back:     common.BackKey(),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}
