package textedit

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the editor's keys. They are a contract (the README's key table
// lists them), so change a default only together with it. Typed characters
// and pastes need no binding; esc and ctrl+s are the parent's.
type KeyMap struct {
	// Moving the cursor.
	Left, Right, Up, Down, WordLeft, WordRight             key.Binding
	LineStart, LineEnd, PageUp, PageDown, DocStart, DocEnd key.Binding

	// Changing the text.
	Backspace, Delete, Newline, Indent, Outdent, DeleteLine key.Binding
	Undo, Redo                                              key.Binding

	// Prompts: Find and GotoLine open one; inside it, Accept goes to the
	// next match (or the line) and Cancel closes it.
	Find, GotoLine, Accept, Cancel key.Binding
}

// DefaultKeyMap returns the in-app editor's keys, the README's contract.
func DefaultKeyMap() KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return KeyMap{
		Left:      key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "left")),
		Right:     key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "right")),
		Up:        key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")),
		Down:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")),
		WordLeft:  key.NewBinding(key.WithKeys("alt+left", "ctrl+left"), key.WithHelp("alt+←", "word left")),
		WordRight: key.NewBinding(key.WithKeys("alt+right", "ctrl+right"), key.WithHelp("alt+→", "word right")),
		LineStart: b("line start", "home"),
		LineEnd:   b("line end", "end"),
		PageUp:    b("page up", "pgup"),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		DocStart:  b("top", "ctrl+home"),
		DocEnd:    b("bottom", "ctrl+end"),

		Backspace:  key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("backspace", "delete left")),
		Delete:     b("delete right", "delete"),
		Newline:    b("new line, same indentation", "enter"),
		Indent:     b("two spaces", "tab"),
		Outdent:    b("unindent", "shift+tab"),
		DeleteLine: b("delete line", "ctrl+k"),
		Undo:       b("undo", "ctrl+z"),
		Redo:       b("redo", "ctrl+y"),

		Find:     b("find", "ctrl+f"),
		GotoLine: b("go to line", "ctrl+g"),
		Accept:   b("next match / go", "enter"),
		Cancel:   b("close the prompt", "esc"),
	}
}

// ShortHelp is the editor's keys for the help line: the ones a typist
// would not guess.
func (m Model) ShortHelp() []key.Binding {
	k := m.KeyMap
	if m.prompt != noPrompt {
		return []key.Binding{k.Accept, k.Cancel}
	}
	return []key.Binding{k.Undo, k.Redo, k.Find, k.GotoLine, k.DeleteLine}
}

// FullHelp is every key of the editor: moving, changing, undo and prompts.
func (m Model) FullHelp() [][]key.Binding {
	k := m.KeyMap
	return [][]key.Binding{
		{k.Left, k.Right, k.Up, k.Down, k.WordLeft, k.WordRight},
		{k.LineStart, k.LineEnd, k.PageUp, k.PageDown, k.DocStart, k.DocEnd},
		{k.Backspace, k.Delete, k.Newline, k.Indent, k.Outdent, k.DeleteLine},
		{k.Undo, k.Redo, k.Find, k.GotoLine, k.Accept, k.Cancel},
	}
}
