package object

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"

	"github.com/kedit/kedit/ui/common"
)

// KeyMap is the object view's keys.
type KeyMap struct {
	// Scrolling the body.
	Up, Down, Left, Right, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// The draft: edit it in $EDITOR or in the app, save it, rebase it,
	// discard it, and show the rebase under way. SaveAsUpdate sends the
	// save as an update after server-side apply could not remove a field
	// another manager owns.
	Edit, EditInApp, Save, SaveAsUpdate, Rebase, Discard, Conflicts key.Binding

	// What the body shows: every field (managedFields and status), the
	// draft's diff against base and its hunks (p is kept free for the
	// preview), and a Secret's values, masked until Reveal.
	Fields, Diff, NextHunk, PrevHunk, Reveal key.Binding

	// On-call and teaching: the timeline of versions, the blame gutter,
	// the server's dry run of the draft, the demo writer's write at once,
	// the demo's kubectl edit that loses a value saved meanwhile, and the
	// demo's race of ten kedit set --if (all three kedit demo only). Docs
	// shows the docs of the field on blame's cursor line.
	Timeline, Blame, Docs, Preview, DemoWrite, DemoKubectlEdit, DemoRace key.Binding

	// BackToList goes back to the browser, on the object's type and
	// namespace, when kedit has a list to go back to.
	BackToList key.Binding

	// Suspend stops kedit and gives the shell the terminal (fg resumes
	// it), as a terminal user expects of ctrl+z; the in-app editor keeps
	// ctrl+z for undo.
	Suspend key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns the object view's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up: common.UpKey(), Down: common.DownKey(), Left: common.LeftKey(), Right: common.RightKey(),
		PageUp: common.PageUpKey(), PageDown: common.PageDownKey(), HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(),
		Home: common.HomeKey(), End: common.EndKey(),

		Edit:         common.Binding("edit", "e"),
		EditInApp:    common.Binding("edit here", "i"),
		Save:         common.SaveKey(),
		SaveAsUpdate: common.Binding("save as update", "u"),
		Rebase:       common.Binding("rebase", "r"),
		Discard:      common.Binding("discard", "x"),
		Conflicts:    common.Binding("conflicts", "c"),

		Fields:   common.Binding("all fields", "f"),
		Diff:     common.Binding("draft/diff", "d"),
		NextHunk: common.Binding("next hunk", "n"),
		PrevHunk: common.Binding("previous hunk", "N"),
		Reveal:   common.RevealKey(),

		Timeline:  common.Binding("timeline", "t"),
		Blame:     common.Binding("blame", "b"),
		Docs:      common.Binding("docs of the field (blame)", "K"),
		Preview:   common.Binding("preview (dry run)", "p"),
		DemoWrite: common.Binding("demo writer writes", "w"),

		DemoKubectlEdit: common.Binding("demo kubectl edit", "W"),
		DemoRace:        common.Binding("demo race: 10 × kedit set --if", "A"),

		BackToList: common.Binding("list", "esc"),
		Suspend:    common.Binding("suspend (fg resumes)", "ctrl+z"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys only: its
// defaults take f, d, b and u, which are the view's own keys.
func (k KeyMap) viewport() viewport.KeyMap {
	return common.ViewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}
