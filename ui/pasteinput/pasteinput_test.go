package pasteinput

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/creack/pty"
	"github.com/muesli/cancelreader"

	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/internal/testwait"
)

// Bubble Tea and cancelreader take the Reader for the file it reads.
var _ cancelreader.File = (*Reader)(nil)

// keyTokens are keys as a terminal sends them, with the name Bubble Tea
// gives each.
var keyTokens = []struct{ bytes, name string }{
	{"a", "a"}, {"Z", "Z"}, {"7", "7"}, {":", ":"}, {"é", "é"}, {"日", "日"},
	{" ", " "}, {"\r", "enter"}, {"\t", "tab"}, {"\x7f", "backspace"}, {"\x13", "ctrl+s"},
	{"\x1b[A", "up"}, {"\x1b[B", "down"}, {"\x1b[1;3C", "alt+right"}, {"\x1b[5~", "pgup"},
	{"\x1b[Z", "shift+tab"}, {"\x1b[<64;10;5M", "mouse: wheel up"}, {"\x1b[<0;3;4M", "mouse: left press"},
}

// pastePieces are what pastes are made of: text, line breaks as terminals
// send them, wide and multi-byte runes, escapes, parts of the markers and
// invalid UTF-8, which Bubble Tea drops.
var pastePieces = []string{
	"key: value", "x", "  - name: a", "~", "\r\n", "\r", "\n", "é", "日本", "😀", "\x1b", "\x1b[A",
	"\x1b[20", "\x1b[201", "\x1b[200~", "\x1b[2J", "\t", "\xff", "\xc3", "\xe6\x97", "\x80",
}

// stream is a terminal's input made of keys and pastes, with what Bubble
// Tea should make of it and where a read may end.
type stream struct {
	data []byte
	want []string
	// atomic[i] is set where a read must not end before byte i: inside a
	// key's sequence and a paste's start marker, which a terminal writes
	// whole and Bubble Tea reads whole only in one read (without the
	// filter too).
	atomic []bool
}

// genStream returns a random stream with up to n tokens; big makes pastes
// of tens of kilobytes.
func genStream(r *rand.Rand, n int, big bool) stream {
	var s stream
	add := func(b string, atomic bool) {
		for i := range len(b) {
			s.atomic = append(s.atomic, atomic && i > 0)
		}
		s.data = append(s.data, b...)
	}
	for range n {
		if r.IntN(3) > 0 {
			k := keyTokens[r.IntN(len(keyTokens))]
			add(k.bytes, true)
			s.want = append(s.want, k.name)
			continue
		}
		var p []byte
		size := r.IntN(600)
		if big && r.IntN(3) == 0 {
			size = r.IntN(40_000)
		}
		for len(p) < size || r.IntN(8) == 0 {
			p = append(p, pastePieces[r.IntN(len(pastePieces))]...)
			if bytes.Contains(p[max(len(p)-16, 0):], []byte(endMarker)) {
				p = p[:len(p)-1]
			}
		}
		add(startMarker, true)
		add(string(p), false)
		add(endMarker, false)
		s.want = append(s.want, "paste:"+bubbleTeaText(p))
	}
	add("\x11", true) // ctrl+q ends the program
	return s
}

// bubbleTeaText is what Bubble Tea makes of a paste's bytes: its runes,
// without the invalid bytes.
func bubbleTeaText(p []byte) string {
	var b strings.Builder
	for len(p) > 0 {
		r, w := utf8.DecodeRune(p)
		if r != utf8.RuneError {
			b.WriteRune(r)
		}
		p = p[w:]
	}
	return b.String()
}

// chunkedFile is a terminal whose reads return a random number of the
// bytes there are, never more than asked for, and never ending inside an
// atomic sequence.
type chunkedFile struct {
	s   stream
	pos int
	r   *rand.Rand
}

