package cluster

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/model/history"
)

// TargetMatch names t's object in an audit log, its type as the cluster
// resolved it.
func TargetMatch(t *kube.Target) auditlog.Match {
	return auditlog.Match{Resources: []string{t.Mapping.Resource.Resource}, Group: t.Mapping.Resource.Group,
		Namespace: t.Namespace, Name: t.Name, Scoped: true, Namespaced: t.Namespaced()}
}

// historyReader reads one object's history from the audit logs for its
// timeline, each time the timeline opens: from files again only when one
// changed since (its size or modification time), so that a write logged
// since is in it, and an unchanged gigabyte is not read twice; from a log
// engine every time (it is asked only for the object's events).
type historyReader struct {
	logs  []string
	audit AuditOptions
	match auditlog.Match
	opts  []diff.Option

	mu  sync.Mutex
	sig string
	h   *history.History
}

func newHistoryReader(logs []string, audit AuditOptions, t *kube.Target, opts []diff.Option) *historyReader {
	return &historyReader{logs: logs, audit: audit, match: TargetMatch(t), opts: opts}
}

// read returns the object's history as the logs tell it now.
func (r *historyReader) read(ctx context.Context) (*history.History, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sig, err := logsSignature(r.logs)
	if err != nil {
		return nil, err
	}
	if r.h != nil && sig != "" && sig == r.sig {
		return r.h, nil
	}
	srcs, err := AuditSources(r.logs, r.audit)
	if err != nil {
		return nil, err
	}
	res, err := auditlog.ReadFrom(ctx, srcs, r.match, auditlog.Window{})
	if err != nil {
		return nil, err
	}
	h := res.Analyze(r.opts...)
	r.sig, r.h = sig, h
	return r.h, nil
}

// logsSignature is what tells a log changed: each file's size and time;
// empty, which is never the same, when a log engine is among them.
func logsSignature(logs []string) (string, error) {
	var b strings.Builder
	for _, f := range logs {
		if IsEngineURL(f) {
			return "", nil
		}
		fi, err := os.Stat(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", f, fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String(), nil
}
