// Command kedit is a terminal UI for conflict-safe editing of live
// Kubernetes objects: it saves with the object's resourceVersion and, when
// someone else changed the object meanwhile, shows base, theirs and mine and
// lets the user decide.
//
// This file holds the cobra commands: flags and wiring only.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"

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
	root.AddCommand(newVersionCmd())
	root.AddCommand(newMergeCmd())
	root.AddCommand(newSetCmd(flags))
	return root
}

// runApp resolves the object, reads it, and runs the UI on it. Errors before
// the UI starts are printed on stderr with exit status 1.
func runApp(cmd *cobra.Command, flags *genericclioptions.ConfigFlags, opts appOptions, args []string) error {
	fail := func(err error) error {
		fmt.Fprintln(cmd.ErrOrStderr(), "kedit:", err)
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
	var stored *model.StoredDraft
	if d, ok, err := drafts.Load(target); err != nil {
		return fail(fmt.Errorf("reading the stored draft: %w", err))
	} else if ok {
		sd := d.Stored()
		stored = &sd
	}
	// The first conflict should not wait for client-go's schemas to parse.
	go diff.LoadBuiltinSchemas()

	sess := model.NewSession(target.Ref())
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: time.Now()}); err != nil {
		return fail(err)
	}
	watch := kube.NewWatch(client, target)
	if err := watch.Start(ctx); err != nil {
		return fail(err)
	}
	defer watch.Stop()
	app := ui.New(ui.Config{
		Session:    sess,
		Runner:     &kube.Runner{Client: client, Target: target, Strategy: strategy, Cached: watch.Latest, Drafts: drafts},
		Events:     watch.Events(),
		Stored:     stored,
		AutoRebase: opts.autoRebase,
		Context:    ctx,
	})
	p := tea.NewProgram(app, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx),
		tea.WithInput(cmd.InOrStdin()), tea.WithOutput(cmd.OutOrStdout()))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return fail(err)
	}
	return nil
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print kedit's version and the client-go version it was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kv, cv := buildVersions()
			fmt.Fprintf(cmd.OutOrStdout(), "kedit %s\nclient-go %s\n", kv, cv)
			return nil
		},
	}
}

func newMergeCmd() *cobra.Command {
	var output string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge [-o FILE] [--json] MINE BASE THEIRS",
		Short: "Three-way merge of Kubernetes manifests, or of any text",
		Long: `merge merges MINE and THEIRS, two versions made from BASE, in the argument
order of git merge-file.

Kubernetes manifests (YAML or JSON, one object each) merge field by field:
maps key by key, keyed lists (containers, env, ports ...) item by item,
multi-line strings line by line. Server-owned fields come from THEIRS. The
result is YAML as kubectl prints it, each conflict a diff3 block
(<<<<<<< mine, ||||||| base, =======, >>>>>>> theirs) around the field's lines.
Any other text merges line by line exactly as
git merge-file -p --diff3 -L mine -L base -L theirs.

--json writes {"clean", "conflicts": [{"path", "base", "mine", "theirs"}],
"merged"} instead: merged is the merged object for manifests (a conflicting
field holds THEIRS' value; a side without the field has no key in its
conflict) and the merged text otherwise.

Exit status: 0 clean, 1 conflicts remain, 2 trouble (unreadable file,
invalid YAML, or three objects that are not the same object).`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.OutOrStdout(), cmd.ErrOrStderr(), args, output, asJSON)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the result to `FILE` (atomically) instead of stdout")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write a JSON report instead of the merged text")
	return cmd
}

// runMerge reads the files, merges them in diff and writes the result.
func runMerge(stdout, stderr io.Writer, files []string, output string, asJSON bool) error {
	var data [3][]byte
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		data[i] = b
	}
	res, err := diff.MergeDocuments(data[0], data[1], data[2])
	if err != nil {
		return mergeInputError(err, files)
	}
	out := res.Output
	if asJSON {
		if out, err = json.MarshalIndent(res.Report(), "", "  "); err != nil {
			return err
		}
		out = append(out, '\n')
	}
	if output == "" {
		if _, err := stdout.Write(out); err != nil {
			return err
		}
	} else if err := writeFileAtomic(output, out); err != nil {
		return err
	}
	if res.Clean() {
		return nil
	}
	if res.Object != nil {
		for _, c := range res.Object.Conflicts {
			fmt.Fprintf(stderr, "kedit: conflict at %s\n", c.Path)
		}
	} else {
		fmt.Fprintf(stderr, "kedit: %d conflict(s)\n", res.Text.Conflicts)
	}
	return &exitError{code: 1}
}

// mergeInputError names the file a merge error is about.
func mergeInputError(err error, files []string) error {
	file := map[string]string{"mine": files[0], "base": files[1], "theirs": files[2]}
	var ie *diff.IdentityError
	if errors.As(err, &ie) {
		return fmt.Errorf("%s is not the same object as %s: %s is %q there, %q in %s",
			file[ie.Side], file["base"], ie.Field, ie.Got, ie.Base, file["base"])
	}
	var in *diff.InputError
	if errors.As(err, &in) {
		return fmt.Errorf("%s: %w", file[in.Side], in.Err)
	}
	return err
}

