package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
)

// views are the app's views, one of each. Each is a component after
// charmbracelet/bubbles (doc.go): the app hands it messages, it answers
// with what it asks of the app. The object's views are made afresh for
// each object shown (renew); the browser, the set view, the help page and
// the prompt live as long as the app.
type views struct {
	object   ObjectView
	conflict ConflictView
	editor   EditorView
	timeline TimelineView
	// lost is a LOST row's lost updates, from the timeline.
	lost    LostView
	preview PreviewView
	browser browser.Model
	// setView lists the set kedit was started on, if any.
	setView SetView
	// help is the help page (? or f1), when it shows; prompt the
	// question on the bottom line.
	help   HelpPage
	prompt common.Prompt
}

func newViews(keys KeyMap, styles *common.Styles) views {
	v := views{browser: browser.New(keys.Browser, styles), setView: NewSetView(keys.Set, styles, ""),
		help: NewHelpPage(keys.HelpPage, styles), prompt: common.NewPrompt(keys.Prompt, styles)}
	v.renew(keys, styles, false)
	return v
}

// renew makes the object's views afresh; backToList says whether esc goes
// from the object view back to a list.
func (v *views) renew(keys KeyMap, styles *common.Styles, backToList bool) {
	v.object, v.conflict, v.editor = NewObjectView(keys.Object, styles), NewConflictView(keys.Conflict, styles), NewEditorView(keys.Editor, styles)
	v.timeline, v.preview = NewTimelineView(keys.Timeline, styles), NewPreviewView(keys.Preview, styles)
	v.lost = NewLostView(keys.Lost, styles)
	v.object.SetBackToList(backToList)
}

// refresh copies the session into the object's views.
func (v *views) refresh(sess *model.Session) {
	v.object.SetSession(sess)
	v.conflict.SetSession(sess)
	v.timeline.SetSession(sess)
	v.preview.SetSession(sess)
}

// update hands msg to the view of screen s.
func (v *views) update(s screen, msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch s {
	case screenObject:
		v.object, cmd = v.object.Update(msg)
	case screenConflict:
		v.conflict, cmd = v.conflict.Update(msg)
	case screenTimeline:
		v.timeline, cmd = v.timeline.Update(msg)
	case screenLost:
		v.lost, cmd = v.lost.Update(msg)
	case screenPreview:
		v.preview, cmd = v.preview.Update(msg)
	case screenEditor:
		v.editor, cmd = v.editor.Update(msg)
	case screenBrowser:
		v.browser, cmd = v.browser.Update(msg)
	case screenSet:
		v.setView, cmd = v.setView.Update(msg)
	}
	return cmd
}

// setSize gives every view the body's size.
func (v *views) setSize(width, height int) {
	v.object.SetSize(width, height)
	v.conflict.SetSize(width, height)
	v.editor.SetSize(width, height)
	v.timeline.SetSize(width, height)
	v.lost.SetSize(width, height)
	v.preview.SetSize(width, height)
	v.browser.SetSize(width, height)
	v.setView.SetSize(width, height)
	v.help.SetSize(width, height)
}
