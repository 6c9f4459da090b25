// Package ui is kedit's Bubble Tea application: the root model and one child
// view each for the browser, the object, the in-app editor, the three-way
// conflict view, the timeline (with an audit log's history), the lost
// updates' view, the set view (several objects, each with its own session)
// and the status bar. It renders model.Session and turns keys
// into intents; all I/O runs in tea.Cmd closures.
package ui
