// Package victorialogs reads an object's audit events from VictoriaLogs,
// a log engine that takes kube-apiserver audit events as JSON lines
// (/insert/jsonline) and answers LogsQL (/select/logsql/query). It is one
// auditlog.Source: the engine does the scanning, and kedit asks it only
// for what the history needs (query.go):
//
//   - the object's events, by objectRef's resource, apiGroup, namespace
//     and name (its gets among them);
//   - then the lists and watches of its collection, in its namespace or
//     all of them, by the users who wrote it: the reads that can be a
//     write's base, without their bodies;
//
// each within --since and --until (start and end), with the URL's
// ?filter=LOGSQL added to both. Each event comes back with its nested
// fields flattened to dotted names and every value a string; it is put
// back together as the API server wrote it (rebuild.go), whatever the
// ingest chose as _msg, _time and stream fields.
//
// An engine that cannot be reached or answers with an error is an error
// naming the URL (its credentials masked) and the engine's words; an
// answer that ends early (a query stopped by the engine's limits) is kept
// and reported as incomplete (auditlog.IncompleteError), so the history is
// partial, and so is an answer for the reads refused for the engine's
// limits (503, 429: its time or its concurrent queries), once the
// object's events are read. kedit asks for complete answers only: a
// cluster whose storage node is down answers with an error, never with
// part of the events.
package victorialogs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube/auditlog"
)

// answerTimeout bounds the wait for an engine's answer to begin.
const answerTimeout = 2 * time.Minute

// Options are how kedit talks to the engine.
type Options struct {
	// Token is a bearer token sent with every query; it is never printed.
	Token string
	// Debug, when set, is told each query sent and how many events came
	// back.
	Debug io.Writer
	// Client makes the requests; nil is a client of its own.
	Client *http.Client
}

// Source is a VictoriaLogs to read audit events from.
type Source struct {
	ep   *endpoint
	opts Options
}

// New returns the source a victorialogs:// or victorialogs+https:// URL
// names (IsURL).
func New(raw string, o Options) (*Source, error) {
	ep, err := parseURL(raw)
	if err != nil {
		return nil, err
	}
	if o.Client == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// An engine that takes the query and never answers is an error,
		// not a hang; VictoriaLogs gives up on a query after 30 s by
		// default (-search.maxQueryDuration).
		t.ResponseHeaderTimeout = answerTimeout
		o.Client = &http.Client{Transport: t}
	}
	return &Source{ep: ep, opts: o}, nil
}

// Name is the URL without its credentials.
func (s *Source) Name() string { return s.ep.name }

// Feed asks the engine for the object's events, then for the reads of its
// collection by those who wrote it, and hands both to c.
func (s *Source) Feed(ctx context.Context, c *auditlog.Collector) error {
	m, w := c.Match(), c.Window()
	if err := s.ask(ctx, c, "the object's events", objectQuery(s.ep.filter, m), w); err != nil {
		return err
	}
	users := c.Writers()
	if len(users) == 0 {
		return nil
	}
	const reads = "the writers' reads"
	err := s.ask(ctx, c, reads, readsQuery(s.ep.filter, m, users), w)
	var ee *EngineError
	if errors.As(err, &ee) && ee.limited() {
		// The object's events are read: without the reads the history
		// is partial, not unknown.
		c.Incomplete(&auditlog.IncompleteError{Source: s.ep.name, What: reads, Why: "the engine did not answer within its limits: " + ee.Words})
		return nil
	}
	return err
}

// ask sends one query and hands its events to c, each request's in the
// order the API server logged them.
func (s *Source) ask(ctx context.Context, c *auditlog.Collector, what, query string, w auditlog.Window) error {
	start := time.Now()
	var events []rebuilt
	a, err := s.query(ctx, query, w, func(row map[string]string) error {
		ev, err := rebuildRow(row, s.ep.name)
		events = append(events, ev)
		return err
	})
	if s.opts.Debug != nil {
		if err != nil {
			fmt.Fprintf(s.opts.Debug, "kedit history: %s: %s: %s%s: failed after %s\n", s.ep.name, what, query, windowWords(w), time.Since(start).Round(time.Millisecond))
		} else {
			fmt.Fprintf(s.opts.Debug, "kedit history: %s: %s: %s%s: %s, %s in %s\n", s.ep.name, what, query, windowWords(w),
				words.Count(a.events, "event"), words.Count(int(a.bytes), "byte"), time.Since(start).Round(time.Millisecond))
		}
	}
	if err != nil {
		return err
	}
	sortLogged(events)
	for _, ev := range events {
		if err := c.Add(ev.json, ev.where); err != nil {
			return err
		}
	}
	if a.cut != "" {
		c.Incomplete(&auditlog.IncompleteError{Source: s.ep.name, What: what, Why: fmt.Sprintf("the answer ended after %s: %s", words.Count(a.events, "event"), a.cut)})
	}
	if n := flattenedBodies(events); n > 0 {
		c.Incomplete(&auditlog.IncompleteError{Source: s.ep.name, What: what,
			Why: fmt.Sprintf("%d of %s hold their requestObject or responseObject flattened to dotted fields, which cannot be put back exactly (empty values, nulls and the types of values are lost, a key with a dot is ambiguous): ingest with preserve_json_keys=requestObject,responseObject", n, words.Count(len(events), "event"))})
	}
	return nil
}

// windowWords says the time asked for, for --debug.
func windowWords(w auditlog.Window) string {
	switch {
	case w.Since.IsZero() && w.Until.IsZero():
		return ""
	case w.Until.IsZero():
		return " from " + w.Since.UTC().Format(time.RFC3339Nano)
	case w.Since.IsZero():
		return " up to " + w.Until.UTC().Format(time.RFC3339Nano)
	}
	return " from " + w.Since.UTC().Format(time.RFC3339Nano) + " to " + w.Until.UTC().Format(time.RFC3339Nano)
}
