package editor

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is the in-app editor's keys besides its text's own
// (textedit.KeyMap): leaving it, saving, and its help. Every other key is
// typed into the text, q and ? included.
type KeyMap struct {
	// Leave goes back, keeping what was typed as the draft; inside the
	// find or go-to-line prompt it closes the prompt instead. Save keeps
	// it and saves, from the prompt too.
	Leave, Save key.Binding

	// Complete lists the field names (or after `key: ` the values) the
	// schema allows at the cursor; Docs shows the docs of the field at
	// the cursor.
	Complete, Docs key.Binding

	// Help shows every key, as ? does elsewhere (? is typed). ForceQuit
	// (ctrl+c) keeps the text as the draft and says so, and a second one
	// quits; on a selection it copies instead (textedit's Copy).
	Help, ForceQuit key.Binding
}

// DefaultKeyMap returns the in-app editor's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Leave:     common.Binding("leave, keep the draft", "esc"),
		Save:      common.Binding("save", "ctrl+s"),
		Complete:  common.Bind("complete the field or value", "ctrl+space", "ctrl+@"),
		Docs:      common.Binding("docs of the field", "alt+k"),
		Help:      common.Binding("help", "f1"),
		ForceQuit: common.Binding("keep draft", "ctrl+c"),
	}
}