func (f *chunkedFile) Read(p []byte) (int, error) {
	if f.pos == len(f.s.data) {
		return 0, io.EOF
	}
	n := min(1+f.r.IntN(len(p)), len(f.s.data)-f.pos)
	if f.r.IntN(4) == 0 {
		n = min(len(p), len(f.s.data)-f.pos)
	}
	for f.pos+n < len(f.s.data) && f.s.atomic[f.pos+n] && n > 0 {
		n--
	}
	if n == 0 {
		// A key longer than the read: the whole key, which fits any
		// buffer the filter reads with.
		n = 1
		for f.pos+n < len(f.s.data) && f.s.atomic[f.pos+n] {
			n++
		}
		if n > len(p) {
			panic("a key longer than the read")
		}
	}
	copy(p, f.s.data[f.pos:f.pos+n])
	f.pos += n
	return n, nil
}

func (f *chunkedFile) Write(p []byte) (int, error) { return len(p), nil }
func (f *chunkedFile) Close() error                { return nil }
func (f *chunkedFile) Fd() uintptr                 { return ^uintptr(0) }
func (f *chunkedFile) Name() string                { return "chunked" }

// readOnly hides the File's descriptor from Bubble Tea, which would put it
// in raw mode and poll it: the chunked file has none.
type readOnly struct{ io.Reader }

// recorder is a program that records what Bubble Tea makes of its input,
// until ctrl+q.
type recorder struct {
	got []string
	// pasted counts the runes of pastes, for the benchmark.
	pasted int
}

func (m *recorder) Init() tea.Cmd { return nil }

func (m *recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case msg.Type == tea.KeyCtrlQ:
			return m, tea.Quit
		case msg.Paste:
			m.pasted += len(msg.Runes)
			m.got = append(m.got, "paste:"+string(msg.Runes))
		case msg.Type == tea.KeyRunes && !msg.Alt:
			// Runes typed together come in one message; one a rune is
			// what was typed.
			for _, r := range msg.Runes {
				m.got = append(m.got, string(r))
			}
		default:
			m.got = append(m.got, msg.String())
		}
	case tea.MouseMsg:
		m.got = append(m.got, "mouse: "+msg.String())
	}
	return m, nil
}

func (m *recorder) View() string { return "" }

// joinPastes joins pastes that follow one another: the filter cuts one
// into several, and the editor joins them again. Empty pastes are left
// out.
func joinPastes(tokens []string) []string {
	var out []string
	for _, t := range tokens {
		if t == "paste:" {
			// An empty paste carries nothing to keep; the filter drops
			// one whose markers come in two reads (frame).
			continue
		}
		if n := len(out); n > 0 && strings.HasPrefix(t, "paste:") && strings.HasPrefix(out[n-1], "paste:") {
			out[n-1] += strings.TrimPrefix(t, "paste:")
			continue
		}
		out = append(out, t)
	}
	return out
}

// run runs a program reading in and returns what it recorded.
func run(t testing.TB, in io.Reader) *recorder {
	t.Helper()
	m := &recorder{}
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		p.Kill()
		t.Fatalf("the program did not end; it got %d messages", len(m.got))
	}
	return m
}

// TestBubbleTeaReadsTheSame is the filter's property: whatever the stream
// of keys and pastes, and however the terminal's reads cut it, Bubble Tea
// reading through the filter gets the same keys and, joined, the same
// paste text as the stream holds, and each message of a paste fits one of
// Bubble Tea's reads.
func TestBubbleTeaReadsTheSame(t *testing.T) {
	seed := testseed.Seed(t)
	r := rand.New(rand.NewPCG(seed, 9))
	for i := range 150 {
		s := genStream(r, 1+r.IntN(30), i%10 == 0)
		f := &chunkedFile{s: s, r: r}
		m := run(t, readOnly{New(f)})
		got, want := joinPastes(m.got), joinPastes(s.want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("case %d (seed %d): Bubble Tea read\n%q\nwant\n%q\nfrom the stream %q", i, seed, got, want, s.data)
		}
	}
}

