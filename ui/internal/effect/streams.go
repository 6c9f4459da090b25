package effect

import (
	"encoding/base64"
	"io"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/kube"
)

// The streams the app reads one message at a time: it returns each
// command again after its message, so that no writer ever waits on the UI
// (Program.Send would block while $EDITOR runs).

type (
	// SetWatched is one event of the set's watch, read from Ch.
	SetWatched struct {
		Ch    <-chan kube.SetEvent
		Event kube.SetEvent
	}
	// SetWatchClosed says the set's watch ended.
	SetWatchClosed struct{}
	// RequestsChanged says that the request log kept a row, or changed
	// one, since the pane's opening Gen read it.
	RequestsChanged struct{ Gen int }
	// DemoWrote is one report of the demo writer From.
	DemoWrote struct {
		Write demo.Write
		From  DemoWriter
	}
	// DemoStopped says the demo writer's channel was closed.
	DemoStopped struct{}
)

// DemoWriter is the demo's second writer as the app sees it
// (*demo.Writer): w asks it to write at once, W to play a kubectl edit
// that loses a value saved meanwhile, A to race ten conditional patches
// (kedit set --if), and each write's report comes on Writes, which is
// closed when the writer stops.
type DemoWriter interface {
	WriteNow()
	KubectlEdit()
	Race()
	Writes() <-chan demo.Write
}

// WatchSet reads the next event of the set's watch.
func WatchSet(ch <-chan kube.SetEvent) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return SetWatchClosed{}
		}
		return SetWatched{ch, ev}
	}
}

// WaitRequests waits until the log changes, for the pane's opening gen;
// nil without a log.
func WaitRequests(log *kube.RequestLog, gen int) tea.Cmd {
	if log == nil {
		return nil
	}
	changed := log.Changed()
	return func() tea.Msg {
		<-changed
		return RequestsChanged{Gen: gen}
	}
}

// ReadDemo reads the demo writer's next report.
func ReadDemo(d DemoWriter) tea.Cmd {
	if d == nil {
		return nil
	}
	ch := d.Writes()
	return func() tea.Msg {
		w, ok := <-ch
		if !ok {
			return DemoStopped{}
		}
		return DemoWrote{w, d}
	}
}

// Copy writes text to the terminal's clipboard as an OSC 52 sequence. A
// terminal that does not allow it ignores the sequence, so there is
// nothing to report. The renderer writes to the same terminal from its
// own goroutine; each write of an *os.File is whole.
func Copy(w io.Writer, text string) tea.Cmd {
	seq := OSC52(text)
	return func() tea.Msg {
		_, _ = w.Write(seq)
		return nil
	}
}

// OSC52 is the sequence that sets the clipboard to text.
func OSC52(text string) []byte {
	return []byte("\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a")
}
