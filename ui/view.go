package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// relayout gives each part of the screen its height.
func (m *App) relayout() {
	m.help.Width = m.width
	m.status.SetSize(m.width, 1)
	h := m.height - lipgloss.Height(m.helpView()) - lipgloss.Height(m.bottomLine())
	m.object.SetSize(m.width, h)
	m.conflict.SetSize(m.width, h)
	m.editor.SetSize(m.width, h)
	m.timeline.SetSize(m.width, h)
	m.preview.SetSize(m.width, h)
}

// question is the pending question's text.
func (m App) question() string {
	switch m.confirm {
	case confirmQuit:
		return m.quitQuestion()
	case confirmDiscard:
		return "discard the draft? (y/n)"
	case confirmRecover:
		return m.recoverQuestion()
	case confirmTimelineTake, confirmGitOps:
		return m.oncallQuestion()
	}
	return ""
}

// bottomLine is the status bar, or the pending question in its place.
func (m App) bottomLine() string {
	if q := m.question(); q != "" {
		return m.styles.Banner.Width(m.width).Render(q)
	}
	return m.status.View()
}

// helpView is the help line, or every key with ?.
func (m App) helpView() string {
	var v string
	switch m.screen {
	case screenConflict:
		v = m.help.View(m.conflict)
	case screenEditor:
		v = m.help.View(m.editor)
	case screenTimeline:
		v = m.help.View(m.timeline)
	case screenPreview:
		v = m.help.View(m.preview)
	default:
		v = m.help.View(m.object)
	}
	if m.help.ShowAll {
		return v + "\n" + m.styles.Muted.Render(ansi.Wrap(escapeLegend(m.styles), m.width, " "))
	}
	// help's own cut lets the last item through when its ellipsis does not fit.
	return ansi.Truncate(v, m.width, "…")
}

// View draws the screen.
func (m App) View() string {
	var body string
	switch m.screen {
	case screenConflict:
		body = m.conflict.View()
	case screenEditor:
		body = m.editor.View()
	case screenTimeline:
		body = m.timeline.View()
	case screenPreview:
		body = m.preview.View()
	default:
		body = m.object.View()
	}
	h := m.height - lipgloss.Height(m.helpView()) - lipgloss.Height(m.bottomLine())
	// Pad or cut the body so that the status bar and help stay at the bottom.
	lines := strings.Split(body, "\n")
	if len(lines) > h {
		lines = lines[:max(0, h)]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n") + "\n" + m.bottomLine() + "\n" + m.helpView()
}
