package ui

import (
	"github.com/kedit/kedit/model"
)

// views are the app's views, one of each. Each is a component after
// charmbracelet/bubbles (doc.go): the app hands it messages, it answers
// with what it asks of the app. The object's views are made afresh for
// each object shown (renew); the browser, the help page and the prompt
// live as long as the app.
type views struct {
	object   ObjectView
	conflict ConflictView
	editor   EditorView
	timeline TimelineView
	preview  PreviewView
	browser  Browser
	// help is the help page (? or f1), when it shows; prompt the
	// question on the bottom line.
	help   HelpPage
	prompt Prompt
}

func newViews(keys KeyMap, styles *Styles) views {
	v := views{browser: NewBrowser(keys.Browser, styles), help: NewHelpPage(keys.HelpPage, styles), prompt: NewPrompt(keys.Prompt, styles)}
	v.renew(keys, styles, false)
	return v
}

// renew makes the object's views afresh; backToList says whether esc goes
// from the object view back to a list.
func (v *views) renew(keys KeyMap, styles *Styles, backToList bool) {
	v.object, v.conflict, v.editor = NewObjectView(keys.Object, styles), NewConflictView(keys.Conflict, styles), NewEditorView(keys.Editor, styles)
	v.timeline, v.preview = NewTimelineView(keys.Timeline, styles), NewPreviewView(keys.Preview, styles)
	v.object.SetBackToList(backToList)
}

// refresh copies the session into the object's views.
func (v *views) refresh(sess *model.Session) {
	v.object.SetSession(sess)
	v.conflict.SetSession(sess)
	v.timeline.SetSession(sess)
	v.preview.SetSession(sess)
}

// setSize gives every view the body's size.
func (v *views) setSize(width, height int) {
	v.object.SetSize(width, height)
	v.conflict.SetSize(width, height)
	v.editor.SetSize(width, height)
	v.timeline.SetSize(width, height)
	v.preview.SetSize(width, height)
	v.browser.SetSize(width, height)
	v.help.SetSize(width, height)
}
