package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"

	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
)

// KeyMap is every key kedit answers to: each view's own key map. The keys
// are a contract (the README's key tables and the end-to-end tests use
// them), so change a default only together with both.
//
// A key means what the active view says it means: t is the timeline in the
// object view and take theirs in the conflict view. Each view answers its
// own keys, ctrl+c and ? included (f1 in the in-app editor, where ? is
// typed), and its help is drawn from the same bindings.
type KeyMap struct {
	Object   ObjectKeyMap
	Conflict ConflictKeyMap
	Editor   EditorKeyMap
	Timeline TimelineKeyMap
	Lost     LostKeyMap
	Preview  PreviewKeyMap
	Browser  browser.KeyMap
	Set      SetKeyMap
	HelpPage HelpPageKeyMap
	Prompt   common.PromptKeyMap
}

// DefaultKeyMap returns kedit's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Object:   DefaultObjectKeyMap(),
		Conflict: DefaultConflictKeyMap(),
		Editor:   DefaultEditorKeyMap(),
		Timeline: DefaultTimelineKeyMap(),
		Lost:     DefaultLostKeyMap(),
		Preview:  DefaultPreviewKeyMap(),
		Browser:  browser.DefaultKeyMap(),
		Set:      DefaultSetKeyMap(),
		HelpPage: DefaultHelpPageKeyMap(),
		Prompt:   common.DefaultPromptKeyMap(),
	}
}

