package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
)

// KeyMap is every key kedit answers to. The keys of issue 5 are a contract
// (the README's key table and the end-to-end tests use them), so change a
// default only together with both.
type KeyMap struct {
	// Scrolling the object view's body.
	Up, Down, Left, Right, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// Object view.
	Edit, EditInApp, Save, Rebase, Discard, Fields, Diff, Conflicts key.Binding

	// SaveAsUpdate sends the save as an update after server-side apply
	// could not remove a field another manager owns.
	SaveAsUpdate key.Binding

	// The diff view's hunks (p is kept free for a preview).
	NextHunk, PrevHunk key.Binding

	// In-app editor: these, the editor's own keys (textedit.KeyMap) and
	// ctrl+c; everything else is typed into the text. EditorHelp shows
	// every key, as ? does elsewhere (? is typed).
	EditorLeave, EditorSave, EditorHelp key.Binding

	// Conflict view.
	Next, Prev, TakeMine, TakeTheirs, TakeBase, AllMine, AllTheirs, Layout, Back key.Binding

	// BackToList goes from the object view to the browser, on the
	// object's type and namespace.
	BackToList key.Binding

	// Reveal shows a Secret's values in the object view and the conflict
	// view, which mask them until it is pressed; pressed again, it hides
	// them.
	Reveal key.Binding

	// Confirmations; Pick chooses one of several stored drafts.
	Yes, No, Pick key.Binding

	// Browser: the list of a type's objects. It moves with Up, Down,
	// PageUp, PageDown, Home and End; while a filter or a command is typed,
	// only the arrow and page keys move, the rest are text.
	Filter, ClearFilter, Open, Order, Command, Complete, Accept key.Binding

	// On-call and teaching, in the object view: the timeline of versions,
	// the blame gutter, the server's dry run of the draft, the demo
	// writer's write at once, and the demo's kubectl edit that loses a
	// value saved meanwhile (both kedit demo only).
	Timeline, Blame, Preview, DemoWrite, DemoKubectlEdit key.Binding

	// Timeline view: the selected version's diff against the one before
	// it, that version as the draft (after a confirmation), and closing the
	// view (t again or esc). Bindings are per view: t and b mean take
	// theirs and take base in the conflict view.
	TimelineDiff, TimelineTake, TimelineClose key.Binding

	// UndoOverwrite, on a LOST row of the timeline (and in its lost
	// updates' view), makes the draft that puts the lost values back.
	UndoOverwrite key.Binding

	// PreviewClose leaves the dry run's preview.
	PreviewClose key.Binding

	// Everywhere.
	Help, Quit, ForceQuit key.Binding
}

// DefaultKeyMap returns kedit's keys.
func DefaultKeyMap() KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return KeyMap{
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:         key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "left")),
		Right:        key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "right")),
		PageUp:       key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		HalfPageUp:   b("half page up", "ctrl+u"),
		HalfPageDown: b("half page down", "ctrl+d"),
		Home:         key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "top")),
		End:          key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "bottom")),

		Edit:      b("edit", "e"),
		EditInApp: b("edit here", "i"),
		Save:      key.NewBinding(key.WithKeys("s", "ctrl+s"), key.WithHelp("s", "save")),
		Rebase:    b("rebase", "r"),
		Discard:   b("discard", "x"),
		Fields:    b("all fields", "f"),
		Diff:      b("draft/diff", "d"),
		Conflicts: b("conflicts", "c"),

		SaveAsUpdate: b("save as update", "u"),
		NextHunk:     b("next hunk", "n"),
		PrevHunk:     b("previous hunk", "N"),

		EditorLeave: b("leave, keep the draft", "esc"),
		EditorSave:  b("save", "ctrl+s"),
		EditorHelp:  b("help", "f1"),

		Next:       key.NewBinding(key.WithKeys("n", "j", "down"), key.WithHelp("n/j/↓", "next")),
		Prev:       key.NewBinding(key.WithKeys("p", "k", "up"), key.WithHelp("p/k/↑", "previous")),
		TakeMine:   b("take mine", "m"),
		TakeTheirs: b("take theirs", "t"),
		TakeBase:   b("take base", "b"),
		AllMine:    b("all mine", "M"),
		AllTheirs:  b("all theirs", "T"),
		Layout:     b("layout", "v"),
		Back:       b("back", "esc"),

		BackToList: b("list", "esc"),
		Reveal:     b("reveal", "R"),

		Yes:  b("yes", "y"),
		Pick: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "recover that draft")),
		No:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "no")),

		Filter:      b("filter", "/"),
		ClearFilter: b("clear filter", "esc"),
		Open:        b("open", "enter"),
		Order:       b("order", "o"),
		Command:     b("command", ":"),
		Complete:    b("complete", "tab"),
		Accept:      b("ok", "enter"),

		Timeline:  b("timeline", "t"),
		Blame:     b("blame", "b"),
		Preview:   b("preview (dry run)", "p"),
		DemoWrite: b("demo writer writes", "w"),

		DemoKubectlEdit: b("demo kubectl edit", "W"),

		TimelineDiff:  b("diff", "enter"),
		TimelineTake:  b("make it the draft", "y"),
		TimelineClose: key.NewBinding(key.WithKeys("t", "esc"), key.WithHelp("t/esc", "close")),
		UndoOverwrite: b("undo the overwrite", "u"),
		PreviewClose:  b("close", "esc"),

		Help:      b("help", "?"),
		Quit:      b("quit", "q"),
		ForceQuit: b("quit now", "ctrl+c"),
	}
}

// viewportKeys gives the viewport kedit's scrolling keys only: its defaults
// take f, d, b and u, which are kedit's own keys.
func (k KeyMap) viewportKeys() viewport.KeyMap {
	return viewport.KeyMap{
		Up: k.Up, Down: k.Down, Left: k.Left, Right: k.Right,
		PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown,
	}
}
