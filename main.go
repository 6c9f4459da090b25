// Command kedit is a terminal UI for conflict-safe editing of live
// Kubernetes objects: it saves with the object's resourceVersion and, when
// someone else changed the object meanwhile, shows base, theirs and mine and
// lets the user decide.
//
// main.go holds the root command and its UI; cmd_*.go hold the
// subcommands. All of them are flags and wiring only.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	"github.com/kedit/kedit/internal/cluster"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/memlimit"
	"github.com/kedit/kedit/kube"
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
	sourceDir           string
	// selector and files are -l and -f: a set of objects.
	selector  string
	files     []string
	recursive bool
	// edit are kubectl edit's flags: -o, --subresource, --field-manager,
	// --output-patch.
	edit editOptions
	// auditLogs are --audit-log's files and log engines' URLs, for the
	// timeline's history; auditToken is --audit-token, an engine's bearer
	// token.
	auditLogs  []string
	auditToken string
	// started, when set, runs once the object is resolved and read, before
	// the UI starts (kedit demo starts its writer there, which the app's w
	// drives); the returned stop runs when the UI has ended.
	started cluster.StartFunc
	// helpNote is said on the help page under the keys (kedit demo: how
	// a second terminal joins its cluster).
	helpNote []string
	// tour draws kedit demo --tour's line over every view.
	tour bool
}

func newRootCmd() *cobra.Command {
	// One set of kubectl connection flags, persistent, so that
	// `kedit -n ns TYPE/NAME` and `kedit set -n ns ...` read them alike.
	flags := kube.NewConnFlags()
	kv, _ := buildVersions()
	flags.UserAgent = fmt.Sprintf("kedit/%s (%s/%s)", kv, runtime.GOOS, runtime.GOARCH)
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
	root.Flags().StringVar(&opts.sourceDir, "source", "", "the checkout `DIR` of the manifests that g, at a GitOps owner's question, writes the draft to (default: the git work tree of the current directory)")
	opts.edit.addFlags(root.Flags())
	root.Flags().StringArrayVar(&opts.auditLogs, "audit-log", nil, "an API server audit log `FILE` (plain or gzip) or a log engine's URL (victorialogs://HOST:PORT, victorialogs+https://HOST:PORT); repeat for more: the timeline starts with the object's history from it, its lost updates marked LOST")
	root.Flags().StringVar(&opts.auditToken, "audit-token", "", "a bearer `TOKEN` for the log engine of --audit-log URL (default $KEDIT_AUDIT_TOKEN); never printed")
	root.AddCommand(newVersionCmd())
	root.AddCommand(newMergeCmd())
	root.AddCommand(newConditionalPatchCmd(flags))
	root.AddCommand(newDemoCmd(flags))
	root.AddCommand(newDraftsCmd(flags))
	root.AddCommand(newHistoryCmd(flags))
	root.AddCommand(newSourceCmd(flags))
	return root
}

func main() {
	// client-go logs through klog to stderr (discovery's "Couldn't get
	// current server API group list" before kedit can say it better), and
	// stderr belongs to the renderer: klog goes to --debug's log, or
	// nowhere.
	klog.SetLogger(logr.Discard())
	memlimit.Start()
	if err := newRootCmd().Execute(); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "kedit:", escape.String(err.Error()))
		os.Exit(2)
	}
}
