package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
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
	Browser  BrowserKeyMap
	Set      SetKeyMap
	HelpPage HelpPageKeyMap
	Prompt   PromptKeyMap
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
		Browser:  DefaultBrowserKeyMap(),
		Set:      DefaultSetKeyMap(),
		HelpPage: DefaultHelpPageKeyMap(),
		Prompt:   DefaultPromptKeyMap(),
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
		Up: upKey(), Down: downKey(), Left: leftKey(), Right: rightKey(),
		PageUp: pageUpKey(), PageDown: pageDownKey(), HalfPageUp: halfPageUpKey(), HalfPageDown: halfPageDownKey(),
		Home: homeKey(), End: endKey(),

		Edit:         binding("edit", "e"),
		EditInApp:    binding("edit here", "i"),
		Save:         saveKey(),
		SaveAsUpdate: binding("save as update", "u"),
		Rebase:       binding("rebase", "r"),
		Discard:      binding("discard", "x"),
		Conflicts:    binding("conflicts", "c"),

		Fields:   binding("all fields", "f"),
		Diff:     binding("draft/diff", "d"),
		NextHunk: binding("next hunk", "n"),
		PrevHunk: binding("previous hunk", "N"),
		Reveal:   revealKey(),

		Timeline:  binding("timeline", "t"),
		Blame:     binding("blame", "b"),
		Preview:   binding("preview (dry run)", "p"),
		DemoWrite: binding("demo writer writes", "w"),

		DemoKubectlEdit: binding("demo kubectl edit", "W"),

		BackToList: binding("list", "esc"),

		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys only: its
// defaults take f, d, b and u, which are the view's own keys.
func (k ObjectKeyMap) viewport() viewport.KeyMap {
	return viewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
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
		Next:   bind("next", "n/j/↓", "n", "j", "down"),
		Prev:   bind("previous", "p/k/↑", "p", "k", "up"),
		Home:   homeKey(),
		End:    endKey(),
		Layout: binding("layout", "v"),
		// They scroll the selected entry's versions, not the list.
		PageUp:   bind("versions up", "pgup", "pgup"),
		PageDown: bind("versions down", "pgdn/space", "pgdown", " "),

		TakeMine:   binding("take mine", "m"),
		TakeTheirs: binding("take theirs", "t"),
		TakeBase:   binding("take base", "b"),
		AllMine:    binding("all mine", "M"),
		AllTheirs:  binding("all theirs", "T"),

		Edit:      binding("edit", "e"),
		EditInApp: binding("edit here", "i"),
		Save:      bind("resubmit", "s", "s", "ctrl+s"),
		Back:      backKey(),

		Reveal: revealKey(),

		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey(),
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
		Leave:     binding("leave, keep the draft", "esc"),
		Save:      binding("save", "ctrl+s"),
		Help:      binding("help", "f1"),
		ForceQuit: forceQuitKey(),
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
		Up: upKey(), Down: downKey(), Left: leftKey(), Right: rightKey(), PageUp: pageUpKey(), PageDown: pageDownKey(),
		HalfPageUp: halfPageUpKey(), HalfPageDown: halfPageDownKey(), Home: homeKey(), End: endKey(),

		Diff:  binding("diff", "enter"),
		Take:  binding("make it the draft", "y"),
		Undo:  undoKey(),
		Close: bind("close", "t/esc", "t", "esc"),
		Back:  backKey(),

		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey(),
	}
}

// viewport gives the diff's viewport the view's scrolling keys.
func (k TimelineKeyMap) viewport() viewport.KeyMap {
	return viewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
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
		Layout: c.Layout, Reveal: c.Reveal, Undo: undoKey(), Back: backKey(),
		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey()}
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
		Up: upKey(), Down: downKey(), PageUp: pageUpKey(), PageDown: pageDownKey(),
		HalfPageUp: halfPageUpKey(), HalfPageDown: halfPageDownKey(), Home: homeKey(), End: endKey(),

		Close: binding("close", "esc"),

		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey(),
	}
}

// viewport gives the body's viewport the view's scrolling keys.
func (k PreviewKeyMap) viewport() viewport.KeyMap {
	return viewportKeys(k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown)
}

// BrowserKeyMap is the browser's keys: the list of a type's objects. While
// a filter or a command is typed, or a picker is open, only the arrow and
// page keys move; the other keys are text.
type BrowserKeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding

	// The list: open the selected object, filter by name, clear the
	// filter, change the order, and type a command after :.
	Open, Filter, ClearFilter, Order, Command key.Binding

	// The : prompt and the pickers: complete, accept, and go back.
	Complete, Accept, Back key.Binding

	Help, Quit, ForceQuit key.Binding
}

// DefaultBrowserKeyMap returns the browser's keys.
func DefaultBrowserKeyMap() BrowserKeyMap {
	return BrowserKeyMap{
		Up: upKey(), Down: downKey(), PageUp: pageUpKey(), PageDown: pageDownKey(), Home: homeKey(), End: endKey(),

		Open:        binding("open", "enter"),
		Filter:      binding("filter", "/"),
		ClearFilter: binding("clear filter", "esc"),
		Order:       binding("order", "o"),
		Command:     binding("command", ":"),

		Complete: binding("complete", "tab"),
		Accept:   binding("ok", "enter"),
		Back:     backKey(),

		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey(),
	}
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
		Up: upKey(), Down: downKey(), PageUp: pageUpKey(), PageDown: bind("page down", "pgdn", "pgdown"),
		Home: homeKey(), End: endKey(),

		Open:         binding("open", "enter"),
		Mark:         bind("mark", "space", " "),
		Edit:         binding("edit (marked or all) in $EDITOR", "e"),
		Save:         bind("save drafts, resubmit merges", "s", "s", "ctrl+s"),
		NextConflict: binding("next conflict", "n"),

		Help: helpKey(), Quit: quitKey(), ForceQuit: forceQuitKey(),
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
		Close: helpKey(), Back: backKey(),
		Up: upKey(), Down: downKey(), PageUp: pageUpKey(), PageDown: pageDownKey(), Top: homeKey(), Bottom: endKey(),
		ForceQuit: forceQuitKey(),
	}
}

// PromptKeyMap is the keys of a question on the bottom line: yes, no, and
// for the offer of several stored drafts, the number of the one to recover.
type PromptKeyMap struct {
	Yes, No, Pick key.Binding

	ForceQuit key.Binding
}

// DefaultPromptKeyMap returns a question's keys.
func DefaultPromptKeyMap() PromptKeyMap {
	return PromptKeyMap{
		Yes:       binding("yes", "y"),
		No:        bind("no", "n", "n", "esc"),
		Pick:      bind("recover that draft", "1-9", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
		ForceQuit: forceQuitKey(),
	}
}