// TestReadsAreFramed checks the filter's output itself: every paste it
// starts it ends in the same read, within Bubble Tea's 256 bytes; bytes
// outside pastes are passed on as they were; and what a read holds back
// is a few bytes.
func TestReadsAreFramed(t *testing.T) {
	r := rand.New(rand.NewPCG(testseed.Fixed(t, 1), 2))
	for range 200 {
		s := genStream(r, 1+r.IntN(30), r.IntN(5) == 0)
		f := &chunkedFile{s: s, r: r}
		pr := New(f)
		var all []byte
		for {
			buf := make([]byte, minRead+r.IntN(400))
			n, err := pr.Read(buf)
			out := buf[:n]
			if n > readSize {
				t.Fatalf("a read of %d bytes, more than Bubble Tea's %d", n, readSize)
			}
			if len(pr.held) > 12 {
				t.Fatalf("%d bytes held back", len(pr.held))
			}
			if i := bytes.LastIndex(out, []byte(startMarker)); i >= 0 && !bytes.Contains(out[i:], []byte(endMarker)) {
				t.Fatalf("a read ends inside a paste it started: %q", out)
			}
			all = append(all, out...)
			if err == io.EOF {
				break
			}
		}
		// The filter's cuts are an end marker and a start marker in the
		// middle of a paste: taken out of both, the bytes are the same.
		strip := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(endMarker+startMarker), nil) }
		if !bytes.Equal(strip(all), strip(s.data)) {
			a, b := strip(all), strip(s.data)
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			t.Fatalf("the bytes changed at %d:\n%q\nwant\n%q", i, a[max(i-60, 0):min(i+60, len(a))], b[max(i-60, 0):min(i+60, len(b))])
		}
	}
}

// TestNothingHeldOutsideAPaste: a lone ESC, or the first bytes of what
// may be a start marker, reach the caller in the read that read them.
func TestNothingHeldOutsideAPaste(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	in := New(pr)
	buf := make([]byte, 256)
	for _, b := range []string{"\x1b", "\x1b[", "\x1b[20", "x\x1b[200", "é"[:1]} {
		if _, err := pw.WriteString(b); err != nil {
			t.Fatal(err)
		}
		n, err := in.Read(buf)
		if err != nil || string(buf[:n]) != b {
			t.Fatalf("read %q, %v: want %q at once", buf[:n], err, b)
		}
	}
	// Inside a paste, the start of what may be the end marker waits for
	// the rest; the paste's bytes before it come at once, as a paste.
	pw.WriteString("\x1b[200~abc\x1b[20")
	n, _ := in.Read(buf)
	if got := string(buf[:n]); got != "\x1b[200~abc\x1b[201~" {
		t.Fatalf("read %q", got)
	}
	// It was the end marker: the paste has ended, and z is a key.
	pw.WriteString("1~z")
	n, _ = in.Read(buf)
	if got := string(buf[:n]); got != "z" {
		t.Fatalf("read %q, want z", got)
	}
}

// TestEndOfInputInsideAPaste: when the input ends inside a paste, what was
// held back is passed on.
func TestEndOfInputInsideAPaste(t *testing.T) {
	in := New(&chunkedFile{s: stream{data: []byte("\x1b[200~abc\x1b[2"), atomic: make([]bool, 14)}, r: rand.New(rand.NewPCG(testseed.Fixed(t, 1), 1))})
	var all []byte
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		all = append(all, buf[:n]...)
		if err != nil {
			break
		}
	}
	if got := bubbleTeaText(bytes.ReplaceAll(bytes.ReplaceAll(all, []byte(startMarker), nil), []byte(endMarker), nil)); got != "abc\x1b[2" {
		t.Fatalf("got %q", all)
	}
}

// TestWrap: a file is wrapped, any other reader is not.
func TestWrap(t *testing.T) {
	if _, ok := Wrap(os.Stdin).(*Reader); !ok {
		t.Error("os.Stdin is not wrapped")
	}
	if _, ok := Wrap(strings.NewReader("")).(*Reader); ok {
		t.Error("a strings.Reader is wrapped")
	}
}

