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

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui"
	"github.com/kedit/kedit/ui/pasteinput"
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
	allNamespaces     bool
	// exitAfterFirstFrame ends kedit once its first screen with the list
	// or the object is drawn: start-up made measurable.
	exitAfterFirstFrame bool
	yesGitOps           bool
	// selector and files are -l and -f: a set of objects.
	selector  string
	files     []string
	recursive bool
	// edit are kubectl edit's flags: -o, --subresource, --field-manager,
	// --output-patch.
	edit editOptions
	// auditLogs are --audit-log's files, for the timeline's history.
	auditLogs []string
	// started, when set, runs once the object is resolved and read, before
	// the UI starts (kedit demo starts its writer there, which the app's w
	// drives); the returned stop runs when the UI has ended.
	started func(ctx context.Context, client dynamic.Interface, target *kube.Target) (stop func(), demo ui.DemoWriter, err error)
}

func newRootCmd() *cobra.Command {
	// One set of kubectl connection flags, persistent, so that
	// `kedit -n ns TYPE/NAME` and `kedit set -n ns ...` read them alike.
	flags := kube.NewConnFlags()
	var opts appOptions
	root := &cobra.Command{
		Use:   "kedit [flags] [TYPE | TYPE/NAME... | TYPE NAME... | TYPE -l SELECTOR | -f FILE]",
		Short: "Conflict-safe editing of live Kubernetes objects",
		Long: `kedit edits a live Kubernetes object and saves it with its resourceVersion.
When someone else changed the object meanwhile it shows base, theirs and mine,
merges what does not collide and lets you resolve each real conflict.

Without an object it lists the objects of a type, live, to pick one from:
ConfigMaps in the current namespace, or TYPE; -A lists every namespace.

Several objects (TYPE/NAME TYPE/NAME, TYPE NAME NAME), a label selector
(-l, with -A in every namespace) or the live objects that manifests name
(-f FILE, a directory or -) open a set: a list of the objects, each watched,
edited one at a time or all in one $EDITOR file, and saved each with its own
resourceVersion.

  kedit
  kedit deploy -A
  kedit configmap/testmap
  kedit -n kube-system deployment coredns --strategy apply
  kedit cm/app-config deploy/web
  kedit cm -l app=web
  kedit -f manifests/
  kedit -f manifests/ -R`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
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
	root.Flags().BoolVarP(&opts.allNamespaces, "all-namespaces", "A", false, "list the type's objects in every namespace")
	root.Flags().BoolVar(&opts.exitAfterFirstFrame, "exit-after-first-frame", false, "exit once the first screen with the list, the object or the set is drawn (for benchmarks)")
	root.Flags().StringVar(&opts.timelineOut, "timeline-out", "", "append each version observed to `FILE`, one JSON line each (rv, time, manager, operation, changed paths; never a value)")
	root.Flags().StringVarP(&opts.selector, "selector", "l", "", "open a set: the objects of TYPE that match the label `SELECTOR` (app=web, tier in (a,b))")
	root.Flags().StringArrayVarP(&opts.files, "filename", "f", nil, "open a set: the live objects the manifests in `FILE` name (a file, a directory's .yaml/.yml/.json files (with -R, and those below it), or - for stdin; repeatable)")
	root.Flags().BoolVarP(&opts.recursive, "recursive", "R", false, "read the directories of -f recursively, as kubectl edit -f DIR -R does")
	root.Flags().BoolVar(&opts.yesGitOps, "yes-gitops", false, "save an object that Flux, Argo CD or Helm reconciles without asking first (a save may be reverted)")
	opts.edit.addFlags(root.Flags())
	root.Flags().StringArrayVar(&opts.auditLogs, "audit-log", nil, "an API server audit log `FILE` (plain or gzip; repeat for more): the timeline starts with the object's history from it, its lost updates marked LOST")
	root.AddCommand(newVersionCmd())
	root.AddCommand(newMergeCmd())
	root.AddCommand(newConditionalPatchCmd(flags))
	root.AddCommand(newDemoCmd(flags))
	root.AddCommand(newDraftsCmd(flags))
	root.AddCommand(newHistoryCmd(flags))
	return root
}

// runApp opens the browser (no arguments: ConfigMaps; TYPE), the object
// (TYPE/NAME, TYPE NAME) or a set (several objects, -l, -f) and runs the
// UI. Errors before the UI starts are printed on stderr with exit status
// 1; a stdout that is not a terminal, with 2.
func runApp(cmd *cobra.Command, flags *kube.ConnFlags, opts appOptions, args []string) error {
	fail := func(err error) error {
		// The error may quote the server (a 403, an unknown type): escaped.
		fmt.Fprintln(cmd.ErrOrStderr(), "kedit:", escape.String(err.Error()))
		var usage *usageExit
		if errors.As(err, &usage) {
			return &exitError{2}
		}
		return &exitError{1}
	}
	if opts.recursive && len(opts.files) == 0 {
		return fail(errors.New("-R reads the directories that -f names recursively: give -f DIR with it"))
	}
	src, set := setSource(cmd, flags, opts, args)
	// Without an object, the browser: on ConfigMaps, or on TYPE.
	browse := !set && len(args) <= 1 && (len(args) == 0 || !strings.Contains(args[0], "/"))
	var typ, name string
	switch {
	case set:
		if opts.allNamespaces && opts.selector == "" {
			return fail(errors.New("-A lists every namespace, in the browser (TYPE) or for a selector (TYPE -l SELECTOR): not with objects named one by one or -f"))
		}
		if len(opts.auditLogs) > 0 {
			return fail(errors.New("--audit-log reads one object's history: give TYPE/NAME, not a set (open the object from the set to see its timeline)"))
		}
	case browse:
		typ = "configmaps"
		if len(args) == 1 {
			typ = args[0]
		}
	default:
		var rest []string
		var err error
		// Several objects are a set (setSource), but with --audit-log,
		// where the arguments after the object are logs too.
		if typ, name, rest, err = kube.SplitObjectArgs(args); err != nil {
			return fail(err)
		}
		if len(rest) > 0 && len(opts.auditLogs) > 0 {
			// As for kedit history: --audit-log audit*.log works.
			opts.auditLogs, rest = append(opts.auditLogs, rest...), nil
		}
		if len(rest) > 0 {
			return fail(fmt.Errorf("kedit edits one object; unexpected arguments: %s", strings.Join(rest, " ")))
		}
		if opts.allNamespaces {
			return fail(errors.New("-A lists every namespace, in the browser (TYPE) or for a selector (TYPE -l SELECTOR): not with TYPE/NAME"))
		}
	}
	strategy, err := kube.ParseStrategy(opts.strategy)
	if err != nil {
		return fail(err)
	}
	edit, err := opts.edit.parse(cmd)
	if err != nil {
		return fail(err)
	}
	// Each object of a set edits the subresource, as one object does.
	src.Subresource = edit.subresource
	if err := needTerminal(cmd); err != nil {
		return err
	}
	if err := checkAuditLogs(opts.auditLogs); err != nil {
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
		// Every request, discovery's included, with its status and time.
		flags.WrapConfigFn = func(c *rest.Config) *rest.Config { return kube.LogRequests(c, log.Printf) }
		edit.logToDebug()
	}
	// The server's warnings go to the save that got them (and --debug's
	// log), never to stderr, which belongs to the renderer.
	var warnLog func(string)
	if opts.debug != "" {
		warnLog = func(w string) { log.Print("server warning: " + w) }
	}
	wrapped := flags.WrapConfigFn
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config {
		if wrapped != nil {
			c = wrapped(c)
		}
		return kube.CollectWarnings(c, warnLog)
	}
	edit.wrapConfig(flags)
	cluster, err := kube.Connect(flags)
	if err != nil {
		return fail(err)
	}
	// The watches log through the context's logger, never to stderr, which
	// belongs to the renderer.
	ctx = logr.NewContext(ctx, logger)

	store, err := drafts.NewStore(opts.allowSecretDrafts)
	if err != nil {
		return fail(err)
	}
	o := &opener{Cluster: cluster, flags: flags, store: store, strategy: strategy, logger: logger, started: opts.started,
		format: edit.format, subresource: edit.subresource, fieldManager: edit.manager, validation: edit.validation, auditLogs: opts.auditLogs}
	if opts.timelineOut != "" {
		if o.timeline, err = kube.OpenTimelineLog(opts.timelineOut); err != nil {
			return fail(err)
		}
	}
	// However the app ends, every object's latest draft goes to the store.
	defer o.closeAll(cmd.ErrOrStderr())
	cfg := ui.Config{Cluster: o, AutoRebase: opts.autoRebase, Context: ctx, ExitAfterFirstFrame: opts.exitAfterFirstFrame,
		YesGitOps: opts.yesGitOps, Subresource: edit.subresource}
	switch {
	case set:
		if cfg.Set, err = openSet(ctx, cmd, o, src, opts); err != nil {
			return fail(err)
		}
	case browse:
		list, first, err := startList(ctx, o, typ, opts.allNamespaces)
		if err != nil {
			return fail(err)
		}
		defer list.Stop()
		cfg.List, cfg.First = list, first
	default:
		target, err := kube.Resolve(flags, typ, name)
		if err != nil {
			return fail(err)
		}
		if err := kube.WithSubresource(flags, target, edit.subresource); err != nil {
			return fail(err)
		}
		// Read once before the UI starts, so that a missing or forbidden
		// object is said on the terminal, not inside a screen that then
		// has nothing.
		if cfg.Object, err = o.Open(ctx, target); err != nil {
			return fail(err)
		}
	}
	if err := uiNeedsTerminal(cmd, opts); err != nil {
		return fail(err)
	}
	// $EDITOR files that killed kedits left behind hold drafts, maybe a
	// Secret's values.
	_ = ui.RemoveEditorFiles(false)

	// kedit handles the signals that end it itself: Bubble Tea quits at
	// once on SIGTERM (or ignores it while $EDITOR runs) and leaves SIGHUP
	// to kill it. The app quits once $EDITOR is back; then the drafts are
	// stored, and kedit exits with 128 + the signal's number.
	//
	// The terminal is read through kedit's paste filter: Bubble Tea v1's
	// reader takes a time that grows with the square of a paste's size.
	var input io.Reader = pasteinput.Wrap(cmd.InOrStdin())
	if f, ok := cmd.InOrStdin().(*os.File); ok && opts.exitAfterFirstFrame && !term.IsTerminal(int(f.Fd())) {
		// A benchmark's stdin (hyperfine's /dev/null) cannot be polled,
		// and nothing is typed before the first frame anyway.
		input = nil
	}
	p := tea.NewProgram(ui.New(cfg), tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx),
		tea.WithInput(input), tea.WithOutput(cmd.OutOrStdout()), tea.WithoutSignalHandler())
	received, stop := relaySignals(p)
	defer stop()
	_, err = p.Run()
	// The drafts are stored before the $EDITOR files go: a draft only the
	// in-app editor held was taken as the draft when the app ended.
	o.closeAll(cmd.ErrOrStderr())
	_ = ui.RemoveEditorFiles(true)
	edit.printRecord(cmd.ErrOrStderr())
	if sig := received(); sig != 0 {
		return &exitError{128 + int(sig)}
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(err)
	}
	return nil
}

// startList resolves typ and starts its live list, and waits for the
// first complete list, so that a refused one is said on the terminal
// before the UI starts, and the first screen has the rows. A server that
// cannot be reached is the UI's to show (reconnecting).
func startList(ctx context.Context, o *opener, typ string, all bool) (ui.List, *kube.BrowseSnapshot, error) {
	coll, err := o.Collection(typ, all)
	if err != nil {
		return nil, nil, err
	}
	// Said now, not when an object is picked: the type has no such
	// subresource.
	if err := kube.HasSubresource(o.flags, coll.Mapping.Resource, o.subresource); err != nil {
		return nil, nil, err
	}
	list, err := o.Browse(ctx, coll)
	if err != nil {
		return nil, nil, err
	}
	for snap := range list.Snapshots() {
		switch {
		case snap.Connection.State == kube.Refused:
			list.Stop()
			return nil, nil, snap.Connection.Err
		case snap.Synced || snap.Connection.State == kube.Reconnecting:
			return list, &snap, nil
		}
	}
	// Closed: the context ended.
	return nil, nil, ctx.Err()
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
		fmt.Fprintln(os.Stderr, "kedit:", escape.String(err.Error()))
		os.Exit(2)
	}
}
