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
// decoding any JSON. A line as the API server writes it starts with the
// Event's kind, level, stage, requestURI and verb, so its request is read
// from its first few hundred bytes: a request on the object (its URI
// ends in RESOURCE/NAME, or a subresource of it), a list or watch of the
// resource's collection in the object's namespace or all of them, or a
// create in that collection that names the object. Lines of other formats
// (wrapped by a cloud's export) are candidates when they name the object,
// or name its resource with a list or watch verb. Everything else is
// skipped at the speed of finding the line's end.
type scanner struct {
	m         Match
	name      []byte
	resources [][]byte
	buf       []byte
	// line is the number of the first line in buf.
	line int64
}

func newScanner(m Match) *scanner {
	s := &scanner{m: m, name: []byte(m.Name), buf: make([]byte, 0, chunkSize)}
	for _, r := range m.Resources {
		s.resources = append(s.resources, []byte(r))
	}
	return s
}

// listWatch are the marks of a list or watch verb in a wrapped line:
// `"verb":"list"`, GKE's methodName `....list"`, and both inside a JSON
// string (`list\"`).
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
		next, err := s.lines(s.buf[:end], fn)
		if err != nil {
			return err
		}
		s.line = next
		rest := copy(s.buf, s.buf[end:])
		s.buf = s.buf[:rest]
	}
	return nil
}

// lines calls fn with the candidate lines of chunk, a run of whole lines.
func (s *scanner) lines(chunk []byte, fn func([]byte, int64) error) (int64, error) {
	n := s.line
	for pos := 0; pos < len(chunk); n++ {
		end := bytes.IndexByte(chunk[pos:], '\n')
		if end < 0 {
			end = len(chunk)
		} else {
			end += pos
		}
		line := chunk[pos:end]
		if s.candidate(line) {
			if err := fn(bytes.TrimRight(line, "\r"), n); err != nil {
				return n, err
			}
		}
		pos = end + 1
	}
	return n, nil
}

var (
	eventStart = []byte(`{"kind":"Event",`)
	uriField   = []byte(`"requestURI":"`)
	verbField  = []byte(`","verb":"`)
)

// headerLen bounds where requestURI is looked for in a line.
const headerLen = 512

// candidate reports whether line may be about the object.
func (s *scanner) candidate(line []byte) bool {
	if bytes.HasPrefix(line, eventStart) {
		head := line[:min(len(line), headerLen)]
		if i := bytes.Index(head, uriField); i >= 0 {
			rest := line[i+len(uriField):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 && bytes.HasPrefix(rest[j:], verbField) {
				uri := rest[:j]
				verb := rest[j+len(verbField):]
				if k := bytes.IndexByte(verb, '"'); k >= 0 {
					return s.request(line, uri, verb[:k])
				}
			}
		}
	}
	if bytes.Contains(line, s.name) {
		return true
	}
	for _, r := range s.resources {
		if bytes.Contains(line, r) {
			for _, m := range listWatch {
				if bytes.Contains(line, m) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// request reports whether a request, by its URI and verb, may be about
// the object.
func (s *scanner) request(line, uri, verb []byte) bool {
	path := uri
	if q := bytes.IndexByte(path, '?'); q >= 0 {
		path = path[:q]
	}
	for _, r := range s.resources {
		for from := 0; ; {
			i := bytes.Index(path[from:], r)
			if i < 0 {
				break
			}
			i += from
			from = i + len(r)
			if i == 0 || path[i-1] != '/' {
				continue
			}
			after := path[i+len(r):]
			switch {
			case len(after) == 0:
				// The collection: a list or watch of it may cover the
				// object; a create in it may make it.
				switch string(verb) {
				case "list", "watch":
					return true
				case "create":
					return bytes.Contains(line, s.name)
				}
			case after[0] == '/':
				name := after[1:]
				if bytes.HasPrefix(name, s.name) && (len(name) == len(s.name) || name[len(s.name)] == '/') {
					return true
				}
			}
		}
	}
	return false
}
