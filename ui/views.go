package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/internal/say"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/requests"
	"github.com/kedit/kedit/ui/sourcediff"
	"github.com/kedit/kedit/ui/timeline"
	"github.com/kedit/kedit/ui/tour"
)

// views are the app's views, one of each. Each is a component after
// charmbracelet/bubbles (doc.go): the app hands it messages, it answers
// with what it asks of the app. The object's views are made afresh for
// each object shown (renew); the browser, the set view, the help page and
// the prompt live as long as the app.
type views struct {
	object   object.Model
	conflict conflict.Model
	editor   editor.Model
	timeline timeline.Model
	// lost is a LOST row's lost updates, from the timeline.
	lost    conflict.Lost
	preview preview.Model
	// docs are a field's docs from the schema.
	docs fielddoc.Model
	// sourceView is the draft written to the object's source, before
	// the files are.
	sourceView sourcediff.Model
	browser    browser.Model
	// setView lists the set kedit was started on, if any.
	setView objectset.Model
	// help is the help page (? or f1), when it shows; prompt the
	// question on the bottom line.
	help   helppage.Model
	prompt common.Prompt
	// requests is the request pane, over the active view while
	// requestsOpen (requestpane.go); requestsGen counts its openings.
	requests     requests.Model
	requestsOpen bool
	requestsGen  int
	// tour is kedit demo --tour's line over every view (requestpane.go),
	// drawn while the Config asks for it.
	tour tour.Model
	// tourRaces counts the demo's races answered, for the tour's last
	// step.
	tourRaces int
}

func newViews(keys KeyMap, styles *common.Styles) *views {
	v := &views{browser: browser.New(keys.Browser, styles), setView: objectset.New(keys.Set, styles),
		help: helppage.New(keys.HelpPage, styles), prompt: common.NewPrompt(keys.Prompt, styles),
		requests: requests.New(keys.Requests, styles), tour: tour.New(keys.Tour, styles)}
	v.renew(keys, styles, false)
	return v
}

// renew makes the object's views afresh; backToList says whether esc goes
// from the object view back to a list.
func (v *views) renew(keys KeyMap, styles *common.Styles, backToList bool) {
	v.object, v.conflict, v.editor = object.New(keys.Object, styles), conflict.New(keys.Conflict, styles), editor.New(keys.Editor, styles)
	v.timeline, v.preview = timeline.New(keys.Timeline, styles), preview.New(keys.Preview, styles)
	v.lost = conflict.NewLost(keys.Lost, styles)
	v.docs = fielddoc.New(keys.Docs, styles)
	v.sourceView = sourcediff.New(keys.Source, styles)
	v.object.SetBackToList(backToList)
}

// refresh copies the session into the object's views.
func (v *views) refresh(sess *model.Session) {
	v.object.SetContent(objectContent(sess))
	v.conflict.SetContent(conflictContent(sess))
	v.timeline.SetContent(timelineContent(sess, v.timeline.Path()))
	v.preview.SetContent(previewContent(sess))
}

// objectContent is what the object view draws of sess.
func objectContent(sess *model.Session) object.Content {
	live, deleted := sess.Live()
	change, changed := sess.ServerChange()
	c := object.Content{Ref: sess.Ref(), TextForm: common.TextFormOf(sess), Live: live, Deleted: deleted,
		Base: sess.Base(), Draft: sess.Draft(), Change: change, Changed: changed, Rebasing: sess.Rebase() != nil,
		Fights: sess.Fights()}
	if f := sess.Failure(); f != nil {
		c.Causes, c.CanUpdate = f.Causes, f.Kind == model.ErrorApplyCannotRemove
	}
	return c
}

// update hands msg to the view of screen s.
func (v *views) update(s screen, msg tea.Msg) tea.Cmd { return pages[s].update(v, msg) }

// setSize gives every view the body's size: each of the table's, and the
// help page and the request pane, which show over any of them.
func (v *views) setSize(width, height int) {
	for _, p := range pages {
		p.setSize(v, width, height)
	}
	v.help.SetSize(width, height)
	v.requests.SetSize(width, height)
}

