package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/cluster"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/model/history"
)

// historyOptions are kedit history's own flags.
type historyOptions struct {
	logs         []string
	asJSON, wide bool
	since, until string
	// path is --path: one field's value in each version.
	path string
	// token is --audit-token, a log engine's bearer token; debug is
	// --debug: each query sent to an engine said on stderr.
	token string
	debug bool
}

func newHistoryCmd(flags *kube.ConnFlags) *cobra.Command {
	var o historyOptions
	cmd := &cobra.Command{
		Use:   "history TYPE/NAME --audit-log FILE|URL... [--json] [--wide] [--since T] [--until T] [--path PATH]",
		Short: "An object's history from API server audit logs, and the lost updates in it",
		Long: `history reads API server audit logs and prints what was lost in the
object's history, one line per finding first:

  LOST .data.foo: bob's "bob" (05:49:20, kubectl-patch) overwritten by alice's kubectl edit (05:49:24) with "alice"; now "alice" (live)

then the values replaced blind (BLIND) and what could not be judged
(INCONCLUSIVE, PARTIAL), the object's versions
oldest first (resourceVersion, time, user, field manager, verb, the fields
each changed; in 80 columns, --wide adds the user agent and full times),
and the lost updates, blind writes, reverted values and fights in full.

A lost update is a change a writer made that a later write by another client
replaced without having seen it: the later write carried no resourceVersion
its writer had read, and its client last read the object (get, list, watch)
before the change. A command's own read is not its user's: kubectl patch,
label, annotate, scale, set, rollout, taint and a client-side kubectl apply
GET the object just before they write, and kubectl replace does when its
file has no resourceVersion (sending the one it read); that GET is left out
and the base is the user's read before it. kubectl edit's GET is its user's
read. A blind write is a write by a client with no read of the object in the
log (or only before it was created) that replaced another client's value:
what its writer saw is unknown, so it makes the answer inconclusive. A
reverted value is a write that set a field back to what it was before
another client's change its writer had read (or tested): undone knowingly.
A fight is a field whose value changed hands between the same two clients at
least 3 times, each side taking it at least once untested. A JSON Patch's
test operation (kedit set --if) is a read of the field it tests at the
moment of the write. A note names a client (user and user agent) that wrote
under two field managers: two tools of one user are one client here, and a
loss between them is not seen.

Audit levels: writes (create, update, patch, delete) must be logged at
RequestResponse (the stored object) and reads (get, list, watch) at
Metadata. A write logged below RequestResponse, or one with no
resourceVersion whose client's reads are not logged, cannot be judged: it
is counted (INCONCLUSIVE: 3 of 3 writes recorded without their bodies: lost
updates cannot be judged), never taken for "no lost update"; so are
requests logged only as received (an omitStages that keeps only
RequestReceived).

The logs are audit.k8s.io/v1 Event JSON lines, plain or gzip, in any order
(rotated files too), "-" for stdin; EKS, AKS and GKE exports are read as
they come (see the README). Files after TYPE/NAME are logs too, so that
--audit-log audit*.log works. Every line is checked to hold one JSON object,
and the lines about the object are decoded: a file that is not an audit
log, an empty one, or a corrupt gzip stream is an error naming the file
(and line);
a gzip stream that ends early or a last line cut short (a log being
written) is a warning, and the history is partial. JSON printed over many
lines (aws logs, gcloud) is refused with a hint: one event a line.

--audit-log also takes a log engine's URL: victorialogs://HOST:PORT (HTTP)
or victorialogs+https://HOST:PORT, for a VictoriaLogs the audit log is
shipped to (see the README). The engine is asked only for the object's
events and for the lists and watches of its collection by the users who
wrote it, within --since and --until (which then bound what is judged,
not only the table); ?filter=LOGSQL is added to every query (a cluster's
stream: ?filter={cluster="prod"}), ?tenant=ACCOUNT:PROJECT asks one of
VictoriaLogs' tenants. Basic auth goes in the URL
(victorialogs://USER:PASSWORD@HOST:PORT), a bearer token in --audit-token
or $KEDIT_AUDIT_TOKEN; neither is ever printed. An engine that cannot be
reached or answers with an error is exit 2, naming the URL and the
engine's words; an answer it cut short (its limits reached) or events it
holds flattened (sent without preserve_json_keys=requestObject,
responseObject) make the history partial. Files and URLs may be given
together. --debug says on stderr each query sent and how many events and
bytes came back.

TYPE resolves as elsewhere when the cluster answers (and a lost value's
value now is read from the live object); without one (no kubeconfig, or
the server unreachable), it is read from the log: kubectl's short names of
the built-in types, RESOURCE.GROUP, or the plural or singular resource name
the log records. The namespace is -n, else the kubeconfig's, else
"default".

--path PATH adds the value of one field in each version, oldest first: a
line of its values (VALUES OF .data.foo: "1" → "2" → "mine") and a table,
a string quoted as JSON; a version without the field says absent (a
deletion deleted, a write the log holds no object of not recorded). In
--json it is "path": {"path", "values": [{resourceVersion, time, user,
manager, state, value}]}.

A Secret's values never appear: a lost value is "(secret)", a --path value
••••.

Exit status: 0 nothing found and every write judged; 1 something to look
at (a lost update, a reverted value, a fight); 2 an error (an unreadable,
empty or corrupt log, a line that is not audit JSON, no event of the object,
bad arguments); 3 inconclusive, nothing found: a write of the object could
not be judged, a blind write replaced another's value, a request is logged
only as received, or a log ends early.`,
		Example: `  # who overwrote my change to this ConfigMap?
  kedit history configmap/app-config -n shop --audit-log /var/log/kubernetes/audit.log

  # rotated and gzip logs, the last hour only in the table
  kedit history deploy/web --audit-log audit.log --audit-log audit-2025-03-01T10-00-00.000.log.gz --since 1h

  # a CloudWatch export, as one JSON document for a script
  aws logs filter-log-events --log-group-name /aws/eks/prod/cluster --log-stream-name-prefix kube-apiserver-audit \
    --filter-pattern '"app-config"' | jq -c '.events[]' | kedit history cm/app-config -n shop --audit-log - --json

  # from VictoriaLogs, the last day, the queries said
  kedit history cm/app-config -n shop --audit-log victorialogs://logs.example.com:9428 --since 24h --debug`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHistory(cmd, flags, args, o)
		},
	}
	cmd.Flags().StringArrayVar(&o.logs, "audit-log", nil, "an API server audit log `FILE` (JSON lines, plain or gzip; - for stdin), or a log engine's URL (victorialogs://HOST:PORT, victorialogs+https://HOST:PORT); repeat for more")
	cmd.Flags().StringVar(&o.token, "audit-token", "", "a bearer `TOKEN` for the log engine of --audit-log URL (default $KEDIT_AUDIT_TOKEN); never printed")
	cmd.Flags().BoolVar(&o.debug, "debug", false, "say on stderr each query sent to a log engine and how many events and bytes came back")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON document instead of the text")
	cmd.Flags().BoolVar(&o.wide, "wide", false, "the version table whole: the user agent, full times, nothing cut short")
	cmd.Flags().StringVar(&o.since, "since", "", "the version table from `TIME` on: RFC 3339 (2025-03-01T10:00:00Z) or a duration before now (1h)")
	cmd.Flags().StringVar(&o.path, "path", "", "also print the value of the field at `PATH` (.data.foo, .data[\"nginx.conf\"]) in each version; absent where a version has no such field")
	cmd.Flags().StringVar(&o.until, "until", "", "the version table up to `TIME`: RFC 3339 or a duration before now")
	return cmd
}

