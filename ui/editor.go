package ui

import (
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
)

// editorCommand returns the command that edits path, looked up as kubectl
// does: KUBE_EDITOR, EDITOR, then vi. An editor with arguments
// ("code --wait") runs through the shell, as kubectl runs it.
func editorCommand(path string) *exec.Cmd {
	editor := os.Getenv("KUBE_EDITOR")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	if strings.ContainsAny(editor, " \t") {
		return exec.Command("sh", "-c", editor+` "$1"`, "kedit", path)
	}
	return exec.Command(editor, path)
}

// editCmd writes text to a temporary file only the user can read (os.CreateTemp
// makes it 0600; a draft may hold a Secret's values), runs the editor on it
// through tea.ExecProcess, which hands it the terminal, and reports what the
// file holds afterwards. The file is removed either way.
func editCmd(text string, merged bool) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "kedit-*.yaml")
		if err != nil {
			return editorFinishedMsg{original: text, merged: merged, err: err}
		}
		path := f.Name()
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return editorFinishedMsg{original: text, merged: merged, err: err}
		}
		// ExecProcess's command only returns its message; the program runs
		// the editor once it receives it.
		return tea.ExecProcess(editorCommand(path), func(err error) tea.Msg {
			defer os.Remove(path)
			if err != nil {
				return editorFinishedMsg{original: text, merged: merged, err: err}
			}
			b, err := os.ReadFile(path)
			return editorFinishedMsg{text: string(b), original: text, merged: merged, err: err}
		})()
	}
}

// editorFinished hands what $EDITOR left in the file to the session.
func (m App) editorFinished(msg editorFinishedMsg) (App, tea.Cmd) {
	switch {
	case msg.err != nil:
		m.status.Error("editor: " + errorText(msg.err) + " (the draft is unchanged)")
		return m, nil
	case msg.text == msg.original:
		m.status.Info("no change")
		return m, nil
	case msg.merged:
		return m, m.handle(model.MergedEdited{Text: msg.text})
	}
	cmd := m.handle(model.DraftEdited{Text: msg.text})
	return m, cmd
}