// timelineContent is what the timeline draws of sess, with the value of
// path, the field it follows (none: the zero Path), in each version.
func timelineContent(sess *model.Session, path history.Path) timeline.Content {
	ref := sess.Ref()
	c := timeline.Content{Object: escape.Safe(ref.Kind) + "/" + escape.Safe(ref.Name), Secret: ref.IsSecret(),
		Format: sess.Format(), Live: sess.Timeline(), Dropped: sess.TimelineDropped()}
	if !path.IsZero() {
		c.PathValues = map[int]history.PathValue{}
		sess.EachTimelineObject(func(e model.Entry, obj map[string]any) {
			v := history.PathValue{State: history.PathDeleted}
			if !e.Deleted {
				v = path.ValueIn(obj, ref.IsSecret())
			}
			c.PathValues[e.ID] = v
		})
	}
	return c
}

// conflictContent is what the conflict view draws of sess's rebase: each
// conflict with its resolution and the field manager behind theirs (the
// owner of an apply's field, else the writer since base).
func conflictContent(sess *model.Session) conflict.Content {
	c := conflict.Content{Secret: sess.Ref().IsSecret(), Format: sess.Format(), Open: sess.OpenConflicts()}
	r := sess.Rebase()
	if r == nil {
		return c
	}
	c.Rebasing, c.Waiting, c.Ownership = true, sess.State() == model.StateWaitingTheirs, r.Ownership
	c.BaseRV, c.TheirsRV, c.CreatedAgain = r.Base.GetResourceVersion(), r.Theirs.ResourceVersion, r.CreatedAgain
	resolutions := sess.Resolutions()
	for i, d := range sess.Conflicts() {
		k := conflict.Conflict{Conflict: d, Manager: d.Owner}
		if k.Manager == "" && r.Theirs.Object != nil {
			k.Manager = model.WriterSince(r.Base, r.Theirs.Object, []model.FieldChange{{Path: d.Path.String()}}).Manager
		}
		if i < len(resolutions) {
			k.Resolution = resolutions[i].Choice
		}
		c.Conflicts = append(c.Conflicts, k)
	}
	if r.Merge != nil {
		c.Merged = r.Merge.Changes
	}
	return c
}

// previewContent is what the preview draws of sess: the dry run's answer
// once it came, with the words for why the server would refuse the save.
func previewContent(sess *model.Session) preview.Content {
	c := preview.Content{Secret: sess.Ref().IsSecret(), TextForm: common.TextFormOf(sess), BaseRV: sess.Base().ResourceVersion}
	p, ok := sess.Preview()
	if !ok {
		return c
	}
	c.Answered, c.Answer, c.Draft = true, p, sess.Draft()
	if p.Err != nil {
		c.Refusal = say.Refusal(model.KindOf(p.Err), p.Err)
	}
	return c
}

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

// The page stack, as k9s's: a view opened over another (the timeline and
// the preview over the object view, a LOST row's lost updates over the
// timeline, the field docs over blame or the in-app editor) is pushed, and
// closing it pops back to the one under it; going to a screen of its own
// (the object view, the conflict view, the in-app editor, the browser, the
// set) starts the stack again.

// goTo shows s, and nothing under it.
func (m *App) goTo(s screen) { m.screen, m.under = s, m.under[:0] }

// push shows s over the screen shown.
func (m *App) push(s screen) {
	m.under = append(m.under[:len(m.under):len(m.under)], m.screen)
	m.screen = s
}

// pop closes the screen shown, back to the one under it; the object view
// when there is none.
func (m *App) pop() {
	if n := len(m.under); n > 0 {
		m.screen, m.under = m.under[n-1], m.under[:n-1]
		return
	}
	m.screen = screenObject
}

// looking reports whether the screen shown only looks at the object (the
// timeline, its lost updates, the preview, the source diff), over the
// object view: a new version or a save's outcome leaves it open, where a
// conflict takes over.
func (m App) looking() bool {
	switch m.screen {
	case screenTimeline, screenLost, screenPreview, screenSource:
		return true
	}
	return false
}

// editorPage is p, the in-app editor's, whose help page scrolls with the
// editor's own keys.
func editorPage(p page) page {
	p.helpPage = func(v *views, k helppage.KeyMap) helppage.KeyMap { return editorHelpPage(v.editor, k) }
	return p
}
