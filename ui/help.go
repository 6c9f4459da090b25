package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/tour"
)

// helpSource is what the footer and the help page show of the active
// view: its name, its bindings for the footer and in groups, its help key,
// and the help page's keys over it.
type helpSource struct {
	name  string
	short []key.Binding
	full  [][]key.Binding
	help  key.Binding
	page  helppage.KeyMap
}

// keyHelp is a view's keys for the footer and the help page.
type keyHelp interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// helpSource returns the active view's keys.
func (m App) helpSource() helpSource {
	src := func(name string, v keyHelp, help key.Binding) helpSource {
		page := m.keys.HelpPage
		page.Close = help
		return helpSource{name: name, short: v.ShortHelp(), full: v.FullHelp(), help: help, page: page}
	}
	k := m.keys
	if m.requestsOpen {
		return src("request pane", m.requests, k.Requests.Help)
	}
	s := m.viewHelpSource(src)
	// The request pane opens over every view: its key is in each one's
	// help (alt+l in the in-app editor's, where L is typed).
	open := k.Requests.Open
	if m.screen == screenEditor {
		open = k.Requests.OpenInEditor
	}
	s.full = append(s.full[:len(s.full):len(s.full)], []key.Binding{open})
	if m.cfg.Tour && m.tour.Step() < len(tour.Steps) {
		// kedit demo --tour's skip key, over every view, first: a
		// footer too narrow for every key keeps it.
		s.short = append(m.keys.Tour.ShortHelp(), s.short...)
		s.full = append(s.full, m.keys.Tour.FullHelp()...)
	}
	return s
}

// viewHelpSource returns the active view's own keys.
func (m App) viewHelpSource(src func(string, keyHelp, key.Binding) helpSource) helpSource {
	k := m.keys
	switch m.screen {
	case screenConflict:
		return src("conflict view", m.conflict, k.Conflict.Help)
	case screenEditor:
		s := src("in-app editor", m.editor, k.Editor.Help)
		s.page = editorHelpPage(m.editor, s.page)
		return s
	case screenTimeline:
		return src("timeline", m.timeline, k.Timeline.Help)
	case screenLost:
		return src("lost updates", m.lost, k.Lost.Help)
	case screenPreview:
		return src("preview", m.preview, k.Preview.Help)
	case screenDocs:
		return src("field docs", m.docs, k.Docs.Help)
	case screenSource:
		return src("source diff", m.sourceView, k.Source.Help)
	case screenBrowser:
		return src("browser", m.browser, k.Browser.Help)
	case screenSet:
		return src("set view", m.setView, k.Set.Help)
	}
	return src("object view", m.object, k.Object.Help)
}

// helpView is the footer: the active view's keys, or, with the help page
// shown, how to scroll and close it.
func (m App) helpView() string {
	if m.help.Shown() {
		return common.FooterLine(m.styles, m.help.ShortHelp(), key.Binding{}, m.frame.width, common.FooterRows(m.frame.height))
	}
	src := m.helpSource()
	return common.FooterLine(m.styles, src.short, src.help, m.frame.width, common.FooterRows(m.frame.height))
}
