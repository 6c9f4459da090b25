// Package pasteinput re-frames the bracketed pastes of a terminal's input
// so that Bubble Tea v1 reads a large paste in linear time.
//
// Bubble Tea v1.3.10 reads its input 256 bytes at a time, and keeps a
// bracketed paste whose end marker has not arrived yet as leftover: every
// read appends to it, copies it, and searches it again for the end marker
// (readAnsiInputs and detectBracketedPaste in its key.go and
// key_sequences.go). A paste of n bytes thus costs n²/256, 2.9 s for a
// mebibyte, before any component sees it. kedit cannot change Bubble Tea,
// so it hands it its terminal through a Reader, which cuts a long paste
// into a stream of small complete pastes (the start marker, at most
// MaxChunk bytes of the paste, the end marker), each of which fits one of
// Bubble Tea's reads and is parsed in one go. The component that takes
// the pastes joins consecutive ones (ui/textedit makes them one undo step).
//
// The Reader keeps the terminal's file descriptor in view: it implements
// cancelreader's File interface (Read, Write, Close, Fd, Name), so Bubble
// Tea still puts the terminal in raw mode and cancels its reads with epoll
// on the real descriptor, as tea.ExecProcess needs to hand the terminal to
// $EDITOR and take it back.
package pasteinput

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// The markers of a bracketed paste (xterm's mode 2004), which Bubble Tea
// turns on.
const (
	startMarker = "\x1b[200~"
	endMarker   = "\x1b[201~"
)

// readSize is Bubble Tea v1's read buffer (the array in readAnsiInputs):
// a chunk and its markers must fit it to be parsed in one go.
const readSize = 256

// MaxChunk is the most paste bytes one re-framed paste carries: what is
// left of Bubble Tea's read of 256 bytes after the two markers.
const MaxChunk = readSize - len(startMarker) - len(endMarker)

// minRead is the smallest buffer Read works with: room for the markers, a
// tail it may hold back (minHeld) and a few runes.
const minRead = 64

// File is a terminal, or any file: what cancelreader and Bubble Tea need of
// an input to cancel its reads and to put it in raw mode. *os.File is one.
type File interface {
	io.ReadWriteCloser
	// Fd returns the file descriptor.
	Fd() uintptr
	// Name returns the file's name.
	Name() string
}

// Reader is a File whose reads re-frame long bracketed pastes into short
// complete ones. Everything outside a paste is passed on as it was read,
// at once: a lone ESC key is never held back. Inside a paste, a read may
// hold back a few bytes (a part of the end marker, of a UTF-8 sequence, or
// the room the end marker takes): more of the same paste is on its way,
// so the descriptor becomes readable again and the next Read passes them
// on. Each Read reads the descriptor once, and no more than fits the
// caller's buffer with the markers it adds, so nothing is ever kept that
// epoll on the descriptor would not announce.
//
// A Reader is used by one reader at a time, as Bubble Tea uses its input.
type Reader struct {
	f File
	// fd is f's descriptor, asked for once: cancelreader asks for it on
	// every read, and os.File.Fd makes a system call each time for a
	// descriptor Go polls (a pipe).
	fd uintptr
	// inPaste: a paste's start marker was read and its end marker not yet.
	inPaste bool
	// held is the start of the paste's bytes not passed on yet.
	held []byte
	// raw is the buffer the descriptor is read into; work holds the held
	// bytes and a read together.
	raw, work [readSize]byte
}

// New returns a Reader of f.
func New(f File) *Reader { return &Reader{f: f, fd: f.Fd()} }

// Wrap returns a Reader of r when r is a File (a terminal, os.Stdin), and
// r itself otherwise: a reader without a descriptor gets no epoll from
// cancelreader, so it cannot be read past what it holds either way.
func Wrap(r io.Reader) io.Reader {
	if f, ok := r.(File); ok {
		return New(f)
	}
	return r
}

// Fd returns the file descriptor of the file read.
func (r *Reader) Fd() uintptr { return r.fd }

// Name returns the name of the file read.
func (r *Reader) Name() string { return r.f.Name() }

// Write writes to the file read.
func (r *Reader) Write(p []byte) (int, error) { return r.f.Write(p) }

// Close closes the file read.
func (r *Reader) Close() error { return r.f.Close() }

