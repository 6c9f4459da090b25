package auditlog

import (
	"fmt"
	"strings"
)

// The errors of reading a log: what is wrong with it, named by file and
// line, and what the logs do not hold.

// FormatError says a line of a log is not an audit event in any format
// read.
type FormatError struct {
	File string
	Line int64
	Err  error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s:%d: not an audit log line: %v", e.File, e.Line, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// lineError is a line that is not one JSON object (FormatError once
// its file is known).
type lineError struct {
	Line int64
	Err  error
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// streamError is a log whose stream failed while line Line was read.
type streamError struct {
	Line int64
	Err  error
}

func (e *streamError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// cutError is a log that ends early: a gzip stream cut short (early), or
// a last line cut mid-JSON, as in a log still being written.
type cutError struct {
	Line  int64
	early bool
}

func (e *cutError) Error() string { return fmt.Sprintf("line %d cut short", e.Line) }

// CorruptError says a log's stream is corrupt (a gzip file damaged
// within), found while line Line was read: none of it can be trusted.
type CorruptError struct {
	File string
	Line int64
	Err  error
	// Gzip is set when the file is a gzip stream.
	Gzip bool
}

func (e *CorruptError) Error() string {
	if e.Gzip {
		return fmt.Sprintf("%s:%d: the gzip stream is corrupt (its text goes wrong at this line): %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: the log is corrupt (found reading this line): %v", e.File, e.Line, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// CutError says a log ends early: its gzip stream ends before its end
// (a file cut short, or still being written), or its last line is cut
// mid-JSON (a log being written). The lines before Line were read; what
// the log held from Line on is unknown, so a history read from it is
// partial. It is a warning, not an error: Read returns it in
// Result.Cut.
type CutError struct {
	File string
	Line int64
	// Gzip is set when the gzip stream ends early; else the last line is
	// cut short.
	Gzip bool
}

func (e *CutError) Error() string {
	if e.Gzip {
		return fmt.Sprintf("%s:%d: the gzip stream ends early (the file is cut short): the lines from %d on are missing", e.File, e.Line, e.Line)
	}
	return fmt.Sprintf("%s:%d: the last line is cut short (a log still being written?) and left out", e.File, e.Line)
}

// NoEventsError says the logs hold no event of the object.
type NoEventsError struct {
	Match Match
	Files []string
	// Empty are the files that hold no line at all.
	Empty []string
}

func (e *NoEventsError) Error() string {
	if len(e.Empty) == len(e.Files) && len(e.Files) == 1 {
		return fmt.Sprintf("%s is empty: it holds no audit event", e.Files[0])
	}
	empty := ""
	if len(e.Empty) > 0 {
		empty = fmt.Sprintf(" (%s empty)", strings.Join(e.Empty, ", ")+map[bool]string{true: " is", false: " are"}[len(e.Empty) == 1])
	}
	return e.noEvents() + empty
}

func (e *NoEventsError) noEvents() string {
	where := ""
	if e.Match.Namespace != "" {
		where = fmt.Sprintf(" in namespace %q (or cluster-scoped)", e.Match.Namespace)
		if e.Match.Scoped && e.Match.Namespaced {
			where = fmt.Sprintf(" in namespace %q", e.Match.Namespace)
		}
	}
	return fmt.Sprintf("no event of %s%s in %s", e.Match, where, strings.Join(e.Files, ", "))
}

// AmbiguousError says the type named matches objects of more than one
// resource in the logs.
type AmbiguousError struct {
	Name      string
	Resources []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s names objects of %s in the log: give TYPE as RESOURCE.GROUP", e.Name, strings.Join(e.Resources, " and "))
}
