// Package textedit is kedit's editor component: a Bubble Tea (v1) model, in
// the bubbles style, for editing a draft of a Kubernetes object in the app.
//
// It is built for documents of any size. The text is a slice of lines, and
// everything done per keystroke touches only the lines the keystroke
// changes and the rows on screen: rendering, highlighting, escaping and
// display widths are computed for the visible rows only, lines scroll
// horizontally instead of wrapping, and the gutter's marks against base are
// recomputed in the background after typing pauses.
//
// The text is kept byte for byte: opening a text and reading it back
// without typing returns it exactly, whatever its line endings, final
// newline, control characters or invalid UTF-8. What a terminal must not
// interpret, and what would take no cell (a zero width space, a joiner that
// joins nothing), is drawn escaped by internal/escape's rule, the one all
// of kedit draws text by; a joined emoji sequence is one unit, two cells
// wide.
//
// The component never handles esc (outside its own find, replace and
// go-to-line prompts, and a selection, which esc clears) or ctrl+s: the
// parent leaves the editor and saves with them, and asks Prompting and
// Selected before treating esc as leaving. ctrl+c is the parent's too but
// on a selection, which it copies.
//
// A selection (shift with a move, a drag of the mouse, or a click with
// shift, which extends it to where it clicks) is replaced by
// typing, a paste and backspace or delete; copy and cut fill kedit's own
// register (Register), which Paste inserts, and the parent hands what is
// copied to the terminal's clipboard (Copied). What a key did is said in
// words for the parent's status line (Said).
package textedit
