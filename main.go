// Command kedit is a terminal UI for conflict-safe editing of live
// Kubernetes objects: it saves with the object's resourceVersion and, when
// someone else changed the object meanwhile, shows base, theirs and mine and
// lets the user decide.
//
// main.go holds the root command and its UI; cmd_*.go hold the
// subcommands. All of them are flags and wiring only.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui"
)

// version is kedit's version, set at build time with
// -ldflags "-X main.version=v1.2.3"; without it the module version from the
// build info is used (right for `go install ...@vX`).
var version = ""

// exitError carries an exit status out of a command without printing
// anything more: the command has already said what went wrong.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// appOptions are the root command's own flags.
type appOptions struct {
	strategy          string
	allowSecretDrafts bool
	autoRebase        bool
	debug             string
	timelineOut       string
	yesGitOps         bool
	// started, when set, runs once the object is resolved and read, before
	// the UI starts (kedit demo starts its writer there, which the app's w
	// drives); the returned stop runs when the UI has ended.
	started func(ctx context.Context, client dynamic.Interface, target *kube.Target) (stop func(), demo ui.DemoWriter, err error)
}

func newRootCmd() *cobra.Command {
	// One set of kubectl connection flags, persistent, so that
	// `kedit -n ns TYPE/NAME` and `kedit set -n ns ...` read them alike.
	flags := genericclioptions.NewConfigFlags(true)
	var opts appOptions
	root := &cobra.Command{
		Use:   "kedit [flags] TYPE/NAME | TYPE NAME",
		Short: "Conflict-safe editing of live Kubernetes objects",
		Long: `kedit edits a live Kubernetes object and saves it with its resourceVersion.
When someone else changed the object meanwhile it shows base, theirs and mine,
merges what does not collide and lets you resolve each real conflict.

  kedit configmap/testmap
  kedit -n kube-system deployment coredns --strategy apply`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return runApp(cmd, flags, opts, args)
		},
	}
	flags.AddFlags(root.PersistentFlags())
	strategies := make([]string, len(kube.Strategies))
	for i, s := range kube.Strategies {
		strategies[i] = string(s)
	}
	root.Flags().StringVar(&opts.strategy, "strategy", string(kube.StrategyUpdate),
		"how a save is sent: "+strings.Join(strategies, ", ")+"; each carries base's resourceVersion")
	root.Flags().BoolVar(&opts.allowSecretDrafts, "allow-secret-drafts", false, "store drafts of Secrets on disk (0600) too; without it they stay in memory")
	root.Flags().BoolVar(&opts.autoRebase, "auto-rebase", false, "resubmit a clean rebase after a conflict without asking, and report what was merged")
	root.Flags().StringVar(&opts.debug, "debug", "", "write a debug log to `FILE` (kedit-debug.log when given without a value)")
	root.Flags().Lookup("debug").NoOptDefVal = "kedit-debug.log"
	root.Flags().StringVar(&opts.timelineOut, "timeline-out", "", "append each version observed to `FILE`, one JSON line each (rv, time, manager, operation, changed paths; never a value)")
	root.Flags().BoolVar(&opts.yesGitOps, "yes-gitops", false, "save an object that Flux, Argo CD or Helm reconciles without asking first (a save may be reverted)")
	root.AddCommand(newVersionCmd())
	root.AddCommand(newMergeCmd())
	root.AddCommand(newSetCmd(flags))
	root.AddCommand(newDemoCmd(flags))
	root.AddCommand(newDraftsCmd(flags))
	return root
}

