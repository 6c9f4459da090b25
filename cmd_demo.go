package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui"
)

// newDemoCmd is `kedit demo`: a cluster of its own, two ConfigMaps and a
// second writer, for showing optimistic concurrency. It takes the root's
// connection flags only to point them at its own cluster.
func newDemoCmd(flags *kube.ConnFlags) *cobra.Command {
	var interval time.Duration
	var opts appOptions
	var where demo.Options
	cmd := &cobra.Command{
		Use:   "demo [TYPE/NAME]",
		Short: "Start a local API server with objects to edit and a second writer, and open kedit on one",
		Long: `demo starts a real Kubernetes API server (localcluster, found next to kedit or
on PATH; build it with make localcluster) in a fresh temporary directory,
creates configmap/testmap (foo: "1") and configmap/nginx-conf (an nginx.conf),
and opens kedit on testmap, or on TYPE/NAME.

A second writer, field manager demo-writer, changes the object every
--demo-interval: in turn the field you are most likely editing (testmap's foo,
nginx.conf's worker_connections line), so a save shows a conflict, and another
one (bar, the keepalive_timeout line), so a save shows a clean rebase.

W plays a colleague's kubectl edit: user alice reads the object, waits 5 s,
then writes that field back as she read it, with no resourceVersion, so a
value you saved meanwhile is lost. The cluster writes an audit log
(audit.log in the demo's directory), which the timeline (t) reads: her write
is marked LOST, enter shows what it lost, u puts it back as a draft.

Users alice and bob may edit the demo's ConfigMaps (RBAC: a Role and its
RoleBinding, kedit-demo-edit); anyone else gets the server's 403. The demo
prints, and shows under the keys on ?, how a second terminal joins the same
cluster as bob (export KUBECONFIG=DIR/cluster/kubeconfig; kedit --as bob
--field-manager kedit-bob configmap/testmap: bob's writes named as his on
every screen), or as alice with kubectl --as alice edit, so that two people
race each other on one object.

When kedit quits (also after Ctrl-C or a signal), the writer and the server
stop and the directory is removed. With --keep DIR the demo is made in DIR
and DIR is kept: its objects, their history and its audit log
(DIR/audit.log, for kedit history --audit-log); kedit demo --dir DIR starts
again on it. A DIR that is not a kept demo, or that another demo runs on, is
refused.

A has the writer set foo back to 1 first (when it is not), then races ten
kedit set /data/foo=2 --if /data/foo=1 at once through kedit's client (the
class question: set foo to 2 only if foo is 1) and says the one winner and
the refusals with the status the server sent (422 Unprocessable
Entity: a failed JSON Patch test). The writer's requests go through kedit's
client too: the request pane (L) marks them by demo-writer.

With --tour a line at the top of the screen says what to do next, step by
step as README's "Try it in two minutes" tells it (a draft, a same-field
conflict and its resolution, a clean rebase, the timeline, blame, the lost
update of W and its undo, the race of A), moves on when the session shows
the step done, and says what the step sent and what the server answered
(the 409 and both resourceVersions, the race's 200 and 422s). Each step
starts from a state the tour prepares: the writer's next write is the field
it needs, and before the first step, blame, the lost update and the race
demo-writer sets foo back to "1". alt+n skips a step. The writer writes only
on w unless --demo-interval is given.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fail := func(err error) error {
				fmt.Fprintln(cmd.ErrOrStderr(), "kedit demo:", escape.String(err.Error()))
				return &exitError{1}
			}
			if opts.tour && !cmd.Flags().Changed("demo-interval") {
				// The tour's steps say when the writer writes.
				interval = 0
			}
			if interval < 0 {
				return fail(fmt.Errorf("--demo-interval %s is negative", interval))
			}
			bin, err := demo.FindLocalCluster()
			if err != nil {
				return fail(err)
			}
			// A signal (the terminal closed, a kill) ends the demo the
			// way q does, so that the cleanup below runs; a crash leaves
			// the cluster to Pdeathsig and the directory to the next demo.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			fmt.Fprintln(cmd.ErrOrStderr(), "kedit demo: starting a local API server ...")
			d, err := demo.Open(ctx, bin, where)
			if err != nil {
				return fail(err)
			}
			// Deferred, so that a panic stops the cluster and removes the
			// directory too.
			defer func() {
				if err := d.Close(); err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "kedit demo:", escape.String(err.Error()))
					return
				}
				if d.Kept {
					dir := escape.String(d.Dir)
					fmt.Fprintf(cmd.ErrOrStderr(), "kedit demo: stopped the API server and kept %s: kedit demo --dir %s starts again on it; kedit history TYPE/NAME --audit-log %s replays its history\n",
						dir, dir, escape.String(d.AuditLog))
					return
				}
				fmt.Fprintln(cmd.ErrOrStderr(), "kedit demo: stopped the API server and removed", d.Dir)
			}()
			pointAt(flags, d)
			// Drafts stay inside the demo's directory: a demo's draft
			// means nothing to the next demo's fresh cluster.
			if err := os.Setenv("XDG_STATE_HOME", filepath.Join(d.Dir, "state")); err != nil {
				return fail(err)
			}
			if len(args) == 0 {
				args = []string{"configmap/testmap"}
			}
			// A class: how a second terminal joins as another user, said
			// now (it stays on the terminal after the demo) and on ?.
			// The commands without a prefix, to copy whole.
			opts.helpNote = demo.Join(d.Kubeconfig, args[0])
			fmt.Fprintln(cmd.ErrOrStderr(), "kedit demo:", escape.String(opts.helpNote[0]))
			for _, l := range opts.helpNote[1:] {
				fmt.Fprintln(cmd.ErrOrStderr(), escape.String(l))
			}
			opts.strategy = string(kube.StrategyUpdate)
			// The timeline reads the demo's own audit log: W's lost update
			// is marked there.
			opts.auditLogs = []string{d.AuditLog}
			editor, err := demo.EditorClient(d.Kubeconfig)
			if err != nil {
				return fail(err)
			}
			opts.started = func(ctx context.Context, client dynamic.Interface, target *kube.Target) (func(), ui.DemoWriter, error) {
				// The race's ten patches go at once, none held back by
				// the client's rate limit; through kedit's request log.
				rc, err := flags.ToRESTConfig()
				if err != nil {
					return nil, nil, err
				}
				racer, err := demo.RaceClient(rc)
				if err != nil {
					return nil, nil, err
				}
				w := demo.NewWriter(client, target, interval).WithEditor(editor).WithRacer(racer)
				w.Start(ctx)
				return w.Stop, w, nil
			}
			cmd.SetContext(ctx)
			return runApp(cmd, flags, opts, args)
		},
	}
	cmd.Flags().StringVar(&where.Keep, "keep", "", "make the demo in `DIR` (new or empty) and keep it when kedit quits: its objects, their history and audit.log")
	cmd.Flags().StringVar(&where.Dir, "dir", "", "start again on a demo kept with --keep `DIR`: the same objects and history")
	cmd.MarkFlagsMutuallyExclusive("keep", "dir")
	cmd.Flags().DurationVar(&interval, "demo-interval", demo.DefaultInterval, "how often the demo writer changes the object; 0 turns the timer off")
	cmd.Flags().BoolVar(&opts.tour, "tour", false, "a guided tour: a line at the top says what to do next and what each step sent and the server answered")
	cmd.Flags().StringVar(&opts.timelineOut, "timeline-out", "", "append each version observed to `FILE`, one JSON line each")
	return cmd
}

// pointAt makes the connection flags name the demo's cluster, whatever
// the environment's KUBECONFIG or the command line said, with kubectl's
// discovery cache inside the demo's directory.
func pointAt(flags *kube.ConnFlags, d *demo.Demo) {
	flags.KubeConfig, flags.Namespace, flags.CacheDir = d.Kubeconfig, demo.Namespace, filepath.Join(d.Dir, "cache")
	flags.Context, flags.ClusterName, flags.AuthInfoName = "", "", ""
}
