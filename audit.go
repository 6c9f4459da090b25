package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/model/history"
)

// targetMatch names t's object in an audit log, its type as the cluster
// resolved it.
func targetMatch(t *kube.Target) auditlog.Match {
	return auditlog.Match{Resources: []string{t.Mapping.Resource.Resource}, Group: t.Mapping.Resource.Group,
		Namespace: t.Namespace, Name: t.Name, Scoped: true, Namespaced: t.Namespaced()}
}

// checkAuditLogs says, before the UI starts, what is wrong with the audit
// logs --audit-log gives the object view: a file that cannot be read, is
// no audit log or is corrupt within (naming the file and line; every line
// is checked), or stdin, which is the terminal's.
func checkAuditLogs(files []string) error {
	for _, f := range files {
		if f == auditlog.Stdin {
			return errors.New("--audit-log -: kedit reads the terminal on stdin; give the audit log as a file (kedit history reads one on stdin)")
		}
	}
	if err := auditlog.Check(files); err != nil {
		return fmt.Errorf("--audit-log: %w", err)
	}
	return nil
}

// historyReader reads one object's history from the audit logs for its
// timeline, each time the timeline opens: again only when a log changed
// since (its size or modification time), so that a write logged since is
// in it, and an unchanged gigabyte is not read twice.
type historyReader struct {
	files []string
	match auditlog.Match
	opts  []diff.Option

	mu  sync.Mutex
	sig string
	h   *history.History
}

func newHistoryReader(files []string, t *kube.Target, opts []diff.Option) *historyReader {
	return &historyReader{files: files, match: targetMatch(t), opts: opts}
}

// read returns the object's history as the logs tell it now.
func (r *historyReader) read(context.Context) (*history.History, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sig, err := logsSignature(r.files)
	if err != nil {
		return nil, err
	}
	if r.h != nil && sig == r.sig {
		return r.h, nil
	}
	res, err := auditlog.Read(r.files, nil, r.match)
	if err != nil {
		return nil, err
	}
	h := history.Analyze(res.Events, r.opts...)
	h.Coverage.Partial = cutLogs(res.Cut)
	r.sig, r.h = sig, h
	return r.h, nil
}

// logsSignature is what tells a log changed: each file's size and time.
func logsSignature(files []string) (string, error) {
	var b strings.Builder
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", f, fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String(), nil
}
