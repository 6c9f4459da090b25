package editor

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// The server's own check of what is typed (its dry run, which the app
// sends: kube.Runner.ServerCheck): asked of a text that parses and that
// the schema passes, once typing has paused for ServerQuiet, at most one
// in flight. A text changed while its check was out is asked again once
// the answer is back and the schema has passed it; an answer of a text
// changed since is dropped. Its diagnostics are drawn beside the
// schema's, said as the server's.

// ServerQuiet is how long typing pauses before the server is asked: past
// the schema check's own pause (KeepQuiet), so that a word being typed
// is not sent, and the server gets at most about two requests a second
// from one typist, one at a time.
const ServerQuiet = 600 * time.Millisecond

// ServerCheckMsg asks the app for the server's check of Text, the text at
// Version of Opening, which parses and which the schema passes. The app
// answers with ServerChecked.
type ServerCheckMsg struct {
	Opening, Version uint64
	Text             string
}

// serverDueMsg says that the pause before asking the server may be over.
type serverDueMsg struct{ opening uint64 }

// serverChecks is the editor's side of the server's checks.
type serverChecks struct {
	// on: the app may send them (SetServerChecks): it has a server to
	// ask and the user may update the object.
	on bool
	// inFlight: a ServerCheckMsg was answered with no ServerChecked yet;
	// wanted is a version the schema passed meanwhile, to ask next (0
	// for none).
	inFlight bool
	wanted   uint64
	// ticking: a serverDueMsg is on its way.
	ticking bool
	// asked is the version of the opening askedOf last asked: a text is
	// asked once.
	asked, askedOf uint64
	// found are the server's diagnostics of the text as last answered.
	found []Diagnostic
}

// SetServerChecks turns the server's checks on or off: off when there is
// no server to ask (offline), the user may not update the object (a dry
// run needs it), or the app has none to send. Off draws none of the
// server's diagnostics. Turned on, the text as it is is asked when the
// schema has passed it: the command is its ServerCheckMsg (the app may
// learn that it may ask only after the schema's word on the text).
func (m *Model) SetServerChecks(on bool) tea.Cmd {
	was := m.server.on
	m.server.on = on
	if !on {
		m.server.found, m.server.wanted = nil, 0
		m.drawDiagnostics()
		return nil
	}
	if was {
		return nil
	}
	return m.askServer()
}

// ServerChecking reports whether a ServerCheckMsg awaits its answer.
func (m Model) ServerChecking() bool { return m.server.inFlight }

// askServer asks the server's check of the text as it is, when the
// schema's diagnostics are of it and refuse nothing: once typing has
// paused for ServerQuiet, and one at a time. A text the schema refuses
// drops the server's diagnostics, which were of another text.
func (m *Model) askServer() tea.Cmd {
	v := m.area.Version()
	if !m.server.on || m.schemaVersion != v {
		return nil
	}
	for _, d := range m.schemaFound {
		if !d.Dropped {
			m.server.found, m.server.wanted = nil, 0
			return nil
		}
	}
	if m.server.asked == v && m.server.askedOf == m.opening {
		return nil
	}
	m.server.wanted = v
	if m.server.inFlight {
		return nil // asked again when the answer is back
	}
	if wait := time.Until(m.typedAt.Add(ServerQuiet)); wait > 0 {
		if m.server.ticking {
			return nil
		}
		m.server.ticking = true
		opening := m.opening
		return tea.Tick(wait, func(time.Time) tea.Msg { return serverDueMsg{opening} })
	}
	m.server.inFlight, m.server.wanted = true, 0
	m.server.asked, m.server.askedOf = v, m.opening
	return common.Emit(ServerCheckMsg{Opening: m.opening, Version: v, Text: m.area.Text()})
}

// ServerChecked takes the server's answer to the ServerCheckMsg of
// version of opening: its diagnostics drawn when the text is still that
// version (each said as the server's), dropped otherwise; and the text
// the schema passed meanwhile is asked next.
func (m *Model) ServerChecked(opening, version uint64, ds []Diagnostic) tea.Cmd {
	m.server.inFlight = false
	if opening == m.opening && version == m.area.Version() && m.server.on {
		for i := range ds {
			ds[i].Server = true
		}
		m.server.found = ds
		m.drawDiagnostics()
	}
	if m.server.wanted == 0 || m.server.wanted != m.area.Version() {
		return nil
	}
	return m.askServer()
}
