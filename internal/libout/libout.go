// Package libout holds what libraries write to the process's stderr and
// to the standard logger while the terminal belongs to the UI: the
// kustomize API's warnings ("# Warning: 'commonLabels' is deprecated",
// "well-defined vars that were never replaced"), and whatever else a
// library prints, which would otherwise land on the screen over the UI
// and stay there until it is drawn again. The UI shows what it caught
// where it belongs (the source diff shows its build's warnings).
package libout

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"
)

// keep is how many lines a capture keeps: the latest.
const keep = 500

// Capture is the output caught since Start, a line each.
type Capture struct {
	mu     sync.Mutex
	cond   *sync.Cond
	lines  []string
	n      int // lines caught in all, the kept ones the last
	syncs  map[string]bool
	next   int
	closed bool // the pipe is read to its end: nothing more comes
}

var (
	mu      sync.Mutex
	running *Capture
	// terminal is os.Stderr as it was before the capture: the terminal.
	terminal *os.File
)

// Terminal is the process's stderr before any capture, for a program
// kedit runs on the terminal ($EDITOR), whose messages are for the user.
func Terminal() *os.File {
	mu.Lock()
	defer mu.Unlock()
	if terminal != nil {
		return terminal
	}
	return os.Stderr
}

// syncLine begins the lines Sync writes, which are not output.
const syncLine = "\x00libout-sync "

// Start catches what is written to os.Stderr, and with logToo to the
// standard logger, until stop is called, which puts them back. (With
// --debug the standard logger writes kedit's own log to its file, and
// stays so.) Writes to file descriptor 2 that go around os.Stderr (the
// runtime's own, a crash's) still reach the terminal.
func Start(logToo bool) (c *Capture, stop func()) {
	c = newCapture()
	r, w, err := os.Pipe()
	if err != nil {
		return c, func() {}
	}
	oldErr, oldLog := os.Stderr, log.Writer()
	os.Stderr = w
	if logToo {
		log.SetOutput(w)
	}
	mu.Lock()
	running, terminal = c, oldErr
	mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.add(sc.Text())
		}
		c.mu.Lock()
		c.closed = true
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	return c, func() {
		mu.Lock()
		if running == c {
			running, terminal = nil, nil
		}
		mu.Unlock()
		os.Stderr = oldErr
		if logToo {
			log.SetOutput(oldLog)
		}
		_ = w.Close()
		<-done
		_ = r.Close()
	}
}

func newCapture() *Capture {
	c := &Capture{syncs: map[string]bool{}}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *Capture) add(l string) {
	l = strings.TrimRight(l, "\r")
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.cond.Broadcast()
	if strings.HasPrefix(l, syncLine) {
		c.syncs[l] = true
		return
	}
	c.n++
	c.lines = append(c.lines, l)
	if len(c.lines) > keep {
		c.lines = c.lines[len(c.lines)-keep:]
	}
}

// Mark is where the output stands now, for Since.
func (c *Capture) Mark() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Since returns the lines caught after mark (those still kept), once
// what was written before the call is caught.
func (c *Capture) Since(mark int) []string {
	if c == nil {
		return nil
	}
	c.sync()
	c.mu.Lock()
	defer c.mu.Unlock()
	first := c.n - len(c.lines) // the number of the first kept line
	from := max(mark-first, 0)
	if from >= len(c.lines) {
		return nil
	}
	return append([]string(nil), c.lines[from:]...)
}

// sync waits until what was written to the pipe before it is read: a
// line of its own, read after every line written before it.
func (c *Capture) sync() {
	if Running() != c {
		return // stopped: os.Stderr is the terminal's again
	}
	c.mu.Lock()
	c.next++
	line := fmt.Sprintf("%s%d", syncLine, c.next)
	c.mu.Unlock()
	if _, err := io.WriteString(os.Stderr, line+"\n"); err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for !c.syncs[line] && !c.closed {
		c.cond.Wait()
	}
	delete(c.syncs, line)
}

// Running is the capture under way, or nil: the UI reads its commands'
// share of it.
func Running() *Capture {
	mu.Lock()
	defer mu.Unlock()
	return running
}