// ObjectKeyMap is the object view's keys.
type ObjectKeyMap struct {
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
	// and the demo's kubectl edit that loses a value saved meanwhile (both
	// kedit demo only).
	Timeline, Blame, Preview, DemoWrite, DemoKubectlEdit key.Binding

	// BackToList goes back to the browser, on the object's type and
	// namespace, when kedit has a list to go back to.
	BackToList key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultObjectKeyMap returns the object view's keys.
func DefaultObjectKeyMap() ObjectKeyMap {
	return ObjectKeyMap{
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
		Preview:   common.Binding("preview (dry run)", "p"),
		DemoWrite: common.Binding("demo writer writes", "w"),

		DemoKubectlEdit: common.Binding("demo kubectl edit", "W"),

		BackToList: common.Binding("list", "esc"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys only: its
// defaults take f, d, b and u, which are the view's own keys.
func (k ObjectKeyMap) viewport() viewport.KeyMap {
	return common.ViewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}

// ConflictKeyMap is the conflict view's keys.
type ConflictKeyMap struct {
	// Moving through the list, scrolling the selected entry's versions,
	// and switching between side by side and stacked (Layout).
	Next, Prev, Home, End, PageUp, PageDown, Layout key.Binding

	// Resolving: the selected conflict, or every open one.
	TakeMine, TakeTheirs, TakeBase, AllMine, AllTheirs key.Binding

	// Editing the merged result, resubmitting it (Save), and going back
	// to the draft, unchanged (Back).
	Edit, EditInApp, Save, Back key.Binding

	// Reveal shows a Secret's values, which the view masks until then.
	Reveal key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultConflictKeyMap returns the conflict view's keys.
func DefaultConflictKeyMap() ConflictKeyMap {
	return ConflictKeyMap{
		Next:   common.Bind("next", "n/j/↓", "n", "j", "down"),
		Prev:   common.Bind("previous", "p/k/↑", "p", "k", "up"),
		Home:   common.HomeKey(),
		End:    common.EndKey(),
		Layout: common.Binding("layout", "v"),
		// They scroll the selected entry's versions, not the list.
		PageUp:   common.Bind("versions up", "pgup", "pgup"),
		PageDown: common.Bind("versions down", "pgdn/space", "pgdown", " "),

		TakeMine:   common.Binding("take mine", "m"),
		TakeTheirs: common.Binding("take theirs", "t"),
		TakeBase:   common.Binding("take base", "b"),
		AllMine:    common.Binding("all mine", "M"),
		AllTheirs:  common.Binding("all theirs", "T"),

		Edit:      common.Binding("edit", "e"),
		EditInApp: common.Binding("edit here", "i"),
		Save:      common.Bind("resubmit", "s", "s", "ctrl+s"),
		Back:      common.BackKey(),

		Reveal: common.RevealKey(),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// EditorKeyMap is the in-app editor's keys besides its text's own
// (textedit.KeyMap): leaving it, saving, and its help. Every other key is
// typed into the text, q and ? included.
type EditorKeyMap struct {
	// Leave goes back, keeping what was typed as the draft; inside the
	// find or go-to-line prompt it closes the prompt instead. Save keeps
	// it and saves, from the prompt too.
	Leave, Save key.Binding

	// Help shows every key, as ? does elsewhere (? is typed).
	Help, ForceQuit key.Binding
}

// DefaultEditorKeyMap returns the in-app editor's keys.
func DefaultEditorKeyMap() EditorKeyMap {
	return EditorKeyMap{
		Leave:     common.Binding("leave, keep the draft", "esc"),
		Save:      common.Binding("save", "ctrl+s"),
		Help:      common.Binding("help", "f1"),
		ForceQuit: common.ForceQuitKey(),
	}
}

// TimelineKeyMap is the timeline's keys.
type TimelineKeyMap struct {
	// Moving through the list, or scrolling the selected version's diff;
	// Left and Right scroll either sideways, as in the object view.
	Up, Down, Left, Right, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// Diff shows the selected version's diff against the one before it
	// (Back or Diff goes back to the list), or a LOST row's lost updates;
	// Take makes that version the draft (after a confirmation); Undo, on a
	// LOST row, makes the draft that puts the lost values back; Close goes
	// back to the object view.
	Diff, Take, Undo, Close, Back key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultTimelineKeyMap returns the timeline's keys.
func DefaultTimelineKeyMap() TimelineKeyMap {
	return TimelineKeyMap{
		Up: common.UpKey(), Down: common.DownKey(), Left: common.LeftKey(), Right: common.RightKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),

		Diff:  common.Binding("diff", "enter"),
		Take:  common.Binding("make it the draft", "y"),
		Undo:  common.UndoKey(),
		Close: common.Bind("close", "t/esc", "t", "esc"),
		Back:  common.BackKey(),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// viewport gives the diff's viewport the view's scrolling keys.
func (k TimelineKeyMap) viewport() viewport.KeyMap {
	return common.ViewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}

// LostKeyMap is the lost updates' view's keys.
type LostKeyMap struct {
	// Moving through the lost fields, scrolling their versions, switching
	// between side by side and stacked, and a Secret's values, as in the
	// conflict view.
	Next, Prev, Home, End, PageDown, PageUp, Layout, Reveal key.Binding

	// Undo makes the draft that puts the lost values back; Back goes back
	// to the timeline.
	Undo, Back key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultLostKeyMap returns the lost updates' view's keys: the conflict
// view's that move, and the timeline's u.
func DefaultLostKeyMap() LostKeyMap {
	c := DefaultConflictKeyMap()
	return LostKeyMap{Next: c.Next, Prev: c.Prev, Home: c.Home, End: c.End, PageDown: c.PageDown, PageUp: c.PageUp,
		Layout: c.Layout, Reveal: c.Reveal, Undo: common.UndoKey(), Back: common.BackKey(),
		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey()}
}

// PreviewKeyMap is the dry run's preview's keys.
type PreviewKeyMap struct {
	// Scrolling the body.
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown, Home, End key.Binding

	// Close goes back to the object view.
	Close key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultPreviewKeyMap returns the preview's keys.
func DefaultPreviewKeyMap() PreviewKeyMap {
	return PreviewKeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey(),

		Close: common.Binding("close", "esc"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys.
func (k PreviewKeyMap) viewport() viewport.KeyMap {
	return common.ViewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}

// SetKeyMap is the set view's keys: the list of a set's objects (kedit
// cm/a cm/b, -l, -f). Space marks, so it does not page here.
type SetKeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding

	// Open shows the selected object in the object view (esc there comes
	// back to the set); Mark marks it for Edit, or unmarks it; Edit edits
	// the marked objects, or all of them, in one $EDITOR file; Save saves
	// every draft, each with its own resourceVersion, and resubmits every
	// merge with no conflict open; NextConflict opens
	// the next object whose save met a conflict.
	Open, Mark, Edit, Save, NextConflict key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultSetKeyMap returns the set view's keys.
func DefaultSetKeyMap() SetKeyMap {
	return SetKeyMap{
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.Bind("page down", "pgdn", "pgdown"),
		Home: common.HomeKey(), End: common.EndKey(),

		Open:         common.Binding("open", "enter"),
		Mark:         common.Bind("mark", "space", " "),
		Edit:         common.Binding("edit (marked or all) in $EDITOR", "e"),
		Save:         common.Bind("save drafts, resubmit merges", "s", "s", "ctrl+s"),
		NextConflict: common.Binding("next conflict", "n"),

		Help: common.HelpKey(), Quit: common.QuitKey(), ForceQuit: common.ForceQuitKey(),
	}
}

// HelpPageKeyMap is the help page's keys. Close is the key of the view that
// opened the page (? or f1); the app sets it, and in the in-app editor,
// whose letters are typed, the scrolling keys to the editor's arrows and
// page keys. Any other key closes the page and then does what it does.
type HelpPageKeyMap struct {
	Close, Back key.Binding

	Up, Down, PageUp, PageDown, Top, Bottom key.Binding

	ForceQuit key.Binding
}

// DefaultHelpPageKeyMap returns the help page's keys.
func DefaultHelpPageKeyMap() HelpPageKeyMap {
	return HelpPageKeyMap{
		Close: common.HelpKey(), Back: common.BackKey(),
		Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(), Top: common.HomeKey(), Bottom: common.EndKey(),
		ForceQuit: common.ForceQuitKey(),
	}
}