// runApp resolves the object, reads it, and runs the UI on it. Errors before
// the UI starts are printed on stderr with exit status 1.
func runApp(cmd *cobra.Command, flags *genericclioptions.ConfigFlags, opts appOptions, args []string) error {
	fail := func(err error) error {
		// The error may quote the server (a 403, an unknown type): escaped.
		fmt.Fprintln(cmd.ErrOrStderr(), "kedit:", kube.EscapeControl(err.Error()))
		return &exitError{1}
	}
	typ, name, rest, err := kube.SplitObjectArgs(args)
	if err != nil {
		return fail(err)
	}
	if len(rest) > 0 {
		return fail(fmt.Errorf("kedit edits one object; unexpected arguments: %s", strings.Join(rest, " ")))
	}
	strategy, err := kube.ParseStrategy(opts.strategy)
	if err != nil {
		return fail(err)
	}
	target, err := kube.Resolve(flags, typ, name)
	if err != nil {
		return fail(err)
	}
	rc, err := flags.ToRESTConfig()
	if err != nil {
		return fail(err)
	}
	client, err := dynamic.NewForConfig(rc)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	logger := logr.Discard()
	if opts.debug != "" {
		f, err := tea.LogToFile(opts.debug, "kedit")
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		logger = funcr.New(func(prefix, args string) { log.Println(prefix, args) }, funcr.Options{Verbosity: 4})
		klog.SetLogger(logger)
	}
	// The watch logs through the context's logger, never to stderr, which
	// belongs to the renderer.
	ctx = logr.NewContext(ctx, logger)

	// Read once before the UI starts, so that a missing or forbidden object
	// is said on the terminal, not inside a screen that then has nothing.
	obj, err := kube.Get(ctx, client, target)
	if err != nil {
		return fail(err)
	}
	drafts, err := kube.NewDraftStore(opts.allowSecretDrafts)
	if err != nil {
		return fail(err)
	}
	// Drafts of this object on this cluster; the other kedits editing it
	// keep theirs in files of their own.
	objDrafts := drafts.Open(target, string(obj.GetUID()))
	defer objDrafts.Close()
	// $EDITOR files that killed kedits left behind hold drafts, maybe a
	// Secret's values.
	_ = ui.RemoveEditorFiles(false)
	// The first conflict should not wait for client-go's schemas to parse.
	go diff.LoadBuiltinSchemas()

	// The server's schema of the object's group-version tells the merge
	// which lists of a custom resource merge item by item. It is read once
	// and kept on disk; without it the merge falls back to client-go's
	// schemas, then to treating every list as one value.
	var mergeOpts []diff.Option
	var notice string
	if schemas, err := kube.LoadSchemas(flags, target); err == nil {
		mergeOpts = append(mergeOpts, diff.WithSchemas(schemas))
	} else {
		logger.Info("no server schema", "err", err.Error())
		notice = "could not read the server's schema (" + err.Error() + "): lists of custom resources merge as one value"
	}

	runner := &kube.Runner{Client: client, Target: target, Strategy: strategy, Drafts: objDrafts, MergeOptions: mergeOpts}
	sess := model.NewSession(target.Ref(), mergeOpts...)
	if opts.timelineOut != "" {
		if runner.TimelineOut, err = kube.OpenTimelineLog(opts.timelineOut); err != nil {
			return fail(err)
		}
		defer runner.TimelineOut.Close()
		sess.EmitTimeline()
	}
	_, effects, err := sess.Handle(model.Opened{Object: obj, At: time.Now()})
	if err != nil {
		return fail(err)
	}
	for _, eff := range effects {
		if _, err := runner.Perform(ctx, eff); err != nil {
			return fail(err)
		}
	}
	// A client of the watch's own, whose connections it keeps an eye on:
	// a server that goes away is said at once (kube.NewWatchForConfig).
	watch, err := kube.NewWatchForConfig(rc, target)
	if err != nil {
		return fail(err)
	}
	if err := watch.Start(ctx); err != nil {
		return fail(err)
	}
	defer watch.Stop()
	runner.Cached = watch.Latest
	var demo ui.DemoWriter
	if opts.started != nil {
		stop, d, err := opts.started(ctx, client, target)
		if err != nil {
			return fail(err)
		}
		defer stop()
		demo = d
	}
	app := ui.New(ui.Config{
		Session:    sess,
		Runner:     runner,
		Events:     watch.Events(),
		Drafts:     objDrafts,
		AutoRebase: opts.autoRebase,
		Context:    ctx,
		Notice:     notice,
		Demo:       demo,
		YesGitOps:  opts.yesGitOps,
	})
	// kedit handles the signals that end it itself: Bubble Tea quits at
	// once on SIGTERM (or ignores it while $EDITOR runs) and leaves SIGHUP
	// to kill it. The app quits once $EDITOR is back; then the draft is
	// stored, and kedit exits with 128 + the signal's number.
	p := tea.NewProgram(app, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx),
		tea.WithInput(cmd.InOrStdin()), tea.WithOutput(cmd.OutOrStdout()), tea.WithoutSignalHandler())
	received, stop := relaySignals(p)
	defer stop()
	final, err := p.Run()
	// However the app ended, the store gets the latest draft: the last
	// write may still have been on its way.
	storeLatest(cmd.ErrOrStderr(), runner, final)
	objDrafts.Close()
	_ = ui.RemoveEditorFiles(true)
	if sig := received(); sig != 0 {
		return &exitError{128 + int(sig)}
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(err)
	}
	return nil
}

// relaySignals hands SIGHUP, SIGTERM and SIGINT to the app as
// ui.SignalMsg. Sending waits while $EDITOR has the terminal, which is
// what makes the app end only once the editor is back. received tells the
// last signal, 0 for none; stop ends the relay.
func relaySignals(p *tea.Program) (received func() syscall.Signal, stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				got.Store(int32(s.(syscall.Signal)))
				p.Send(ui.SignalMsg{Signal: s})
			case <-done:
				return
			}
		}
	}()
	return func() syscall.Signal { return syscall.Signal(got.Load()) }, func() { signal.Stop(ch); close(done) }
}

// storeLatest brings the draft store up to the app's session. A Secret's
// draft kept in memory stays there; any other failure is said on stderr,
// the terminal being the app's no more.
func storeLatest(stderr io.Writer, r *kube.Runner, final tea.Model) {
	app, ok := final.(ui.App)
	if !ok {
		return
	}
	_, err := r.Perform(context.Background(), app.Session().StoreDraft())
	var secret *kube.SecretDraftError
	if err != nil && !errors.As(err, &secret) {
		fmt.Fprintln(stderr, "kedit:", kube.EscapeControl(err.Error()))
	}
}

func main() {
	// client-go logs through klog to stderr (discovery's "Couldn't get
	// current server API group list" before kedit can say it better), and
	// stderr belongs to the renderer: klog goes to --debug's log, or
	// nowhere.
	klog.SetLogger(logr.Discard())
	if err := newRootCmd().Execute(); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "kedit:", kube.EscapeControl(err.Error()))
		os.Exit(2)
	}
}
