package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The end-to-end tests run the real kedit binary in a real terminal: tmux,
// driven with send-keys and read with capture-pane, as a user would.

var (
	keditBinOnce sync.Once
	keditBin     string
	keditBinErr  error
)

// keditBinary builds kedit, the module's root, once per test binary.
func keditBinary(t testing.TB) string {
	t.Helper()
	keditBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kedit-e2e-bin")
		if err != nil {
			keditBinErr = err
			return
		}
		keditBin = filepath.Join(dir, "kedit")
		// The module's root, the main package, from e2e/.
		cmd := exec.Command("go", "build", "-o", keditBin, ".")
		cmd.Dir = ".."
		out, err := cmd.CombinedOutput()
		if err != nil {
			keditBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if keditBinErr != nil {
		t.Fatal(keditBinErr)
	}
	return keditBin
}

// terminal is one tmux session on a private server, so tests never touch
// the user's own tmux.
type terminal struct {
	t      *testing.T
	socket string
	name   string
}

// startTerminal runs argv in a new tmux session of the given size, with
// env added to the environment.
func startTerminal(t *testing.T, width, height int, env []string, argv ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed for the end-to-end tests: %v", err)
	}
	term := &terminal{t: t, socket: fmt.Sprintf("kedit-test-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "kedit"}
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
		deadline := time.Now().Add(10 * time.Second)
		for _, pid := range pids {
			for running(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
		}
	})
	return term
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
	args := append([]string{"-L", term.socket, "send-keys", "-t", term.name}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		term.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

// screen is what the terminal shows now, as text.
func (term *terminal) screen() string {
	term.t.Helper()
	out, err := exec.Command("tmux", "-L", term.socket, "capture-pane", "-p", "-t", term.name).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return string(out)
}

// waitFor waits until the screen shows every one of texts, and returns it.
func (term *terminal) waitFor(timeout time.Duration, texts ...string) string {
	term.t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		last = term.screen()
		all := true
		for _, s := range texts {
			if !strings.Contains(last, s) {
				all = false
				break
			}
		}
		if all {
			return last
		}
		time.Sleep(100 * time.Millisecond)
	}
	term.t.Fatalf("the screen did not show %q within %s; it shows:\n%s", texts, timeout, last)
	return ""
}

// shellJoin quotes words for sh.
func shellJoin(words []string) string {
	var b bytes.Buffer
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
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
