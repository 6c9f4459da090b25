package auditlog

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Source is a place audit events are read from: log files (Files), or a
// log engine's query API, each engine a package of its own implementing
// Source (kube/auditlog/victorialogs). A source hands a Collector the
// events that may be about the object, as audit.k8s.io/v1 Event JSON;
// the collector keeps the object's by the same rules for every source, so
// that a file and an engine holding the same events give the same
// history.
type Source interface {
	// Name names the source in messages: its files, an engine's URL
	// without credentials.
	Name() string
	// Feed hands c the source's events that may be about the object c
	// looks for (c.Match), within c.Window where the source can ask for
	// it, each request's events in the order they were logged.
	Feed(ctx context.Context, c *Collector) error
}

// Window bounds the time of the events a source is asked for; a zero
// bound is none. A file is read whole: only an engine can be asked for
// less.
type Window struct {
	Since, Until time.Time
}

// Collector keeps one object's events from what sources hand it.
type Collector struct {
	rd         *reader
	window     Window
	incomplete []*IncompleteError
}

// Match says which object the collector keeps the events of.
func (c *Collector) Match() Match { return c.rd.m }

// Window is the time the events were asked for.
func (c *Collector) Window() Window { return c.window }

// Add takes one audit event (JSON) from where: it is kept when it is
// about the object, as a line of a log file would be. An event that is no
// audit event is an *EventError.
func (c *Collector) Add(event []byte, where string) error {
	a, err := parseLine(event)
	if err != nil {
		return &EventError{Where: where, Err: err}
	}
	c.rd.consider(a, where)
	return nil
}

// Writers are the users who wrote the object in the events kept so far,
// the impersonated user where there is one, sorted: the clients whose
// reads of its collection can be a write's base.
func (c *Collector) Writers() []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range c.rd.events {
		if k.byName && k.ev.IsWrite() && !seen[k.ev.Client.User] {
			seen[k.ev.Client.User] = true
			out = append(out, k.ev.Client.User)
		}
	}
	sort.Strings(out)
	return out
}

// Incomplete records that a source's answer is incomplete: the history
// read is partial.
func (c *Collector) Incomplete(e *IncompleteError) { c.incomplete = append(c.incomplete, e) }

// EventError says an event a source handed is no audit event in a format
// read.
type EventError struct {
	// Where names the event: the source and what identifies it there.
	Where string
	Err   error
}

func (e *EventError) Error() string {
	return fmt.Sprintf("%s: not an audit event: %v", e.Where, e.Err)
}

func (e *EventError) Unwrap() error { return e.Err }

// IncompleteError says a source answered with less than it holds: an
// engine's query cut by its limits or ended early, or events it cannot
// give back as they were logged. What was read is kept; what is missing
// is unknown, so the history is partial.
type IncompleteError struct {
	// Source names the source (an engine's URL without credentials).
	Source string
	// What names what was asked: "the object's events", "the writers'
	// reads".
	What string
	// Why says what is missing, with the source's own words.
	Why string
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("%s, %s: %s", e.Source, e.What, e.Why)
}

// Files are audit log files, read as Read reads them: whole, in the order
// given, "-" (Stdin) from Stdin.
type Files struct {
	Names []string
	Stdin io.Reader
}

// Name names the files.
func (f Files) Name() string { return strings.Join(f.Names, ", ") }

// Feed reads each file and hands c its candidate lines.
func (f Files) Feed(_ context.Context, c *Collector) error {
	for _, name := range f.Names {
		if err := c.rd.readFile(name, f.Stdin); err != nil {
			return err
		}
	}
	return nil
}

// ReadFrom reads the events of the object m names from sources, in turn,
// and returns them as Read does: what each source ended early with is in
// Result.Cut (a file) and Result.Incomplete (an engine).
func ReadFrom(ctx context.Context, sources []Source, m Match, w Window) (*Result, error) {
	c := &Collector{rd: newReader(m), window: w}
	var names []string
	for _, s := range sources {
		if err := s.Feed(ctx, c); err != nil {
			return nil, err
		}
		if f, ok := s.(Files); ok {
			names = append(names, f.Names...) // each named, as when none holds the object
		} else {
			names = append(names, s.Name())
		}
	}
	res, err := c.rd.result(names)
	if err != nil {
		return nil, err
	}
	res.Cut, res.Incomplete = c.rd.cut, c.incomplete
	return res, nil
}
