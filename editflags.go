package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
)

// editOptions are the flags of `kubectl edit` that kedit takes, and keeps
// conflict-safe: the format of the text edited, the subresource, the
// field manager of every write, and the record of the requests sent.
type editOptions struct {
	output       string
	subresource  string
	fieldManager string
	outputPatch  bool
	validate     string
}

// editFlagNames are the flags addFlags adds, as --help names them.
var editFlagNames = []string{"output", "subresource", "field-manager", "output-patch", "validate"}

func (e *editOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&e.output, "output", "o", string(model.FormatYAML), "the format of the text edited: yaml or json (a Secret stays yaml)")
	fs.StringVar(&e.subresource, "subresource", "", "edit the object's status or scale subresource, with the same conflict safety")
	fs.StringVar(&e.fieldManager, "field-manager", kube.FieldManager, "the field manager of every write (update, patch, apply)")
	fs.StringVar(&e.validate, "validate", string(kube.ValidationStrict), "what the server does with an unknown or duplicate field in a save: strict refuses it (the draft is kept), warn saves without it and shows the warning, ignore saves without it (kedit then names it as not stored)")
	fs.BoolVar(&e.outputPatch, "output-patch", false, "print each write request sent (method, path, body; a Secret's values masked) on stderr when kedit ends, or to --debug's log")
}

// editSettings are editOptions read.
type editSettings struct {
	format      model.Format
	subresource kube.Subresource
	manager     string
	// validation is what the server does with an unknown or duplicate
	// field (--validate).
	validation kube.Validation
	// record keeps the write requests sent (--output-patch); nil
	// without the flag.
	record *kube.WriteRecord
}

// parse reads the flags' values, cmd's; each error names the flag and
// what it takes. A command without them (kedit demo) edits as kedit does
// by default.
func (e editOptions) parse(cmd *cobra.Command) (editSettings, error) {
	var s editSettings
	var err error
	if e.fieldManager == "" && !cmd.Flags().Changed("field-manager") {
		e.fieldManager = kube.FieldManager
	}
	if s.format, err = model.ParseFormat(e.output); err != nil {
		return s, fmt.Errorf("-o: %w", err)
	}
	if s.subresource, err = kube.ParseSubresource(e.subresource); err != nil {
		return s, fmt.Errorf("--subresource: %w", err)
	}
	if s.manager, err = parseFieldManager(e.fieldManager); err != nil {
		return s, err
	}
	if e.validate == "" {
		e.validate = string(kube.ValidationStrict)
	}
	if s.validation, err = kube.ParseValidation(e.validate); err != nil {
		return s, fmt.Errorf("--validate: %w", err)
	}
	if e.outputPatch {
		s.record = &kube.WriteRecord{}
	}
	return s, nil
}

// parseFieldManager checks a field manager's name as the API server
// does, so that a bad one is said before the first save, not by it.
func parseFieldManager(name string) (string, error) {
	switch {
	case name == "":
		return "", fmt.Errorf("--field-manager: give a name (kedit's own is %q)", kube.FieldManager)
	case len(name) > 128:
		return "", fmt.Errorf("--field-manager: %s; the API server takes at most 128", words.Count(len(name), "character"))
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r > 0x7e {
			// Raw: the message is escaped where it is printed.
			return "", fmt.Errorf("--field-manager \"%s\": the API server takes printable ASCII only", name)
		}
	}
	return name, nil
}

// wrapConfig adds the record of write requests to the REST configs flags
// make, after what wrap (the debug log) does.
func (s editSettings) wrapConfig(flags *kube.ConnFlags) {
	if s.record == nil {
		return
	}
	wrap := flags.WrapConfigFn
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config {
		if wrap != nil {
			c = wrap(c)
		}
		return kube.RecordWrites(c, s.record)
	}
}

// logToDebug sends each recorded request to --debug's log as it is sent,
// instead of stderr at the end.
func (s editSettings) logToDebug() {
	if s.record != nil {
		s.record.Log = func(q kube.WriteRequest) { log.Print("--output-patch: " + q.String()) }
	}
}

// printRecord prints the record on stderr once the UI has closed, unless
// --debug's log has it.
func (s editSettings) printRecord(stderr io.Writer) {
	if s.record == nil || s.record.Log != nil {
		return
	}
	_, _ = s.record.WriteTo(stderr)
}

// needTerminal refuses the edit flags given (cmd's) when stdout is no
// terminal: kedit is interactive, and a script that passed them would
// wait for keys no one types. It names the flags given.
func needTerminal(cmd *cobra.Command) error {
	var given []string
	for _, name := range editFlagNames {
		if cmd.Flags().Changed(name) {
			given = append(given, "--"+name)
		}
	}
	if len(given) == 0 || isTerminal(cmd.OutOrStdout()) {
		return nil
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "kedit: %s: stdout is not a terminal; kedit is interactive, run it in one\n", strings.Join(given, ", "))
	return &exitError{2}
}

// uiNeedsTerminal refuses to start the UI when stdout is not a terminal,
// with exit status 2: kedit is a full-screen UI, and its screens in a file
// or a pipe help no one. --exit-after-first-frame (the benchmarks, with
// stdout in /dev/null) is the exception. It runs once what the arguments
// name is read, so that a missing object is said as such.
func uiNeedsTerminal(cmd *cobra.Command, opts appOptions) error {
	if opts.exitAfterFirstFrame || isTerminal(cmd.OutOrStdout()) {
		return nil
	}
	return &usageExit{errors.New("standard output is not a terminal: kedit is a full-screen terminal UI (kubectl get -o yaml prints objects)")}
}

// usageExit is an error said with exit status 2: the command cannot run
// as invoked.
type usageExit struct{ err error }

func (e *usageExit) Error() string { return e.err.Error() }

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
