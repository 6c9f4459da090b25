package auditlog

import (
	"bytes"
	"encoding/json"
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
	// none passes no line to fn: the lines are only checked.
	none bool
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
// newline) and its number. A line fn keeps must be copied. Every line is
// checked to be one JSON object (shapeOK) at the speed of finding its
// end: a file that is no audit log is said at its first line, wherever
// the object's lines are. How the log ends is checked too: a stream that
// fails (a corrupt gzip) is a *streamError; one that ends early, or a last
// line cut short (a log being written), is a *cutError once every whole
// line before it was scanned.
func (s *scanner) scan(r io.Reader, fn func(line []byte, n int64) error) error {
	s.buf, s.line = s.buf[:0], 1
	for {
		if len(s.buf) == cap(s.buf) {
			if cap(s.buf) >= maxLine {
				return &lineError{Line: s.line, Err: errors.New("a line longer than 256 MiB")}
			}
			nb := make([]byte, len(s.buf), 2*cap(s.buf))
			copy(nb, s.buf)
			s.buf = nb
		}
		n, err := fill(r, s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		end := bytes.LastIndexByte(s.buf, '\n') + 1
		if err == nil && end == 0 {
			continue // one line fills the buffer: grow it
		}
		next, lerr := s.lines(s.buf[:end], fn)
		if lerr != nil {
			return lerr
		}
		s.line = next
		rest := copy(s.buf, s.buf[end:])
		s.buf = s.buf[:rest]
		switch {
		case err == nil:
			continue
		case err == io.ErrUnexpectedEOF:
			return &cutError{Line: s.line, early: true}
		case err != io.EOF:
			return &streamError{Line: s.line, Err: err}
		}
		return s.last(fn)
	}
}

// last scans what follows the log's last newline: a whole line written
// without one, or a line cut short.
func (s *scanner) last(fn func([]byte, int64) error) error {
	tail := bytes.TrimSpace(s.buf)
	if len(tail) == 0 {
		return nil
	}
	if i := bytes.IndexByte(tail, '{'); i >= 0 && !json.Valid(tail[i:]) {
		return &cutError{Line: s.line}
	}
	_, err := s.lines(s.buf, fn)
	return err
}

// fill reads into b until it is full or the reader fails; unlike
// io.ReadFull it returns the reader's own error, so that a stream that
// ends early (io.ErrUnexpectedEOF from gzip) is told from one that ends.
func fill(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// lines calls fn with the candidate lines of chunk, a run of whole lines,
// having checked the shape of each.
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
		if err := shapeOK(line); err != nil {
			return n, &lineError{Line: n, Err: err}
		}
		if !s.none && s.candidate(line) {
			if err := fn(bytes.TrimRight(line, "\r"), n); err != nil {
				return n, err
			}
		}
		pos = end + 1
	}
	return n, nil
}

// errPretty says a log is JSON printed over many lines.
var errPretty = errors.New("a JSON document over many lines, as aws logs and gcloud print it; kedit reads one event a line: pipe it through jq -c (jq -c '.events[]' for aws logs filter-log-events, jq -c '.[]' for gcloud --format=json)")

// shapeOK checks, without decoding it, that a line is empty or holds one
// JSON object that ends the line (after an export's timestamp, if any):
// what every format read writes, and what a file of another kind (YAML,
// text, JSON printed over many lines) does not.
func shapeOK(line []byte) error {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return nil
	}
	if t[len(t)-1] == '}' && bytes.IndexByte(t, '{') >= 0 {
		return nil
	}
	switch {
	case len(t) <= 2 && (t[0] == '{' || t[0] == '['),
		t[0] == '"' && bytes.Contains(t, []byte(`":`)):
		return errPretty
	case bytes.IndexByte(t, '{') >= 0:
		return errors.New("a JSON object cut short, or text after it")
	}
	return errors.New("no JSON object on the line")
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
