package kube

import (
	"bytes"
	"fmt"
	"os"
	"sync"

	"github.com/kedit/kedit/model"
)

// TimelineLog appends timeline entries to a file, one JSON line each
// (model.EncodeTimelineEntry): `kedit --timeline-out FILE`. Lines are
// appended, never rewritten, so one file can collect several sessions'
// notes, and each batch is one write, so lines from two kedits appending
// at once do not interleave.
type TimelineLog struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// OpenTimelineLog opens path for appending, creating it with mode 0600:
// it names who changed what, which is for the people on the incident.
func OpenTimelineLog(path string) (*TimelineLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the timeline file: %w", err)
	}
	return &TimelineLog{f: f, path: path}, nil
}

// Append writes entries of ref's timeline, one line each.
func (l *TimelineLog) Append(ref model.ObjectRef, entries []model.Entry) error {
	var buf bytes.Buffer
	for _, e := range entries {
		line, err := model.EncodeTimelineEntry(ref, e)
		if err != nil {
			return fmt.Errorf("encoding timeline entry rv %s: %w", e.ResourceVersion, err)
		}
		buf.Write(line)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("appending to %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file.
func (l *TimelineLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
