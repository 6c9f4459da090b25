// Package editfile is kedit's $EDITOR file: written private, on a RAM-backed
// file system where there is one (a Secret's decoded values are in it),
// the editor run on it as kubectl runs one, what it left read back and
// the file removed with its editor's side files; a draft that was refused
// opens with the reasons at its top (the head), taken off again. Only the
// app uses it.
package editfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/libout"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
)

// Command returns the command that edits path, looked up as kubectl
// does: KUBE_EDITOR, EDITOR, then vi. An editor with arguments
// ("code --wait") runs through the shell, as kubectl runs it.
//
// Its input is the terminal itself, os.Stdin. Left unset, tea.ExecProcess
// would give it the program's input, which is kedit's paste filter
// (ui/pasteinput), not a file: os/exec would then copy the filter into a
// pipe, the editor would have no terminal, and the copying would go on
// reading kedit's keys after the editor returned. Its stderr is the
// terminal too.
func Command(path string) *exec.Cmd {
	editor := os.Getenv("KUBE_EDITOR")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	cmd := exec.Command(editor, path)
	if strings.ContainsAny(editor, " \t") {
		cmd = exec.Command("sh", "-c", editor+` "$1"`, "kedit", path)
	}
	cmd.Stdin = os.Stdin
	// The terminal's stderr, not the pipe that catches libraries' output
	// while the app runs (internal/libout).
	cmd.Stderr = libout.Terminal()
	return cmd
}

// Dir returns the private directory for $EDITOR's temporary files,
// on a RAM-backed file system wherever the machine has one, since a
// Secret's decoded values are in these files: $XDG_RUNTIME_DIR/kedit when
// XDG_RUNTIME_DIR is set (a tmpfs under systemd), else kedit-<uid> in
// /dev/shm when that is a tmpfs (Linux without a login session: containers,
// CI, su), else kedit-<uid> in the system's temporary directory. It is
// created with mode 0700 and refused when it is a symlink or another
// user's (fsutil.PrivateDir).
func Dir() (string, error) {
	dir := filepath.Join(os.TempDir(), "kedit-"+strconv.Itoa(os.Getuid()))
	switch rt := os.Getenv("XDG_RUNTIME_DIR"); {
	case rt != "" && filepath.IsAbs(rt):
		dir = filepath.Join(rt, "kedit")
	case fsutil.IsTmpfs(shmDir):
		dir = filepath.Join(shmDir, "kedit-"+strconv.Itoa(os.Getuid()))
	}
	if err := fsutil.PrivateDir(dir); err != nil {
		return "", fmt.Errorf("the directory for $EDITOR's files: %w", err)
	}
	return dir, nil
}

// shmDir is the shared-memory file system Dir falls back to; a
// variable so that tests can point it at a directory that is not one.
var shmDir = "/dev/shm"

// An $EDITOR file is edit-<pid>-<random>.yaml (.json for JSON): the pid of the kedit that
// made it tells a leftover of a killed kedit from a file another kedit
// has open in its editor now.
const prefix = "edit-"

// Write writes text, in format, to a new file in Dir,
// created with O_EXCL and mode 0600, named with the format's extension so
// that the editor highlights it.
func Write(text string, format model.Format) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+"-*"+format.Ext())
	if err != nil {
		return "", err
	}
	path := f.Name()
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}

// fileOf returns the name of the $EDITOR file that name is, or is a
// side file of: the copies an editor keeps beside the file it edits hold
// the same decoded values (vim's swap files .NAME.swp, .swo ..., backups
// NAME~, Emacs's auto-save #NAME# and lock .#NAME).
func fileOf(name string) string {
	switch {
	case strings.HasPrefix(name, ".#"):
		return name[2:]
	case strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#") && len(name) > 1:
		return name[1 : len(name)-1]
	case strings.HasSuffix(name, "~"):
		return strings.TrimSuffix(name, "~")
	case strings.HasPrefix(name, ".") && len(name) > 4 && strings.HasPrefix(filepath.Ext(name), ".sw"):
		return strings.TrimSuffix(name[1:], filepath.Ext(name))
	}
	return name
}

