package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/sourcediff"
	"github.com/kedit/kedit/ui/timeline"
)

// The table of views: the one place the app tells its views apart. Each
// screen's view is one line of pages, and the app hands a view its
// messages, its size, draws it and reads its keys through its page alone
// (views.update, views.setSize, App.body, App.helpSource). Adding a view
// is a package under ui/ and a line here (doc.go).

// component is what every view is, after soft-serve's common.Component
// and bubbles' models: Update returns the view's own type, and it draws
// itself, takes its size and says its keys.
type component[M any] interface {
	*M
	Update(tea.Msg) (M, tea.Cmd)
	View() string
	SetSize(width, height int)
	keyHelp
}

// page is one view of the table: its name on the help page, its help key,
// whether it takes the mouse, and its component, reached in views.
type page struct {
	name string
	help func(KeyMap) key.Binding
	// mouse: the view scrolls or clicks with the mouse.
	mouse   bool
	update  func(*views, tea.Msg) tea.Cmd
	view    func(*views) string
	setSize func(*views, int, int)
	keys    func(*views) keyHelp
	// helpPage, when set, changes the help page's keys over the view (the
	// in-app editor's own scrolling keys).
	helpPage func(*views, helppage.KeyMap) helppage.KeyMap
}

// pageOf is the page of the view at of in views.
func pageOf[M any, P component[M]](name string, of func(*views) *M, help func(KeyMap) key.Binding) page {
	return page{name: name, help: help,
		update: func(v *views, msg tea.Msg) tea.Cmd {
			next, cmd := P(of(v)).Update(msg)
			*of(v) = next
			return cmd
		},
		view:    func(v *views) string { return P(of(v)).View() },
		setSize: func(v *views, w, h int) { P(of(v)).SetSize(w, h) },
		keys:    func(v *views) keyHelp { return P(of(v)) },
	}
}

// withMouse is p, which takes the mouse.
func withMouse(p page) page {
	p.mouse = true
	return p
}

// pages are the views, by their screen.
var pages = [...]page{
	screenObject: withMouse(pageOf("object view", func(v *views) *object.Model { return &v.object },
		func(k KeyMap) key.Binding { return k.Object.Help })),
	screenConflict: pageOf("conflict view", func(v *views) *conflict.Model { return &v.conflict },
		func(k KeyMap) key.Binding { return k.Conflict.Help }),
	screenEditor: editorPage(withMouse(pageOf("in-app editor", func(v *views) *editor.Model { return &v.editor },
		func(k KeyMap) key.Binding { return k.Editor.Help }))),
	screenTimeline: pageOf("timeline", func(v *views) *timeline.Model { return &v.timeline },
		func(k KeyMap) key.Binding { return k.Timeline.Help }),
	screenPreview: pageOf("preview", func(v *views) *preview.Model { return &v.preview },
		func(k KeyMap) key.Binding { return k.Preview.Help }),
	screenBrowser: withMouse(pageOf("browser", func(v *views) *browser.Model { return &v.browser },
		func(k KeyMap) key.Binding { return k.Browser.Help })),
	screenLost: pageOf("lost updates", func(v *views) *conflict.Lost { return &v.lost },
		func(k KeyMap) key.Binding { return k.Lost.Help }),
	screenSet: withMouse(pageOf("set view", func(v *views) *objectset.Model { return &v.setView },
		func(k KeyMap) key.Binding { return k.Set.Help })),
	screenDocs: pageOf("field docs", func(v *views) *fielddoc.Model { return &v.docs },
		func(k KeyMap) key.Binding { return k.Docs.Help }),
	screenSource: pageOf("source diff", func(v *views) *sourcediff.Model { return &v.sourceView },
		func(k KeyMap) key.Binding { return k.Source.Help }),
}

// editorPage is p, the in-app editor's, whose help page scrolls with the
// editor's own keys.
func editorPage(p page) page {
	p.helpPage = func(v *views, k helppage.KeyMap) helppage.KeyMap { return editorHelpPage(v.editor, k) }
	return p
}
