// Package effect is the app's I/O: each of its functions builds the
// tea.Cmd that does one piece of it off the UI's goroutine (an object's
// save, watch, read and drafts; the browser's questions to the cluster;
// $EDITOR; the server's dry run of a draft; the streams the app reads one
// message at a time), and each message type is what such a command
// answers with, named in the past tense. Only the app imports it: it
// decides which command to run and what an answer means; effect decides
// neither.
package effect

import (
	"context"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// ID names one opening of an object: its key, and the app's count of
// openings when it was opened, so that an object opened again is
// another. Every answer of an object's commands and watch carries it; the
// zero ID names no object.
type ID struct {
	Key common.DraftKey
	N   uint64
}

// Performer carries out a session's effects: *kube.Runner against the API
// server, or a fake in tests of the UI alone.
type Performer interface {
	Perform(ctx context.Context, effect model.Effect) (model.Event, error)
}

// Drafts is this kedit's share of the draft store for the object
// (*drafts.Object): where its draft is written, the stored drafts to
// offer for recovery, and what to do with them. The app reads the first
// six once, when it starts; the last three it calls inside commands.
type Drafts interface {
	Path() string
	Stored() []*drafts.Draft
	Others() []drafts.Editor
	Problem() error
	Warnings() []error
	MemoryOnly() bool
	Adopt(path string) (string, error)
	Discard(paths ...string) (string, error)
	KeepAside(path string) (string, error)
}
