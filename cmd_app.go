package main

import (
	"bufio"
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
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kedit/kedit/internal/cluster"
	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/libout"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/ui"
	"github.com/kedit/kedit/ui/pasteinput"
)

// The root command's run: kedit TYPE/NAME, a set, or the browser, opened
// through internal/cluster and shown by ui.App.

// runApp opens the browser (no arguments: ConfigMaps; TYPE), the object
// (TYPE/NAME, TYPE NAME) or a set (several objects, -l, -f) and runs the
// UI. Errors before the UI starts are printed on stderr with exit status
// 1; a stdout that is not a terminal, with 2.
func runApp(cmd *cobra.Command, flags *kube.ConnFlags, opts appOptions, args []string) error {
	fail := func(err error) error { return failed(cmd.ErrOrStderr(), err) }
	named, err := readArgs(cmd, flags, &opts, args)
	if err != nil {
		return fail(err)
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
	named.src.Subresource = edit.subresource
	if err := needTerminal(cmd); err != nil {
		return err
	}
	if err := checkAuditLogs(opts.auditLogs); err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	logger, requests, closeLog, err := setUpLogs(flags, opts.debug, edit)
	if err != nil {
		return fail(err)
	}
	defer closeLog()
	o, err := newOpener(flags, opts, edit, strategy, logger)
	if err != nil {
		return fail(err)
	}
	// The watches log through the context's logger, never to stderr, which
	// belongs to the renderer.
	ctx = logr.NewContext(ctx, logger)
	// However the app ends, every object's latest draft goes to the store.
	defer o.CloseAll(cmd.ErrOrStderr())
	cfg := ui.Config{Cluster: o, AutoRebase: opts.autoRebase, Context: ctx, ExitAfterFirstFrame: opts.exitAfterFirstFrame,
		YesGitOps: opts.yesGitOps, Subresource: edit.subresource, Requests: requests, SourceDir: opts.sourceDir}
	cfg.HelpNote = opts.helpNote
	cfg.Tour = opts.tour
	stopList, err := openNamed(ctx, cmd, flags, o, named, opts, &cfg)
	if err != nil {
		return fail(err)
	}
	defer stopList()
	if err := uiNeedsTerminal(cmd, opts); err != nil {
		return fail(err)
	}
	sig, err := runUI(ctx, cmd, cfg, o, edit, opts.debug != "")
	if sig != 0 {
		return &exitError{128 + int(sig)}
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(err)
	}
	return nil
}

// failed says err on stderr and is the exit status it calls for: 2 for a
// command that cannot run as invoked (usageExit), else 1.
func failed(stderr io.Writer, err error) error {
	// The error may quote the server (a 403, an unknown type): escaped.
	fmt.Fprintln(stderr, "kedit:", escape.String(err.Error()))
	var usage *usageExit
	if errors.As(err, &usage) {
		return &exitError{2}
	}
	return &exitError{1}
}

// namedArgs is what the root command's arguments name: a set (src), the
// browser on typ, or the object typ/name.
type namedArgs struct {
	set, browse bool
	src         kube.SetSource
	typ, name   string
}

// readArgs reads what the arguments name, and refuses the flags that do
// not go with it. With one object, the arguments after it are audit logs
// when --audit-log is given, added to opts.auditLogs.
func readArgs(cmd *cobra.Command, flags *kube.ConnFlags, opts *appOptions, args []string) (namedArgs, error) {
	var n namedArgs
	if opts.recursive && len(opts.files) == 0 {
		return n, errors.New("-R reads the directories that -f names recursively: give -f DIR with it")
	}
	n.src, n.set = setSource(cmd, flags, *opts, args)
	// Without an object, the browser: on ConfigMaps, or on TYPE.
	n.browse = !n.set && len(args) <= 1 && (len(args) == 0 || !strings.Contains(args[0], "/"))
	switch {
	case n.set:
		if opts.allNamespaces && opts.selector == "" {
			return n, errors.New("-A lists every namespace, in the browser (TYPE) or for a selector (TYPE -l SELECTOR): not with objects named one by one or -f")
		}
		if len(opts.auditLogs) > 0 {
			return n, errors.New("--audit-log reads one object's history: give TYPE/NAME, not a set (open the object from the set to see its timeline)")
		}
	case n.browse:
		n.typ = "configmaps"
		if len(args) == 1 {
			n.typ = args[0]
		}
	default:
		var rest []string
		var err error
		// Several objects are a set (setSource), but with --audit-log,
		// where the arguments after the object are logs too.
		if n.typ, n.name, rest, err = kube.SplitObjectArgs(args); err != nil {
			return n, err
		}
		if len(rest) > 0 && len(opts.auditLogs) > 0 {
			// As for kedit history: --audit-log audit*.log works.
			opts.auditLogs, rest = append(opts.auditLogs, rest...), nil
		}
		if len(rest) > 0 {
			return n, fmt.Errorf("kedit edits one object; unexpected arguments: %s", strings.Join(rest, " "))
		}
		if opts.allNamespaces {
			return n, errors.New("-A lists every namespace, in the browser (TYPE) or for a selector (TYPE -l SELECTOR): not with TYPE/NAME")
		}
	}
	return n, nil
}

// setUpLogs points what kedit logs at --debug's file (debug), or nowhere:
// klog, every request (discovery's included, or a line saying it was read
// from kubectl's cache) with its status and time,
// --output-patch's record, and the server's warnings, which otherwise go
// only to the save that got them. Every request goes to the request log
// (requests), the request pane's, with or without --debug, whose log
// gets its lines. closeLog closes the file.
func setUpLogs(flags *kube.ConnFlags, debug string, edit editSettings) (logger logr.Logger, requests *kube.RequestLog, closeLog func(), err error) {
	logger, closeLog = logr.Discard(), func() {}
	var requestLine func(string, ...any)
	// The server's warnings never go to stderr, which belongs to the
	// renderer.
	var warnLog func(string)
	if debug != "" {
		f, err := tea.LogToFile(debug, "kedit")
		if err != nil {
			return logger, nil, nil, err
		}
		closeLog = func() { _ = f.Close() }
		logger = funcr.New(func(prefix, args string) { log.Println(prefix, args) }, funcr.Options{Verbosity: 4})
		klog.SetLogger(logger)
		requestLine = log.Printf
		flags.Debugf = log.Printf
		edit.logToDebug()
		warnLog = func(w string) { log.Print("server warning: " + w) }
	}
	requests = kube.NewRequestLog(requestLine)
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config { return kube.LogRequests(c, requests) }
	wrapped := flags.WrapConfigFn
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config {
		if wrapped != nil {
			c = wrapped(c)
		}
		return kube.CollectWarnings(c, warnLog)
	}
	edit.wrapConfig(flags)
	return logger, requests, closeLog, nil
}

// newOpener connects to the cluster and builds the app's ui.Cluster from
// the command line's settings.
func newOpener(flags *kube.ConnFlags, opts appOptions, edit editSettings, strategy kube.Strategy, logger logr.Logger) (*cluster.Opener, error) {
	c, err := kube.Connect(flags)
	if err != nil {
		return nil, err
	}
	store, err := drafts.NewStore(opts.allowSecretDrafts)
	if err != nil {
		return nil, err
	}
	return cluster.New(c, cluster.Options{Flags: flags, Store: store, Strategy: strategy, Logger: logger, Started: opts.started,
		Format: edit.format, Subresource: edit.subresource, FieldManager: edit.manager, Validation: edit.validation,
		AuditLogs: opts.auditLogs, AuditToken: opts.auditToken, TimelineOut: opts.timelineOut})
}

// openNamed opens what the arguments name into cfg: the set, the
// browser's first list (stopList stops it), or the object.
func openNamed(ctx context.Context, cmd *cobra.Command, flags *kube.ConnFlags, o *cluster.Opener, named namedArgs, opts appOptions, cfg *ui.Config) (stopList func(), err error) {
	stopList = func() {}
	switch {
	case named.set:
		cfg.Set, err = openSet(ctx, cmd, o, named.src, opts)
		return stopList, err
	case named.browse:
		list, first, err := o.StartList(ctx, named.typ, opts.allNamespaces)
		if err != nil {
			return stopList, err
		}
		cfg.List, cfg.First = list, first
		return list.Stop, nil
	}
	target, err := kube.Resolve(flags, named.typ, named.name)
	if err != nil {
		return stopList, err
	}
	if err := kube.WithSubresource(flags, target, cfg.Subresource); err != nil {
		return stopList, err
	}
	// Read once before the UI starts, so that a missing or forbidden
	// object is said on the terminal, not inside a screen that then has
	// nothing.
	cfg.Object, err = o.Open(ctx, target)
	return stopList, err
}

// runUI runs the app until it ends, then stores every object's latest
// draft and prints --output-patch's record; sig is the signal that ended
// it, 0 for none. debug: --debug's log takes the standard logger.
func runUI(ctx context.Context, cmd *cobra.Command, cfg ui.Config, o *cluster.Opener, edit editSettings, debug bool) (sig syscall.Signal, err error) {
	// $EDITOR files that killed kedits left behind hold drafts, maybe a
	// Secret's values.
	_ = ui.RemoveEditorFiles(false)
	p := newProgram(ctx, cmd, cfg)
	received, stop := relaySignals(p)
	defer stop()
	// What libraries print (the kustomize API's warnings, a log line)
	// would land on the screen over the app: it is caught while the app
	// runs, and the source diff shows its build's share. With --debug the
	// standard logger writes kedit's log to its file and stays so.
	_, stopCapture := libout.Start(!debug)
	_, err = p.Run()
	stopCapture()
	// The drafts are stored before the $EDITOR files go: a draft only the
	// in-app editor held was taken as the draft when the app ended.
	o.CloseAll(cmd.ErrOrStderr())
	_ = ui.RemoveEditorFiles(true)
	edit.printRecord(cmd.ErrOrStderr())
	return received(), err
}

// newProgram is the app's Bubble Tea program on cmd's terminal.
//
// kedit handles the signals that end it itself (relaySignals): Bubble Tea
// quits at once on SIGTERM (or ignores it while $EDITOR runs) and leaves
// SIGHUP to kill it. The app quits once $EDITOR is back; then the drafts
// are stored, and kedit exits with 128 + the signal's number.
//
// The terminal is read through kedit's paste filter: Bubble Tea v1's
// reader takes a time that grows with the square of a paste's size.
func newProgram(ctx context.Context, cmd *cobra.Command, cfg ui.Config) *tea.Program {
	var input io.Reader = pasteinput.Wrap(cmd.InOrStdin())
	if f, ok := cmd.InOrStdin().(*os.File); ok && cfg.ExitAfterFirstFrame && !term.IsTerminal(int(f.Fd())) {
		// A benchmark's stdin (hyperfine's /dev/null) cannot be polled,
		// and nothing is typed before the first frame anyway.
		input = nil
	}
	// A copy in the in-app editor goes to the terminal's clipboard.
	cfg.Clipboard = cmd.OutOrStdout()
	useTerminalProfile(cmd.OutOrStdout())
	return tea.NewProgram(ui.New(cfg), tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx),
		tea.WithInput(input), tea.WithOutput(cmd.OutOrStdout()), tea.WithoutSignalHandler())
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

// askAbove is the size of a set above which kedit asks before opening it:
// a selector that matches more than meant (app=web in a namespace of
// thousands) should not open a watch of each at once.
var askAbove = 500

// setSource reads from the arguments and flags whether they name a set,
// and which: several objects (kubectl's TYPE/NAME TYPE/NAME or TYPE NAME
// NAME), a selector (-l) or manifests (-f).
func setSource(cmd *cobra.Command, flags *kube.ConnFlags, opts appOptions, args []string) (kube.SetSource, bool) {
	src := kube.SetSource{Args: args, Selector: opts.selector, Files: opts.files, Recursive: opts.recursive, AllNamespaces: opts.allNamespaces,
		Stdin: cmd.InOrStdin(), NamespaceFlag: flags.Namespace}
	// With --audit-log the arguments after the object are logs
	// (--audit-log audit*.log), so only -l and -f make a set.
	return src, len(opts.files) > 0 || opts.selector != "" || len(opts.auditLogs) == 0 && kube.SplitSetArgs(args)
}

// openSet reads the set's objects and opens them. Above askAbove objects
// it asks on the terminal first; no answers no. stdout must be a terminal
// before anything is asked (uiNeedsTerminal).
func openSet(ctx context.Context, cmd *cobra.Command, o *cluster.Opener, src kube.SetSource, opts appOptions) (*ui.Set, error) {
	objs, err := o.ReadSet(ctx, src)
	if err != nil {
		return nil, err
	}
	if err := uiNeedsTerminal(cmd, opts); err != nil {
		return nil, err
	}
	if len(objs) > askAbove {
		fmt.Fprintf(cmd.ErrOrStderr(), "kedit: %s names %s; open them all? (y/n) ", cluster.SetTitle(src, objs), words.Count(len(objs), "object"))
		answer, _ := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
		if a := strings.TrimSpace(strings.ToLower(answer)); a != "y" && a != "yes" {
			return nil, errors.New("nothing opened")
		}
	}
	return o.OpenSet(ctx, objs, cluster.SetTitle(src, objs))
}

// checkAuditLogs says, before the UI starts, what is wrong with the audit
// logs --audit-log gives the object view: a file that cannot be read, is
// no audit log or is corrupt within (naming the file and line; every line
// is checked), stdin, which is the terminal's, or a log engine's URL that
// is none (an engine is asked when the timeline opens).
func checkAuditLogs(files []string) error {
	var plain []string
	for _, f := range files {
		switch {
		case f == auditlog.Stdin:
			return errors.New("--audit-log -: kedit reads the terminal on stdin; give the audit log as a file (kedit history reads one on stdin)")
		case cluster.IsEngineURL(f):
			if _, err := cluster.AuditSources([]string{f}, cluster.AuditOptions{}); err != nil {
				return fmt.Errorf("--audit-log: %w", err)
			}
		default:
			plain = append(plain, f)
		}
	}
	if err := auditlog.Check(plain); err != nil {
		return fmt.Errorf("--audit-log: %w", err)
	}
	return nil
}
