package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testwait"
)

// The end-to-end tests run the real kedit binary in a real terminal: tmux,
// driven with send-keys and read with capture-pane, as a user would. Every
// wait below polls the screen through testwait, the tests' one polling
// loop.

// terminal is one tmux session on a private server, so tests never touch
// the user's own tmux.
type terminal struct {
	t      testing.TB
	socket string
	name   string
	// editor is the KUBE_EDITOR the terminal was started with, if any:
	// editAndWait counts its runs.
	editor string
}

// startTerminal runs argv in a new tmux session of the given size, with
// env added to the environment. Tests start kedit with keditEnv.run,
// which calls it.
func startTerminal(t testing.TB, width, height int, env []string, argv ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed for the end-to-end tests: %v", err)
	}
	term := &terminal{t: t, socket: fmt.Sprintf("kedit-test-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "kedit"}
	for _, v := range env {
		if e, ok := strings.CutPrefix(v, "KUBE_EDITOR="); ok {
			term.editor = e
		}
	}
	// The command runs under env(1) with the test's variables added; the
	// shell stays to print the exit status and keep the pane open for a
	// last capture.
	script := "env " + shellJoin(append(env, argv...)) + "; echo EXIT=$?; sleep 30"
	args := []string{"-L", term.socket, "-f", "/dev/null", "new-session", "-d", "-s", term.name,
		"-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "sh", "-c", script}
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		pids := term.processes()
		_ = exec.Command("tmux", "-L", term.socket, "kill-server").Run()
		// What ran in the pane may take a moment to end (kedit stores its
		// draft on the hang-up): wait, so that it does not write into the
		// test's directories while they are removed.
		testwait.Until(10*time.Second, func() bool {
			for _, pid := range pids {
				if running(pid) {
					return false
				}
			}
			return true
		})
	})
	return term
}

// tmux runs a tmux command on the terminal's server and returns its
// output.
func (term *terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// processes returns the pids of the pane's shell and all it started.
func (term *terminal) processes() []int {
	out, err := exec.Command("tmux", "-L", term.socket, "display", "-p", "-t", term.name, "#{pane_pid}").Output()
	if err != nil {
		return nil
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return nil
	}
	pids := []int{pid}
	for i := 0; i < len(pids); i++ {
		p := strconv.Itoa(pids[i])
		b, _ := os.ReadFile(filepath.Join("/proc", p, "task", p, "children"))
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				pids = append(pids, c)
			}
		}
	}
	return pids
}

// running reports whether pid is a live process (a zombie has ended).
func running(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z'
}

// send types keys, in tmux's send-keys names ("e", "Enter", "C-s", "Escape").
func (term *terminal) send(keys ...string) {
	term.t.Helper()
	term.tmux(append([]string{"send-keys", "-t", term.name}, keys...)...)
}

// typeKeys sends each character of s as a key of its own, as a user
// types (keys sent at once reach kedit as one message).
func (term *terminal) typeKeys(s string) {
	term.t.Helper()
	for _, r := range s {
		term.send("-l", string(r))
	}
}

// sendBytes writes raw bytes to the terminal as if typed (a mouse report,
// which send-keys has no name for).
func (term *terminal) sendBytes(s string) {
	term.t.Helper()
	hex := make([]string, len(s))
	for i := range len(s) {
		hex[i] = fmt.Sprintf("%02x", s[i])
	}
	term.send(append([]string{"-H"}, hex...)...)
}

// paste pastes text into the terminal as a terminal pastes: tmux's
// paste-buffer -p sends it as one bracketed paste (its line breaks as
// "\r", as a terminal sends them).
func (term *terminal) paste(text string) {
	term.t.Helper()
	f := filepath.Join(term.t.TempDir(), "paste")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		term.t.Fatal(err)
	}
	term.tmux("load-buffer", "-b", "kedit", f)
	term.tmux("paste-buffer", "-p", "-d", "-b", "kedit", "-t", term.name)
}

// screen is what the terminal shows now, as text.
func (term *terminal) screen() string {
	term.t.Helper()
	return term.tmux("capture-pane", "-p", "-t", term.name)
}

// display is tmux's format (#{pane_title}, say) for the pane.
func (term *terminal) display(format string) string {
	term.t.Helper()
	return strings.TrimSpace(term.tmux("display", "-p", "-t", term.name, format))
}