// Read reads the file once and returns what it read, with a paste that
// goes on past this read cut off as a complete paste of its own (the bytes
// held back come first in the next). It returns io.ErrShortBuffer for a
// buffer of fewer than 64 bytes. A read that only held bytes back returns
// 0 and no error; Bubble Tea then reads again.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) < minRead {
		return 0, io.ErrShortBuffer
	}
	budget := min(len(p), readSize)
	want := budget
	if r.inPaste {
		// The markers around this read's part of the paste, and the bytes
		// held back from the last one, come on top of what is read.
		want = budget - len(startMarker) - len(endMarker) - len(r.held)
	}
	n, err := r.f.Read(r.raw[:want])
	data := r.raw[:n]
	out := p[:0]
	if r.inPaste && n == 0 && err != nil && len(r.held) > 0 {
		// The input ended inside a paste: what was held is all of it.
		out = frame(out, r.held)
		r.held, r.inPaste = r.held[:0], false
		return len(out), nil
	}
	if r.inPaste {
		// The held bytes may be the start of the end marker: look for it
		// in them and what was read, together.
		content := append(append(r.work[:0], r.held...), data...)
		end := bytes.Index(content, []byte(endMarker))
		if end < 0 {
			// All of it is the paste's: pass on what is certain.
			cut := safeCut(content, len(content))
			out = frame(out, content[:cut])
			r.held = append(r.held[:0], content[cut:]...)
			return len(out), err
		}
		out = frame(out, content[:end])
		r.held, r.inPaste = r.held[:0], false
		data = content[end+len(endMarker):]
	}
	out = r.scan(out, data, budget)
	return len(out), err
}

// scan appends data, read outside a paste, to out: pastes whole in it as
// they are, and the start of one that goes on framed, as much of it as
// fits budget with the end marker added, the rest held for the next read.
func (r *Reader) scan(out, data []byte, budget int) []byte {
	for len(data) > 0 {
		start := bytes.Index(data, []byte(startMarker))
		if start < 0 {
			return append(out, data...)
		}
		out = append(out, data[:start]...)
		content := data[start+len(startMarker):]
		if end := bytes.Index(content, []byte(endMarker)); end >= 0 {
			// A whole paste in this read fits it as it is.
			out = append(out, data[start:start+len(startMarker)+end+len(endMarker)]...)
			data = content[end+len(endMarker):]
			continue
		}
		r.inPaste = true
		room := budget - len(out) - len(startMarker) - len(endMarker)
		cut := safeCut(content, max(room, 0))
		out = frame(out, content[:cut])
		r.held = append(r.held[:0], content[cut:]...)
		return out
	}
	return out
}

// frame appends paste as a complete bracketed paste, or nothing when it is
// empty (an empty paste would end the joining of the pastes around it).
func frame(out, paste []byte) []byte {
	if len(paste) == 0 {
		return out
	}
	out = append(out, startMarker...)
	out = append(out, paste...)
	return append(out, endMarker...)
}

// safeCut returns where to cut content, a paste that goes on, at most at
// limit. Content holds no end marker, but its last bytes may be the start
// of one, or of a rune, whose rest is still to be read: those are held
// back. A cut before them (limit) moves back to the start of a rune it
// would cut in two: Bubble Tea drops the bytes of a rune cut in two.
func safeCut(content []byte, limit int) int {
	end := len(content)
	if k := endPrefix(content); k > 0 {
		end -= k
	} else {
		end = runeStart(content, end)
	}
	if limit >= end {
		return end
	}
	cut := runeStart(content, limit)
	if cut == limit {
		return cut
	}
	// A rune runs across the cut only if it is whole after it.
	if r, w := utf8.DecodeRune(content[cut:]); r == utf8.RuneError || cut+w <= limit {
		return limit
	}
	return cut
}

// endPrefix returns the length of the longest end of content that is the
// start of the end marker.
func endPrefix(content []byte) int {
	for k := min(len(endMarker)-1, len(content)); k > 0; k-- {
		if bytes.HasSuffix(content, []byte(endMarker[:k])) {
			return k
		}
	}
	return 0
}

// runeStart moves cut back to the start of the rune that is incomplete
// before it, if any.
func runeStart(content []byte, cut int) int {
	for back := 1; back <= utf8.UTFMax && back <= cut; back++ {
		b := content[cut-back]
		if b < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(b) {
			if !utf8.FullRune(content[cut-back : cut]) {
				cut -= back
			}
			break
		}
	}
	return cut
}
