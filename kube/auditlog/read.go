package auditlog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/model/history"
)

// Stdin is the name that reads standard input instead of a file.
const Stdin = "-"

// Result is what the logs say of one object.
type Result struct {
	// Events are the object's events, in the order read.
	Events []history.Event
	// Resource and Group are the object's resource, as the log names it.
	Resource, Group string
	// Namespace is the object's namespace, empty for a cluster-scoped one.
	Namespace string
	// Cut are the logs that end early: the history is partial.
	Cut []*CutError
	// Incomplete are the engines' answers that ended early: the history
	// is partial.
	Incomplete []*IncompleteError
	// Unfinished counts the object's requests the logs hold only as
	// received (the RequestReceived stage): a policy that omits the later
	// stages, or a request still running when the log was copied. Whether
	// they were done, and what they stored, is unknown.
	Unfinished int
}

// Analyze is the object's history from the events read, its coverage
// saying what the logs could not tell: the logs that end early, the
// engines' answers that did, the requests logged only as received.
func (res *Result) Analyze(opts ...diff.Option) *history.History {
	h := history.Analyze(res.Events, opts...)
	for _, c := range res.Cut {
		h.Coverage.Partial = append(h.Coverage.Partial, c.Error())
	}
	for _, e := range res.Incomplete {
		h.Coverage.Partial = append(h.Coverage.Partial, e.Error())
	}
	h.Coverage.Unfinished = res.Unfinished
	return h
}

// Read reads the logs in files (Stdin reads stdin; gzip is recognised by
// its magic number, not the file's name) and returns the events of the
// object m names. Rotated files may come in any order.
func Read(files []string, stdin io.Reader, m Match) (*Result, error) {
	return ReadFrom(context.Background(), []Source{Files{Names: files, Stdin: stdin}}, m, Window{})
}

func newReader(m Match) *reader {
	return &reader{m: m, scanner: newScanner(m), open: map[string]int{}, ended: map[string]bool{}, received: map[string]kept{}, answered: map[string]bool{}}
}

type kept struct {
	ev        history.Event
	resource  string
	group     string
	namespace string
	byName    bool
}

type reader struct {
	m       Match
	cut     []*CutError
	scanner *scanner
	events  []kept
	// open are the watches begun (ResponseStarted) and not yet ended, by
	// audit ID, as indexes in events.
	open map[string]int
	// ended are the watches whose end (ResponseComplete) was read before
	// any beginning: rotated files read in any order. Their beginning,
	// read after, is the same span.
	ended map[string]bool
	// seen are the events kept, so that one held twice is kept once.
	seen map[seenKey]bool
	// received are the requests of the object logged as received
	// (RequestReceived) and not (yet) as answered, by audit ID.
	received map[string]kept
	// answered are the audit IDs of the object's requests logged as
	// answered.
	answered map[string]bool
	// empty are the files that hold no line.
	empty []string
}

func (rd *reader) readFile(name string, stdin io.Reader) error {
	var r io.Reader
	if name == Stdin {
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	r, stop, gz, err := decompressed(name, r)
	if err != nil {
		return err
	}
	defer stop()
	checked := false
	err = rd.scanner.scan(r, func(line []byte, n int64) error {
		a, err := parseLine(line)
		if err != nil {
			return &FormatError{File: name, Line: n, Err: err}
		}
		checked = true
		rd.consider(a, fmt.Sprintf("%s:%d", name, n))
		return nil
	})
	var cut *cutError
	if errors.As(err, &cut) {
		rd.cut = append(rd.cut, &CutError{File: name, Line: cut.Line, Gzip: cut.early})
		err = nil
	}
	if err = fileError(name, err, gz); err != nil {
		return gzipFault(name, r, gz, err)
	}
	if !checked && name != Stdin {
		empty, err := checkFirst(name)
		if empty {
			rd.empty = append(rd.empty, name)
		}
		return err
	}
	return nil
}

// fileError names the file in what scanning it found wrong.
func fileError(name string, err error, gz bool) error {
	var le *lineError
	var se *streamError
	var fe *FormatError
	switch {
	case err == nil || errors.As(err, &fe):
		return err
	case errors.As(err, &le):
		return &FormatError{File: name, Line: le.Line, Err: le.Err}
	case errors.As(err, &se):
		return &CorruptError{File: name, Line: se.Line, Err: se.Err, Gzip: gz}
	}
	return fmt.Errorf("reading %s: %w", name, err)
}

// Check reads each log in files as Read would, without keeping any
// event, so that a file that cannot be read, is no audit log, or is
// corrupt within is said before it is needed, naming the file and line.
// A log that only ends early is no error here (Read reports it in
// Result.Cut).
func Check(files []string) error {
	for _, f := range files {
		if err := checkFile(f); err != nil {
			return err
		}
	}
	return nil
}

func checkFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	r, stop, gz, err := decompressed(name, f)
	if err != nil {
		return err
	}
	defer stop()
	s := &scanner{none: true, buf: make([]byte, 0, chunkSize)}
	err = s.scan(r, nil)
	var cut *cutError
	if errors.As(err, &cut) {
		err = nil
	}
	if err = fileError(name, err, gz); err != nil {
		return gzipFault(name, r, gz, err)
	}
	_, err = checkFirst(name)
	return err
}

