package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/requests"
	"github.com/kedit/kedit/ui/sourcediff"
	"github.com/kedit/kedit/ui/timeline"
	"github.com/kedit/kedit/ui/tour"
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
	Object   object.KeyMap
	Conflict conflict.KeyMap
	Editor   editor.KeyMap
	Timeline timeline.KeyMap
	Lost     conflict.LostKeyMap
	Preview  preview.KeyMap
	Docs     fielddoc.KeyMap
	Source   sourcediff.KeyMap
	Browser  browser.KeyMap
	Set      objectset.KeyMap
	HelpPage helppage.KeyMap
	Prompt   common.PromptKeyMap
	Requests requests.KeyMap
	// Tour is kedit demo --tour's line (none: its steps move on by the
	// session's state).
	Tour   tour.KeyMap // Screen is what every view answers the same way.
	Screen ScreenKeyMap
}

// ScreenKeyMap is the keys every view answers alike: ctrl+l draws the
// whole screen again, as a shell's does, over whatever wrote on it.
type ScreenKeyMap struct {
	Redraw key.Binding
}

// DefaultKeyMap returns kedit's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Object:   object.DefaultKeyMap(),
		Conflict: conflict.DefaultKeyMap(),
		Editor:   editor.DefaultKeyMap(),
		Timeline: timeline.DefaultKeyMap(),
		Lost:     conflict.DefaultLostKeyMap(),
		Preview:  preview.DefaultKeyMap(),
		Docs:     fielddoc.DefaultKeyMap(),
		Source:   sourcediff.DefaultKeyMap(),
		Browser:  browser.DefaultKeyMap(),
		Set:      objectset.DefaultKeyMap(),
		HelpPage: helppage.DefaultKeyMap(),
		Prompt:   common.DefaultPromptKeyMap(),
		Requests: requests.DefaultKeyMap(),
		Tour:     tour.DefaultKeyMap(),
		Screen:   ScreenKeyMap{Redraw: key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "redraw the screen"))},
	}
}

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
		s := src("request pane", m.requests, k.Requests.Help)
		s.full = append(s.full[:len(s.full):len(s.full)], []key.Binding{k.Screen.Redraw})
		return s
	}
	s := m.viewHelpSource(src)
	// The request pane opens over every view: its key is in each one's
	// help (alt+l in the in-app editor's, where L is typed), as is the
	// redraw every view answers.
	open := k.Requests.Open
	if m.screen == screenEditor {
		open = k.Requests.OpenInEditor
	}
	s.full = append(s.full[:len(s.full):len(s.full)], []key.Binding{open, k.Screen.Redraw})
	if m.cfg.Tour && m.tour.Step() < len(tour.Steps) {
		// kedit demo --tour's skip key, over every view, first: a
		// footer too narrow for every key keeps it.
		s.short = append(m.keys.Tour.ShortHelp(), s.short...)
		s.full = append(s.full, m.keys.Tour.FullHelp()...)
	}
	return s
}

// viewHelpSource returns the active view's own keys, from its page.
func (m App) viewHelpSource(src func(string, keyHelp, key.Binding) helpSource) helpSource {
	p := pages[m.screen]
	s := src(p.name, p.keys(m.views), p.help(m.keys))
	if p.helpPage != nil {
		s.page = p.helpPage(m.views, s.page)
	}
	return s
}

// helpView is the footer: the active view's keys, or, with the help page
// shown, how to scroll and close it.
func (m App) helpView() string {
	if m.help.Shown() {
		return common.FooterLine(m.styles, m.help.ShortHelp(), key.Binding{}, m.frame.width, common.FooterRows(m.frame.height))
	}
	if m.confirm.kind != confirmNone {
		// A question takes every key until it is answered: the footer
		// names its answers, not the view's keys, which wait.
		return common.FooterLine(m.styles, m.prompt.ShortHelp(), key.Binding{}, m.frame.width, common.FooterRows(m.frame.height))
	}
	src := m.helpSource()
	return common.FooterLine(m.styles, src.short, src.help, m.frame.width, common.FooterRows(m.frame.height))
}
