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

	// Readline's deletes: the word before the cursor, and the line up to
	// the cursor.
	DeleteWordLeft, DeleteToLineStart key.Binding

	// Select is a move with shift held: it moves the cursor and extends
	// the selection from where it started. Copy, Cut and Paste use kedit's
	// register (and the parent hands a copy to the terminal's clipboard).
	// Copy's ctrl+c is the editor's only while something is selected; the
	// parent has it otherwise. Cut without a selection cuts the line.
	Select, Copy, Cut, Paste key.Binding

	// Prompts: Find, Replace and GotoLine open one; inside it, Accept goes
	// to the next match (or the line; in replace, replaces the match at
	// the cursor and goes to the next), ReplaceAll replaces every match,
	// and Cancel closes it (outside a prompt, Cancel clears the selection).
	Find, Replace, GotoLine, Accept, ReplaceAll, Cancel key.Binding
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
		LineStart: key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home/ctrl+a", "line start")),
		LineEnd:   key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end/ctrl+e", "line end")),
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

		DeleteWordLeft:    key.NewBinding(key.WithKeys("ctrl+w", "alt+backspace"), key.WithHelp("ctrl+w/alt+backspace", "delete word left")),
		DeleteToLineStart: b("delete to line start", "ctrl+u"),

		Select: key.NewBinding(key.WithKeys("shift+left", "shift+right", "shift+up", "shift+down", "shift+home", "shift+end",
			"ctrl+shift+left", "ctrl+shift+right", "alt+shift+left", "alt+shift+right", "ctrl+shift+home", "ctrl+shift+end"),
			key.WithHelp("shift+move", "select")),
		Copy:  key.NewBinding(key.WithKeys("alt+c", "ctrl+c"), key.WithHelp("alt+c", "copy")),
		Cut:   b("cut (the line if nothing is selected)", "ctrl+x"),
		Paste: b("paste kedit's register", "ctrl+v"),

		Find:       b("find", "ctrl+f"),
		Replace:    b("replace", "ctrl+r"),
		GotoLine:   b("go to line", "ctrl+g"),
		Accept:     b("next match / go / replace one", "enter"),
		ReplaceAll: b("replace all (in replace)", "ctrl+a"),
		Cancel:     b("close the prompt / clear the selection", "esc"),
	}
}

// HelpMode changes when ShortHelp does: with the prompt open, and with
// whether text is selected. A parent that draws the help once per mode
// compares it.
func (m Model) HelpMode() int {
	mode := int(m.prompt) * 2
	if m.Selected() {
		mode++
	}
	return mode
}

// ShortHelp is the editor's keys for the help line: the ones a typist
// would not guess.
func (m Model) ShortHelp() []key.Binding {
	k := m.KeyMap
	switch m.prompt {
	case noPrompt:
	case replaceWithPrompt:
		return []key.Binding{k.Accept, k.ReplaceAll, k.Cancel}
	default:
		return []key.Binding{k.Accept, k.Cancel}
	}
	if m.Selected() {
		// ctrl+c copies a selection, and esc clears it.
		copyKeys := key.NewBinding(key.WithKeys(k.Copy.Keys()...), key.WithHelp("ctrl+c/"+k.Copy.Help().Key, k.Copy.Help().Desc))
		clear := key.NewBinding(key.WithKeys(k.Cancel.Keys()...), key.WithHelp(k.Cancel.Help().Key, "clear the selection"))
		return []key.Binding{copyKeys, k.Cut, k.Paste, clear}
	}
	return []key.Binding{k.Undo, k.Redo, k.Find, k.Replace, k.GotoLine}
}

// FullHelp is every key of the editor: moving, changing, undo and prompts.
func (m Model) FullHelp() [][]key.Binding {
	k := m.KeyMap
	return [][]key.Binding{
		{k.Left, k.Right, k.Up, k.Down, k.WordLeft, k.WordRight},
		{k.LineStart, k.LineEnd, k.PageUp, k.PageDown, k.DocStart, k.DocEnd},
		{k.Backspace, k.Delete, k.Newline, k.Indent, k.Outdent, k.DeleteLine, k.DeleteWordLeft, k.DeleteToLineStart},
		{k.Select, k.Copy, k.Cut, k.Paste, k.Undo, k.Redo},
		{k.Find, k.Replace, k.GotoLine, k.Accept, k.ReplaceAll, k.Cancel},
	}
}