// TestTerminalHandedToAProgramAndBack runs Bubble Tea on a pseudo-terminal
// through the filter, as kedit runs it: the terminal is put in raw mode
// (the filter gives its descriptor), tea.ExecProcess hands it to a program
// that reads a line from it (cancelreader stops reading through epoll on
// that descriptor, so nothing is read away from the program), and after
// the program returns a long paste and a key reach the app whole.
func TestTerminalHandedToAProgramAndBack(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	// The terminal echoes in cooked mode: drain it, as a terminal shows it.
	go io.Copy(io.Discard, master)

	dir := t.TempDir()
	out, ready := filepath.Join(dir, "out"), filepath.Join(dir, "ready")
	child := exec.Command("sh", "-c", `test -t 0 || { echo "stdin is not a terminal" > "$1"; exit 1; }; touch "$2"; read line; printf %s "$line" > "$1"`, "sh", out, ready)
	// As kedit's editorCommand does: the terminal itself, not the filter,
	// which os/exec would copy into a pipe.
	child.Stdin, child.Stdout, child.Stderr = tty, io.Discard, io.Discard

	m := &execApp{child: child, got: make(chan string, 100)}
	p := tea.NewProgram(m, tea.WithInput(New(tty)), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	wait := func(want string) {
		t.Helper()
		select {
		case got := <-m.got:
			if got != want {
				t.Fatalf("the app got %.80q, want %.80q", got, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("the app did not get %.80q", want)
		}
	}
	master.WriteString("a")
	wait("a")
	master.WriteString("x") // x runs the child
	if !testwait.Until(20*time.Second, func() bool {
		if b, _ := os.ReadFile(out); len(b) > 0 {
			t.Fatalf("the child did not start reading: %s", b)
		}
		_, err := os.Stat(ready)
		return err == nil
	}) {
		t.Fatal("the child did not start reading")
	}
	master.WriteString("hello\r")
	wait("child: <nil>")
	if b, _ := os.ReadFile(out); string(b) != "hello" {
		t.Fatalf("the child read %q, want hello", b)
	}
	paste := strings.Repeat("0123456789abcdé\n", 4000)
	master.WriteString(startMarker + paste + endMarker + "z")
	wait("paste:" + paste)
	wait("z")
	p.Quit()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// execApp runs its child on x, joins the pastes it gets, and reports each
// key, paste and the child's end on got.
type execApp struct {
	child  *exec.Cmd
	got    chan string
	pasted strings.Builder
}

type childDoneMsg struct{ err error }

func (m *execApp) Init() tea.Cmd { return nil }

func (m *execApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case childDoneMsg:
		m.got <- fmt.Sprintf("child: %v", msg.err)
	case tea.KeyMsg:
		if msg.Paste {
			m.pasted.WriteString(string(msg.Runes))
			return m, nil
		}
		if m.pasted.Len() > 0 {
			m.got <- "paste:" + m.pasted.String()
			m.pasted.Reset()
		}
		if msg.String() == "x" {
			return m, tea.ExecProcess(m.child, func(err error) tea.Msg { return childDoneMsg{err} })
		}
		m.got <- msg.String()
	}
	return m, nil
}

func (m *execApp) View() string { return "" }

// BenchmarkProgramPaste1MiB times a bracketed paste of a mebibyte from the
// terminal (a pipe) to the app's Update, through tea.NewProgram, with the
// filter and without it (Bubble Tea reading the pipe itself).
func BenchmarkProgramPaste1MiB(b *testing.B) {
	line := "    key000123: \"value 123 of the config\" # comment\n"
	paste := strings.Repeat(line, (1<<20)/len(line))
	for _, bc := range []struct {
		name string
		wrap func(*os.File) io.Reader
	}{
		{"filter", func(f *os.File) io.Reader { return New(f) }},
		{"bubbletea", func(f *os.File) io.Reader { return f }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				pr, pw, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				var wg sync.WaitGroup
				wg.Go(func() {
					pw.WriteString(startMarker + paste + endMarker + "\x11")
				})
				m := run(b, bc.wrap(pr))
				wg.Wait()
				pr.Close()
				pw.Close()
				if m.pasted != utf8.RuneCountInString(paste) {
					b.Fatalf("%d runes pasted, want %d", m.pasted, utf8.RuneCountInString(paste))
				}
			}
			b.ReportMetric(float64(len(paste)), "paste-bytes")
		})
	}
}
