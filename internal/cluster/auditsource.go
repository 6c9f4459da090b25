package cluster

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-logr/logr"

	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/kube/auditlog/victorialogs"
)

// TokenEnv names the environment variable a log engine's bearer token is
// read from when --audit-token is not given.
const TokenEnv = "KEDIT_AUDIT_TOKEN"

// AuditOptions are how --audit-log's sources are read.
type AuditOptions struct {
	// Token is --audit-token, a log engine's bearer token; empty takes
	// $KEDIT_AUDIT_TOKEN. It is never printed.
	Token string
	// Debug, when set, is told each query sent to an engine and how many
	// events came back.
	Debug io.Writer
	// Stdin is what "-" reads.
	Stdin io.Reader
}

// engines are the log engines --audit-log takes a URL of: whether a value
// names one, and its source. Another engine is a package implementing
// auditlog.Source and one line here.
var engines = []struct {
	is   func(string) bool
	open func(raw string, token string, debug io.Writer) (auditlog.Source, error)
}{
	{victorialogs.IsURL, func(raw, token string, debug io.Writer) (auditlog.Source, error) {
		return victorialogs.New(raw, victorialogs.Options{Token: token, Debug: debug})
	}},
}

// IsEngineURL reports whether an --audit-log value names a log engine
// (SCHEME://...) rather than a file.
func IsEngineURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	return ok && scheme != "" && !strings.ContainsAny(scheme, "/\\.")
}

// AuditSources are the sources --audit-log's values name: the files, read
// as one in the order given, and each log engine's URL.
func AuditSources(logs []string, o AuditOptions) ([]auditlog.Source, error) {
	token := o.Token
	if token == "" {
		token = os.Getenv(TokenEnv)
	}
	var out []auditlog.Source
	var files []string
	for _, l := range logs {
		if !IsEngineURL(l) {
			files = append(files, l)
			continue
		}
		src, err := openEngine(l, token, o.Debug)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	if len(files) > 0 {
		out = append([]auditlog.Source{auditlog.Files{Names: files, Stdin: o.Stdin}}, out...)
	}
	return out, nil
}

func openEngine(raw, token string, debug io.Writer) (auditlog.Source, error) {
	for _, e := range engines {
		if e.is(raw) {
			return e.open(raw, token, debug)
		}
	}
	// victorialogs' parser says what a URL of an engine looks like, with
	// the password masked.
	_, err := victorialogs.New(raw, victorialogs.Options{})
	if err == nil {
		err = fmt.Errorf("%s: no log engine of this scheme", raw)
	}
	return nil, err
}

// logLines writes each line written to it to a logger: the queries a
// log engine is sent, in --debug's log.
type logLines struct{ l logr.Logger }

func (w logLines) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		w.l.Info(line)
	}
	return len(p), nil
}