// remove removes path and the side files its editor left beside
// it.
func remove(path string) error {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if fileOf(e.Name()) != base {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// RemoveStale removes the $EDITOR files in Dir, with their
// editors' side files, that no running kedit has open: those of kedits
// that are gone (killed before they could remove theirs), and with self,
// this kedit's own, as it ends.
func RemoveStale(self bool) error {
	dir, err := Dir()
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		rest, ok := strings.CutPrefix(fileOf(e.Name()), prefix)
		num, _, ok2 := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(num)
		// An Emacs lock is a symlink; nothing else but a regular file is one
		// of kedit's.
		if !ok || !ok2 || err != nil || !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			continue // not one of kedit's
		}
		if pid == os.Getpid() && !self || pid != os.Getpid() && fsutil.ProcessAlive(pid) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Head is what goes at the top of an $EDITOR file before the text
// (head.go): the reasons a draft was refused, counted with the schema's
// line and without it, and the kind's schema for a YAML language server.
type Head struct {
	Refused, RefusedAfterSchema []string
	Schema                      func() (*schemacheck.Schema, error)
	// Late, when set, makes Refused and RefusedAfterSchema as the file is
	// written, off the UI's goroutine (a check of the text).
	Late func() (refused, refusedAfterSchema []string)
}

// Result is what $EDITOR left: the text, the text it was opened on
// (Original), whether that was a rebase's merged result, and why there is
// no text.
type Result struct {
	Text, Original string
	Merged         bool
	Err            error
	// HeadLines are the lines of kedit's head the file still had at its
	// top when it came back, taken off Text.
	HeadLines int
}

// Cmd writes text to a file of Dir with head's lines at its top, runs the
// editor on it through tea.ExecProcess, which hands it the terminal, and
// reports what the file holds afterwards, head's lines taken off again, as
// done's message. The file is removed once read back. A YAML file's first
// line names a JSON Schema of the kind, written beside it and removed with
// it; without the schema the file has no such line.
func Cmd(head Head, text string, merged bool, format model.Format, done func(Result) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		if head.Late != nil {
			head.Refused, head.RefusedAfterSchema = head.Late()
		}
		lines, schemaPath := head.lines(format)
		path, err := Write(WithHead(lines, text), format)
		if err != nil {
			if schemaPath != "" {
				os.Remove(schemaPath)
			}
			return done(Result{Original: text, Merged: merged, Err: err})
		}
		// ExecProcess's command only returns its message; the program runs
		// the editor once it receives it.
		return tea.ExecProcess(Command(path), func(err error) tea.Msg {
			if schemaPath != "" {
				os.Remove(schemaPath)
			}
			return done(readBack(path, lines, text, merged, err))
		})()
	}
}

// lines are the head's lines in a file of format, and the schema file
// the first names ("" for none: a JSON file, a schema not read).
func (head Head) lines(format model.Format) ([]string, string) {
	if format == model.FormatYAML && head.Schema != nil {
		if p, err := writeSchemaFile(head.Schema); err == nil {
			return append([]string{schemaLine(p)}, head.RefusedAfterSchema...), p
		}
	}
	return head.Refused, ""
}

// schemaLine is the line that tells a YAML language server (VS Code's,
// Neovim's, Helix's) which JSON Schema the file follows.
func schemaLine(path string) string {
	return "# yaml-language-server: $schema=" + path
}

// writeSchemaFile writes the kind's JSON Schema to a new file of
// EditorDir, named as the $EDITOR files are, so that a kedit killed
// before it could remove it has it removed by the next.
func writeSchemaFile(read func() (*schemacheck.Schema, error)) (string, error) {
	s, err := read()
	if err != nil {
		return "", err
	}
	doc, err := s.JSONSchema()
	if err != nil {
		return "", err
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+"-*.schema.json")
	if err != nil {
		return "", err
	}
	_, err = f.Write(doc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// readBack reads what the editor left in path and removes the file. An
// editor that failed leaves the draft as it was; a terminal that could not
// be taken back afterwards (a hang-up) does not lose what it wrote. The
// file goes with the side files its editor left; head's lines are taken
// off what it holds.
func readBack(path string, head []string, original string, merged bool, runErr error) Result {
	defer remove(path)
	b, err := os.ReadFile(path)
	text := WithoutHead(head, string(b))
	headLines := strings.Count(string(b[:len(b)-len(text)]), "\n")
	b = []byte(text)
	var exit *exec.ExitError
	if runErr != nil && (errors.As(runErr, &exit) || err != nil || string(b) == original) {
		return Result{Original: original, Merged: merged, Err: runErr}
	}
	if err != nil {
		return Result{Original: original, Merged: merged, Err: err}
	}
	return Result{Text: string(b), Original: original, Merged: merged, HeadLines: headLines}
}