// decompressed is the text of a log read from f: itself, or what its gzip
// stream holds (recognised by its magic number), read ahead.
func decompressed(name string, f io.Reader) (r io.Reader, stop func(), gz bool, err error) {
	br := bufio.NewReaderSize(f, 1<<16)
	magic, _ := br.Peek(2)
	if !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return br, func() {}, false, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, nil, true, fmt.Errorf("%s: not a gzip stream: %w", name, err)
	}
	ahead, stopAhead := readAhead(zr)
	return ahead, func() { stopAhead(); zr.Close() }, true, nil
}

// gzipFault is what a line of a gzip log that is no audit event says: a
// gzip stream damaged within decompresses to garbage before its checksum
// (at its end) says so, so the rest of the stream is read to tell a
// corrupt gzip (a CorruptError at that line) from a line that is not an
// event in a sound one (err as it is).
func gzipFault(name string, r io.Reader, gz bool, err error) error {
	var fe *FormatError
	if !gz || !errors.As(err, &fe) {
		return err
	}
	if _, derr := io.Copy(io.Discard, r); derr != nil {
		return &CorruptError{File: name, Line: fe.Line, Err: derr, Gzip: true}
	}
	return err
}

// checkFirst reads the first line of a log none of whose lines was about
// the object, so that a file that is no audit log at all is said to be
// one, not taken for a log of other objects; empty is set when it holds
// no line. Stdin, read once, is not checked again.
func checkFirst(name string) (empty bool, err error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
		r = zr
	}
	lr := bufio.NewReaderSize(r, 1<<20)
	for n := int64(1); ; n++ {
		line, err := lr.ReadSlice('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if _, perr := parseLine(line); perr != nil {
				return false, &FormatError{File: name, Line: n, Err: perr}
			}
			return false, nil
		}
		if err == bufio.ErrBufferFull {
			return false, &FormatError{File: name, Line: n, Err: errors.New("a first line longer than 1 MiB")}
		}
		if err != nil {
			return true, nil
		}
	}
}

// result picks the object's resource among those the events name, and
// its scope, and keeps the events of that object.
func (rd *reader) result(files []string) (*Result, error) {
	type res struct{ resource, group string }
	found := map[res]bool{}
	namespaced, clusterScoped := false, false
	all := append([]kept(nil), rd.events...)
	for _, k := range rd.received {
		all = append(all, k)
	}
	for _, k := range all {
		if k.byName {
			found[res{k.resource, k.group}] = true
			if k.namespace == "" {
				clusterScoped = true
			} else {
				namespaced = true
			}
		}
	}
	if len(found) == 0 {
		return nil, &NoEventsError{Match: rd.m, Files: files, Empty: rd.empty}
	}
	if len(found) > 1 {
		var names []string
		for r := range found {
			names = append(names, strings.TrimSuffix(r.resource+"."+r.group, "."))
		}
		sort.Strings(names)
		return nil, &AmbiguousError{Name: rd.m.Name, Resources: names}
	}
	var out Result
	for r := range found {
		out.Resource, out.Group = r.resource, r.group
	}
	if namespaced {
		out.Namespace = rd.m.Namespace
	}
	_ = clusterScoped
	for _, k := range rd.events {
		if k.resource != out.Resource || k.group != out.Group {
			continue
		}
		// A cluster-scoped object is read only by cluster-wide reads,
		// and a namespaced one is named with its namespace.
		if (out.Namespace == "" && k.namespace != "") || (k.byName && k.namespace != out.Namespace) {
			continue
		}
		out.Events = append(out.Events, k.ev)
	}
	for _, k := range rd.received {
		if k.resource == out.Resource && k.group == out.Group && k.namespace == out.Namespace {
			out.Unfinished++
		}
	}
	return &out, nil
}
