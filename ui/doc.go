// Package ui is kedit's Bubble Tea application: the root model, App, which
// routes messages, owns the sessions and the effects, and draws the frame.
// The views are packages of their own under ui/, each a component after
// charmbracelet/bubbles, and one line each of the app's table of views
// (views.go):
//
//	ui/object      one object: live, draft, diff, blame
//	ui/conflict    the three-way conflict view, and a LOST row's lost updates
//	ui/editor      the in-app editor (on ui/textedit)
//	ui/timeline    the versions kedit saw, with an audit log's history
//	ui/preview     the server's dry run of the draft
//	ui/browser     the live, filterable list of objects
//	ui/objectset   the set of objects kedit was started on
//	ui/fielddoc    a field's docs from the schema (alt+k, K)
//	ui/sourcediff  the draft written to its source manifests, before the
//	               files are (g)
//
// and, over whichever of them shows:
//
//	ui/helppage    every key of the active view (? or f1)
//	ui/requests    the request pane: every request and watch event (L)
//	ui/tour        kedit demo --tour's line over every view: the next step,
//	               and what the last one sent and the server answered
//	ui/statusbar   the line under the body
//
// with what they share:
//
//	ui/common      styles, bindings, shared intents, the question on the
//	               bottom line, drawing server text
//	ui/pager       the body that scrolls under a view's header
//	ui/list        a list's selection and the rows in view
//	ui/textedit    the text editor component
//
// A view package imports what the views share (above), model, diff and the
// escape rule, never ui, kube or another view (TestImportsPointOneWay): it
// draws values the app hands it, and answers with intents. All I/O runs in tea.Cmd closures
// the app builds.
//
// # The app and its views
//
// App owns the open objects (objectstate.go: the one shown, the set's, those
// left for the browser) and decides which effect each needs; the tea.Cmd
// builders that carry them out, and the messages they answer with, are
// ui/internal/effect's (effect.Perform, effect.Open, effect.Edit ...). It routes each message: a key to the
// question on the bottom line if one waits, else to the help page while
// it shows, else to the active view (intent.go); an outcome of an object's
// commands or watch to that object, wherever it is (App.outcome, one path
// for every object, which says its notices where the object is:
// App.notify). It draws the frame:
// the active view, the status bar or the question, and the footer of the
// active view's keys (view.go). After every event it builds each view's
// Content from the session (views.go: objectContent, timelineContent ...)
// and hands it over; no view holds a *model.Session.
//
// A view owns its keys. It decides what each of them means on its screen
// (t is the timeline in the object view, take theirs in the conflict
// view), does what it can alone, and asks the app for the rest with an
// intent: a message naming what the user asked for, such as
// conflict.ResolveMsg, object.SaveMsg or browser.OpenObjectMsg. The app
// acts on intents (intent.go and its App.xIntent methods); it never
// matches a view's keys.
//
// # Adding a view
//
// A new view is a package ui/NAME, the timeline (ui/timeline) being the
// smallest whole example, and the set view (ui/objectset) that of a list:
//
//  1. Keys as data: KeyMap, a struct of key.Binding, and DefaultKeyMap()
//     in its keys.go; a field for it in ui.KeyMap (ui/keys.go). Use the
//     shared bindings (common.HelpKey, common.QuitKey, common.ForceQuitKey,
//     the scrolling keys) so that ?, q and ctrl+c mean the same everywhere;
//     every view answers those three. A body that scrolls under a header
//     is a ui/pager, a list with a selection a ui/list: not a copy of
//     their code.
//
//  2. Model, made by New(keys, styles), with SetSize(width, height) and
//     View() string, and a Content: the plain value of what it draws
//     (model values, escape.Text, rendered text), which the app builds from
//     the session in a function of ui/views.go and hands over with
//     SetContent after every event. It never holds the session, nor
//     reaches into App; text that needs kube's typed errors (a failure's
//     words, ui/internal/say) comes in the Content.
//
//  3. Update(msg tea.Msg) (Model, tea.Cmd). A key it can act on alone
//     changes the view. A key that needs the session, another view or I/O
//     comes back as an intent through common.Emit (below). Declare its
//     intents beside Update, exported, each with a doc comment that names
//     its key, and reuse the shared ones (common.HelpMsg,
//     common.QuitRequestedMsg, common.ForceQuitMsg, common.SayMsg,
//     common.EditMsg).
//
//  4. ShortHelp() and FullHelp() from its own bindings: the footer and ?
//     are drawn from them, and TestEveryKeyIsInItsViewsHelp checks that
//     every binding of its key map is in its help (add the view to
//     everyView in help_test.go). The README's key table lists every key
//     (TestREADMEListsEveryKey).
//
//  5. In the app: a screen (app.go) and a field in views (views.go), made
//     in renew (or newViews for a view that lives as long as the app), its
//     Content built in views.refresh, and its one line in the table of
//     views, pages (views.go): its name on the help page and its help key,
//     through which the app hands it messages and its size, draws it and
//     reads its keys (no switch on the screen elsewhere). A view opened
//     over another is pushed on the page stack (App.push) and popped when
//     it closes (App.pop); one of its own is gone to (App.goTo). An
//     App.xIntent method acts on its intents, added to App.intent's list.
//
//  6. Tests that drive only the view live in its package; tests of the
//     app with it stay in ui, through the view's exported API.
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
// a timer, goes to Bubble Tea wrapped in common.Background (the in-app editor's
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