func runHistory(cmd *cobra.Command, flags *kube.ConnFlags, args []string, o historyOptions) error {
	stderr := cmd.ErrOrStderr()
	fail := func(err error) error {
		fmt.Fprintln(stderr, "kedit history:", escape.String(err.Error()))
		return &exitError{2}
	}
	typ, name, rest, err := kube.SplitObjectArgs(args)
	if err != nil {
		return fail(err)
	}
	text := history.TextOptions{Wide: o.wide}
	now := time.Now()
	if text.Since, err = timeBound("--since", o.since, now); err != nil {
		return fail(err)
	}
	if text.Until, err = timeBound("--until", o.until, now); err != nil {
		return fail(err)
	}
	var path history.Path
	if o.path != "" {
		if path, err = history.ParsePath(o.path); err != nil {
			return fail(fmt.Errorf("--path: %w", err))
		}
	}
	logs := append(o.logs, rest...)
	if len(logs) == 0 {
		return fail(errors.New("give the audit log: --audit-log FILE or URL"))
	}
	m, opts, target, err := historyMatch(flags, typ, name)
	if err != nil {
		return fail(err)
	}
	res, err := readHistorySources(cmd, logs, o, m, text)
	if err != nil {
		return fail(err)
	}
	h := res.Analyze(opts...)
	for _, p := range h.Coverage.Partial {
		fmt.Fprintln(stderr, "kedit history: warning:", escape.String(p)+"; the history is partial")
	}
	var live map[string]any
	if target != nil && len(h.LostUpdates)+len(h.BlindWrites) > 0 {
		live = liveObject(flags, target)
	}
	rep := h.ReportLive(history.ReportObject{Resource: res.Resource, APIGroup: res.Group, Namespace: res.Namespace, Name: name}, live)
	if !path.IsZero() {
		values := h.PathReport(path)
		rep.Path = &values
	}
	out := []byte(rep.TextWith(text))
	if o.asJSON {
		if out, err = rep.JSON(); err != nil {
			return fail(err)
		}
	}
	if _, err := cmd.OutOrStdout().Write(out); err != nil {
		return fail(err)
	}
	switch {
	case len(rep.Findings()) > 0:
		return &exitError{1}
	case !rep.Conclusive():
		return &exitError{3}
	}
	return nil
}

