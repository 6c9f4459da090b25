package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/model/history"
)

func newHistoryCmd(flags *kube.ConnFlags) *cobra.Command {
	var logs []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history TYPE/NAME --audit-log FILE... [--json]",
		Short: "An object's history from API server audit logs, and the lost updates in it",
		Long: `history reads API server audit logs and prints the object's versions, oldest
first (resourceVersion, time, user, user agent, field manager, verb, and the
fields each changed), then its lost updates, blind writes, reverted values
and fights.

A lost update is a change a writer made that a later write by another client
replaced without having seen it: the later write carried no resourceVersion,
and its client last read the object (get, list, watch) before the change. A
blind write is a write with no resourceVersion by a client the log never saw
read the object, that replaced another client's value. A reverted value is a
write that set a field back to what it was before another client's change,
when that change is not counted lost (its writer read the object after it,
or the log has no read by it): the writer may have read it, but undid it. A
fight is a field whose value changed hands between the same two clients at
least 3 times. A JSON Patch's test operation (kedit set --if) is a read of
the field it tests at the moment of the write. A note names a client (user
and user agent) that wrote under two field managers: two tools of one user
are one client here, and a loss between them is not seen.

The logs are audit.k8s.io/v1 Event JSON lines, plain or gzip, in any order
(rotated files too), "-" for stdin; EKS, AKS and GKE exports are read as
they come (see the README). Files after TYPE/NAME are logs too, so that
--audit-log audit*.log works.

TYPE resolves as elsewhere when the cluster answers; without one (no
kubeconfig, or the server unreachable), it is read from the log: kubectl's
short names of the built-in types, RESOURCE.GROUP, or the plural or singular
resource name the log records. The namespace is -n, else the kubeconfig's,
else "default".

A Secret's values never appear: a lost value is "(secret)".

Exit status: 0 no lost update or reverted value, 1 lost updates or reverted
values found, 2 an error (an unreadable log, a line that is not audit JSON,
no event of the object).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHistory(cmd, flags, args, logs, asJSON)
		},
	}
	cmd.Flags().StringArrayVar(&logs, "audit-log", nil, "an API server audit log `FILE` (JSON lines, plain or gzip; - for stdin); repeat for more")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of the table")
	return cmd
}

func runHistory(cmd *cobra.Command, flags *kube.ConnFlags, args, logs []string, asJSON bool) error {
	stderr := cmd.ErrOrStderr()
	fail := func(err error) error {
		fmt.Fprintln(stderr, "kedit history:", escape.String(err.Error()))
		return &exitError{2}
	}
	typ, name, rest, err := kube.SplitObjectArgs(args)
	if err != nil {
		return fail(err)
	}
	logs = append(logs, rest...)
	if len(logs) == 0 {
		return fail(errors.New("give the audit log: --audit-log FILE"))
	}
	m, opts, err := historyMatch(flags, typ, name, stderr)
	if err != nil {
		return fail(err)
	}
	res, err := auditlog.Read(logs, cmd.InOrStdin(), m)
	if err != nil {
		return fail(err)
	}
	h := history.Analyze(res.Events, opts...)
	rep := h.Report(history.ReportObject{Resource: res.Resource, APIGroup: res.Group, Namespace: res.Namespace, Name: name})
	out := []byte(rep.Text())
	if asJSON {
		if out, err = rep.JSON(); err != nil {
			return fail(err)
		}
	}
	if _, err := cmd.OutOrStdout().Write(out); err != nil {
		return fail(err)
	}
	if len(h.LostUpdates)+len(h.Reverted) > 0 {
		return &exitError{1}
	}
	return nil
}

// historyMatch names the object in the log: through the cluster when it
// answers (TYPE as kedit resolves it elsewhere, and a custom resource's
// schema for comparing its versions), else from TYPE alone.
func historyMatch(flags *kube.ConnFlags, typ, name string, stderr io.Writer) (auditlog.Match, []diff.Option, error) {
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
			m := targetMatch(t)
			var opts []diff.Option
			if !kube.BuiltinKind(t) {
				if schemas, err := kube.LoadSchemas(flags, t); err == nil {
					opts = append(opts, diff.WithSchemas(schemas))
				}
			}
			return m, opts, nil
		case errors.As(err, &unreachable):
			fmt.Fprintf(stderr, "kedit history: %s; TYPE is read from the log\n", escape.String(err.Error()))
		default:
			return auditlog.Match{}, nil, err
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
	return m, nil, err
}