// waitUntil polls the screen until ok holds of it, and returns it with
// the time that took; after timeout the test fails, saying it waited for
// what, with the screen as it was.
func (term *terminal) waitUntil(timeout time.Duration, what string, ok func(screen string) bool) (string, time.Duration) {
	term.t.Helper()
	start := time.Now()
	var last string
	if !testwait.Until(timeout, func() bool { last = term.screen(); return ok(last) }) {
		term.t.Fatalf("the screen did not show %s within %s; it shows:\n%s", what, timeout, last)
	}
	return last, time.Since(start)
}

// waitFor waits until the screen shows every one of texts, and returns it.
func (term *terminal) waitFor(timeout time.Duration, texts ...string) string {
	term.t.Helper()
	screen, _ := term.waitUntil(timeout, fmt.Sprintf("%q", texts), func(s string) bool {
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
	return screen
}

// squeeze is s without its spaces and line breaks: text as the screen
// shows it however it wraps, a word cut at the line's end too.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// waitForText is waitFor for text the screen may wrap: spaces and line
// breaks do not count.
func (term *terminal) waitForText(timeout time.Duration, texts ...string) string {
	term.t.Helper()
	screen, _ := term.waitUntil(timeout, fmt.Sprintf("%q (wrapped or not)", texts), func(s string) bool {
		for _, text := range texts {
			if !strings.Contains(squeeze(s), squeeze(text)) {
				return false
			}
		}
		return true
	})
	return screen
}

// waitGone waits until the screen no longer shows text, and returns it.
func (term *terminal) waitGone(timeout time.Duration, text string) string {
	term.t.Helper()
	screen, _ := term.waitUntil(timeout, fmt.Sprintf("%q gone", text), func(s string) bool { return !strings.Contains(s, text) })
	return screen
}

// editorLineRE is the in-app editor's title: the cursor's line of all.
var editorLineRE = regexp.MustCompile(`line (\d+)/(\d+) col (\d+)`)

// waitForLine waits until the editor's title says the cursor is on line
// (0: the last line).
func (term *terminal) waitForLine(line int) {
	term.t.Helper()
	term.waitUntil(screenWait, fmt.Sprintf("the editor's cursor on line %d", line), func(s string) bool {
		m := editorLineRE.FindStringSubmatch(s)
		return m != nil && (line == 0 && m[1] == m[2] || m[1] == fmt.Sprint(line))
	})
}

// stillNot checks that the screen does not show text, for a second: a
// line that went must not come back.
func (term *terminal) stillNot(text string) {
	term.t.Helper()
	var s string
	if testwait.Until(time.Second, func() bool { s = term.screen(); return strings.Contains(s, text) }) {
		term.t.Fatalf("the screen shows %q:\n%s", text, s)
	}
}

// keditPID is the pid of the kedit running in the terminal: the pane's
// shell's first child.
func (term *terminal) keditPID() int {
	term.t.Helper()
	shell := term.display("#{pane_pid}")
	var pid int
	testwait.Eventually(term.t, screenWait, "kedit running in the terminal", func() bool {
		b, _ := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
		if f := strings.Fields(string(b)); len(f) > 0 {
			pid, _ = strconv.Atoi(f[0])
			return true
		}
		return false
	})
	return pid
}

// signal sends sig to the kedit in the terminal.
func (term *terminal) signal(sig string) {
	term.t.Helper()
	if out, err := exec.Command("kill", "-"+sig, strconv.Itoa(term.keditPID())).CombinedOutput(); err != nil {
		term.t.Fatalf("kill -%s: %v %s", sig, err, out)
	}
}

// restored reports whether the terminal is back to its normal screen, with
// no mouse reporting: what kedit must leave behind however it ends.
func (term *terminal) restored() bool {
	term.t.Helper()
	return term.display("#{alternate_on}#{mouse_any_flag}#{mouse_button_flag}") == "000"
}

// shellJoin quotes words for sh.
func shellJoin(words []string) string {
	var b bytes.Buffer
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@") == "" {
			b.WriteString(w) // nothing sh reads otherwise
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

// TestTerminalHarness checks the harness itself on a plain program, so a
// failing end-to-end test points at kedit rather than at tmux.
func TestTerminalHarness(t *testing.T) {
	term := startTerminal(t, 80, 24, []string{"GREETING=hello from tmux"}, "sh", "-c", `printf '%s\n' "$GREETING"; read line; echo "got $line"`)
	term.waitFor(10*time.Second, "hello from tmux")
	term.send("typed", "Enter")
	term.waitFor(10*time.Second, "got typed")
}