// readHistorySources reads the object's events from --audit-log's files
// and log engines, the engines asked for the time of --since and --until.
func readHistorySources(cmd *cobra.Command, logs []string, o historyOptions, m auditlog.Match, text history.TextOptions) (*auditlog.Result, error) {
	ao := cluster.AuditOptions{Token: o.token, Stdin: cmd.InOrStdin()}
	if o.debug {
		ao.Debug = cmd.ErrOrStderr()
	}
	srcs, err := cluster.AuditSources(logs, ao)
	if err != nil {
		return nil, err
	}
	return auditlog.ReadFrom(cmd.Context(), srcs, m, auditlog.Window{Since: text.Since, Until: text.Until})
}

// liveObject is the object as the cluster holds it now: an empty object
// when it does not exist, nil when the cluster does not say.
func liveObject(flags *kube.ConnFlags, t *kube.Target) map[string]any {
	rc, err := flags.ToRESTConfig()
	if err != nil {
		return nil
	}
	dc, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	obj, err := kube.Get(ctx, dc, t)
	var missing *kube.NotFoundError
	switch {
	case errors.As(err, &missing):
		return map[string]any{}
	case err != nil:
		return nil
	}
	return obj.Object
}

// timeBound reads --since or --until: an RFC 3339 time, or a duration
// before now.
func timeBound(flag, s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%s %q: give an RFC 3339 time (2025-03-01T10:00:00Z) or a duration before now (1h, 30m)", flag, s)
}

// historyMatch names the object in the log: through the cluster when it
// answers (TYPE as kedit resolves it elsewhere, and a custom resource's
// schema for comparing its versions), else from TYPE alone.
func historyMatch(flags *kube.ConnFlags, typ, name string) (auditlog.Match, []diff.Option, *kube.Target, error) {
	// A cluster that does not answer must not hold the log up for long.
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config {
		if c.Timeout == 0 {
			c.Timeout = 10 * time.Second
		}
		return c
	}
	if _, err := flags.ToRESTConfig(); err == nil {
		t, err := kube.Resolve(flags, typ, name)
		var unreachable *kube.UnreachableError
		switch {
		case err == nil:
			m := cluster.TargetMatch(t)
			var opts []diff.Option
			if !kube.BuiltinKind(t) {
				if schemas, err := kube.LoadSchemas(flags, t); err == nil {
					opts = append(opts, diff.WithSchemas(schemas))
				}
			}
			return m, opts, t, nil
		case errors.As(err, &unreachable):
			// The log names the type as well: a cluster that does not
			// answer (or none configured) is no news here.
		default:
			return auditlog.Match{}, nil, nil, err
		}
	}
	ns := flags.Namespace
	if ns == "" {
		if n, _, err := flags.ToRawKubeConfigLoader().Namespace(); err == nil {
			ns = n
		}
	}
	if ns == "" {
		ns = "default"
	}
	m, err := auditlog.MatchType(typ, ns, name)
	return m, nil, nil, err
}