// writeFileAtomic replaces name with data through a temporary file in the
// same directory, so that a reader never sees half a merge.
func writeFileAtomic(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// buildVersions reads kedit's and client-go's versions from the build info.
func buildVersions() (kedit, clientGo string) {
	kedit, clientGo = version, "unknown"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		if kedit == "" {
			kedit = "(devel)"
		}
		return kedit, clientGo
	}
	if kedit == "" {
		kedit = info.Main.Version
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/client-go" {
			clientGo = dep.Version
			if dep.Replace != nil {
				clientGo = dep.Replace.Version
			}
		}
	}
	if kedit == "" {
		kedit = "(devel)"
	}
	return kedit, clientGo
}

func main() {
	if err := newRootCmd().Execute(); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "kedit:", err)
		os.Exit(2)
	}
}

// Exit statuses of kedit set.
const (
	setExitError           = 1
	setExitConditionFailed = 3
)

// newSetCmd takes the root's connection flags, which it reads as
// persistent flags.
func newSetCmd(flags *genericclioptions.ConfigFlags) *cobra.Command {
	var ifs, ifAbsent []string
	cmd := &cobra.Command{
		Use:   "set TYPE/NAME PATH=VALUE... [--if PATH=VALUE]... [--if-absent PATH]...",
		Short: "Set fields atomically, only if conditions hold (one JSON Patch request)",
		Long: `set changes fields of one object in ONE JSON Patch request: a test op for each
condition, then an add op for each PATH=VALUE. The API server applies it
atomically, so there is no read-modify-write race: "set foo to 2, but only if
foo is still 1" is

  kedit set configmap/testmap /data/foo=2 --if /data/foo=1

PATH is a JSON pointer (/data/foo; ~1 stands for a / inside a key, ~0 for ~).
PATH=VALUE takes VALUE as a string; PATH:=JSON takes any JSON value
(/spec/replicas:=3).

Exit status: 0 applied (prints the new resourceVersion); 3 a condition does
not hold (prints the current value; the object is unchanged); 1 any other error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fail := func(code int, err error) error {
				fmt.Fprintln(cmd.ErrOrStderr(), "kedit set:", err)
				return &exitError{code}
			}
			typ, name, rest, err := kube.SplitObjectArgs(args)
			if err != nil {
				return fail(setExitError, err)
			}
			var assignments []kube.Assignment
			for _, a := range rest {
				as, err := kube.ParseAssignment(a)
				if err != nil {
					return fail(setExitError, err)
				}
				assignments = append(assignments, as)
			}
			var conditions []kube.Condition
			for _, c := range ifs {
				cond, err := kube.ParseCondition(c)
				if err != nil {
					return fail(setExitError, fmt.Errorf("--if: %w", err))
				}
				conditions = append(conditions, cond)
			}
			for _, p := range ifAbsent {
				cond, err := kube.AbsentCondition(p)
				if err != nil {
					return fail(setExitError, fmt.Errorf("--if-absent: %w", err))
				}
				conditions = append(conditions, cond)
			}
			if _, err := kube.ConditionalPatch(assignments, conditions); err != nil {
				return fail(setExitError, err)
			}
			target, err := kube.Resolve(flags, typ, name)
			if err != nil {
				return fail(setExitError, err)
			}
			dc, err := flags.ToRESTConfig()
			if err != nil {
				return fail(setExitError, err)
			}
			client, err := dynamic.NewForConfig(dc)
			if err != nil {
				return fail(setExitError, err)
			}
			rv, err := kube.ConditionalSet(cmd.Context(), client, target, assignments, conditions)
			var failed *kube.ConditionFailedError
			switch {
			case errors.As(err, &failed):
				switch {
				case failed.Current == nil:
					fmt.Fprintln(cmd.OutOrStdout(), "<absent>")
				case failed.Hidden:
					fmt.Fprintln(cmd.OutOrStdout(), "<hidden: Secret value>")
				default:
					fmt.Fprintln(cmd.OutOrStdout(), currentValue(failed.Current))
				}
				return fail(setExitConditionFailed, err)
			case err != nil:
				return fail(setExitError, err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), rv)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&ifs, "if", nil, "apply only if PATH equals VALUE (PATH=VALUE or PATH:=JSON); repeatable")
	cmd.Flags().StringArrayVar(&ifAbsent, "if-absent", nil, "apply only if PATH does not exist; repeatable")
	return cmd
}

// currentValue prints a JSON string as its text, any other value as JSON.
// Control characters are escaped: the value comes from the server.
func currentValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return kube.EscapeControl(s)
	}
	return kube.EscapeControl(string(v))
}
