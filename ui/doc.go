// Package ui is kedit's Bubble Tea application: the root model, App, and
// one view each for the browser, the set (several objects, each with its
// own session), the object, the in-app editor, the three-way conflict
// view, the timeline (with an audit log's history), the lost updates'
// view, the dry run's preview, the help page and the questions, with the
// status bar under them. It renders model.Session and turns keys into
// intents; all I/O runs in tea.Cmd closures.
//
// The in-app editor's view is ui/editor; the app opens it and takes its
// text (inapp.go).
// The object view is ui/object; the app gives it an object.Content
// (objectContent) and acts on its intents (objectintents.go).
// The conflict view and the lost updates' view are ui/conflict; the app
// gives the first a conflict.Content (conflictContent) and acts on their
// intents (objectintents.go, undo.go).
// The dry run's preview is ui/preview; the app gives it a preview.Content
// (previewContent), with why the server would refuse the save in words
// (refusalText).
//
// # The app and its views
//
// App owns the session, the objects left for the browser, the set's
// objects not shown (set.go) and the effects (the tea.Cmd builders:
// performCmd, openCmd, editCmd ...). It routes each message: a key to the
// question on the bottom line if one waits, else to the help page while
// it shows, else to the active view (route.go); an outcome of a command
// to the app itself (outcome.go; an outcome of an object of the set not
// shown to that object, setOutcome). It draws the frame:
// the active view, the status bar or the question, and the footer of the
// active view's keys (view.go).
//
// A view owns its keys. It decides what each of them means on its screen
// (t is the timeline in the object view, take theirs in the conflict
// view), does what it can alone, and asks the app for the rest with an
// intent: a message naming what the user asked for, such as conflict.ResolveMsg,
// SaveMsg or OpenObjectMsg. The app acts on intents (intent.go and the
// views' own App.xIntent methods); it never matches a view's keys.
//
// # A view, after charmbracelet/bubbles
//
// A new view follows the pattern of the others, the timeline being the
// smallest whole example (and the set view that of a list):
//
//  1. Keys as data: a key map of its own in keys.go, a struct of
//     key.Binding with a DefaultXKeyMap() (timeline.KeyMap, ui/timeline), and a field
//     for it in KeyMap. Use the shared bindings (common.HelpKey, common.QuitKey,
//     common.ForceQuitKey, the scrolling keys) so that ?, q and ctrl+c mean the
//     same everywhere; every view answers those three.
//
//  2. A value type made by NewX(keys, styles), with SetSize(width, height)
//     and View() string. Copy from the session what it shows in a
//     SetSession (the app calls it after every event); it never holds on
//     to the session, nor reaches into App.
//
//  3. Update(msg tea.Msg) (X, tea.Cmd), returning its own type. A key it
//     can act on alone changes the view. A key that needs the session,
//     another view or I/O comes back as an intent through common.Emit (below).
//     Declare its intents beside Update, exported, each with a doc comment
//     that names its key, and reuse the shared ones (common.HelpMsg,
//     common.QuitRequestedMsg, common.ForceQuitMsg, common.SayMsg, common.EditMsg).
//
//  4. ShortHelp() and FullHelp() from its own bindings: the footer and ?
//     are drawn from them, and TestEveryKeyIsInItsViewsHelp checks that
//     every binding of its key map is in its help (add the view to
//     everyView in help_test.go). The README's key table lists every key
//     (TestREADMEListsEveryKey).
//
//  5. In the app: a screen, a field in views (views.go, with a case in
//     views.update and in setSize), a case in App.body and
//     App.helpSource, and an App.xIntent method that acts on its intents,
//     added to App.intent's list.
//
// The timeline's y, for one, makes the selected version the draft, which
// is the session's to do:
//
//	case key.Matches(k, m.keys.Take):
//		return m, common.EmitIf(selected, TakeVersionMsg{ID: id, RV: rv})
//
// and the app, in App.oncallIntent, asks for a confirmation first:
//
//	case timeline.TakeVersionMsg:
//		m.oncall.takeID, m.oncall.takeRV = msg.ID, msg.RV
//		m.ask(confirmTimelineTake)
//
// The app takes a view's answer to a key at once, in the same Update
// (App.answer): keys typed faster than the terminal is read come in one
// message, and each must meet what the one before it did. So a view
// answers a key with an intent or nothing; work that takes time, such as
// a timer, goes to Bubble Tea wrapped in background (the in-app editor's
// pause before it checks what was typed). Messages other than keys (its
// own timers' and readers') a view answers with any command.
//
// # Server text
//
// Everything from the server (names, resourceVersions, managers, an
// error's message) is escaped once, where it enters the UI, into an
// escape.Text: escape.Safe(name), escape.Textf("rv %s by %s", rv,
// manager), common.ErrorText(err) for an error. What the views and the status
// bar draw is an escape.Text (statusbar.Model.Info, common.Prompt.SetQuestion,
// objectset.Row's fields, textedit.Note), so the compiler rejects server text
// that was not escaped, and nothing takes a Text's string to escape it
// again (a backslash would show \\\\). A view that escapes as it draws
// (a filter typed, YAML with common.Styles.EscapedYAML) draws the result at once.
package ui
