package auditlog

import (
	"bytes"
	"errors"
	"io"
)

// chunkSize is how much of a log is read at a time.
const chunkSize = 4 << 20

// maxLine bounds one line of a log; the API server truncates nothing by
// default, and a line holding two copies of a large object is a few MiB.
const maxLine = 256 << 20

// scanner finds the lines of a log that may be about the object, without
// decoding any JSON: a line that names the object (every request on it
// does), or one that names its resource with a list or watch verb (a read
// of its collection). Everything else is skipped at the speed of a
// substring search.
type scanner struct {
	name      []byte
	resources [][]byte
	buf       []byte
	// line is the number of the first line in buf.
	line int64
}

func newScanner(m Match) *scanner {
	s := &scanner{name: []byte(m.Name), buf: make([]byte, 0, chunkSize)}
	for _, r := range m.Resources {
		s.resources = append(s.resources, []byte(r))
	}
	return s
}

// listWatch are the marks of a list or watch verb: `"verb":"list"`, GKE's
// methodName `....list"`, and both inside a JSON string (`list\"`).
var listWatch = [][]byte{[]byte(`list"`), []byte(`watch"`), []byte(`list\"`), []byte(`watch\"`)}

// scan reads r and calls fn with each candidate line (without its
// newline) and its number. A line fn keeps must be copied.
func (s *scanner) scan(r io.Reader, fn func(line []byte, n int64) error) error {
	s.buf, s.line = s.buf[:0], 1
	eof := false
	for !eof {
		if len(s.buf) == cap(s.buf) {
			if cap(s.buf) >= maxLine {
				return errors.New("a line longer than 256 MiB")
			}
			nb := make([]byte, len(s.buf), 2*cap(s.buf))
			copy(nb, s.buf)
			s.buf = nb
		}
		n, err := io.ReadFull(r, s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			eof = true
		case err != nil:
			return err
		}
		end := len(s.buf)
		if !eof {
			end = bytes.LastIndexByte(s.buf, '\n') + 1
			if end == 0 {
				continue // one line fills the buffer: grow it
			}
		}
		if err := s.lines(s.buf[:end], fn); err != nil {
			return err
		}
		s.line += int64(bytes.Count(s.buf[:end], []byte{'\n'}))
		rest := copy(s.buf, s.buf[end:])
		s.buf = s.buf[:rest]
	}
	return nil
}

// lines calls fn with the candidate lines of chunk, a run of whole lines.
func (s *scanner) lines(chunk []byte, fn func([]byte, int64) error) error {
	counted, line := 0, s.line // chunk[:counted] has had its newlines counted
	// The next mention of each needle at or after pos, -1 for none left:
	// each needle's search goes over the chunk once.
	needles := append([][]byte{s.name}, s.resources...)
	at := make([]int, len(needles))
	for k := range at {
		at[k] = -2 // not searched yet
	}
	pos := 0
	for pos < len(chunk) {
		i := -1
		for k, nd := range needles {
			if at[k] == -2 || (at[k] >= 0 && at[k] < pos) {
				at[k] = -1
				if j := bytes.Index(chunk[pos:], nd); j >= 0 {
					at[k] = pos + j
				}
			}
			if at[k] >= 0 && (i < 0 || at[k] < i) {
				i = at[k]
			}
		}
		if i < 0 {
			return nil
		}
		start := bytes.LastIndexByte(chunk[:i], '\n') + 1
		end := bytes.IndexByte(chunk[i:], '\n')
		if end < 0 {
			end = len(chunk)
		} else {
			end += i
		}
		if (at[0] >= 0 && at[0] < end) || s.collectionRead(chunk[start:end]) {
			line += int64(bytes.Count(chunk[counted:start], []byte{'\n'}))
			counted = start
			if err := fn(bytes.TrimRight(chunk[start:end], "\r"), line); err != nil {
				return err
			}
		}
		pos = end + 1
	}
	return nil
}

// collectionRead reports whether a line naming the resource but not the
// object may be a list or watch of the collection.
func (s *scanner) collectionRead(line []byte) bool {
	for _, m := range listWatch {
		if bytes.Contains(line, m) {
			return true
		}
	}
	return false
}
