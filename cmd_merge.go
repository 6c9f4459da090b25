package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/words"
)

// Exit statuses of kedit merge, git merge-file's: the number of conflicts
// (0 for a clean merge) up to maxConflictStatus, and these two.
const (
	maxConflictStatus = 127
	mergeTrouble      = 255
	mergeUsage        = 129
)

// maxMergeInput is the largest file git merge-file merges (MAX_XDIFF_SIZE);
// it calls a larger one binary.
const maxMergeInput = 1023 << 20

// maxMarkerSize bounds --marker-size, so that a typo cannot make kedit
// write gigabytes of markers.
const maxMarkerSize = 1 << 20

// mergeOptions are kedit merge's flags.
type mergeOptions struct {
	output     string
	toStdout   bool
	asJSON     bool
	labels     []string
	style      diff.Style
	favor      diff.Favor
	markerSize int
	quiet      bool
}

func newMergeCmd() *cobra.Command {
	var o mergeOptions
	cmd := &cobra.Command{
		Use:   "merge [flags] MINE BASE THEIRS",
		Short: "Three-way merge of Kubernetes manifests, or of any text",
		Long: `merge merges MINE and THEIRS, two versions made from BASE, in the argument
order and with the flags of git merge-file.

Kubernetes manifests (YAML or JSON, one object each) merge field by field:
maps key by key, keyed lists (containers, env, ports ...) item by item,
multi-line strings line by line. Server-owned fields come from THEIRS. The
result is YAML as kubectl prints it, each conflict a diff3 block
(<<<<<<< mine, ||||||| base, =======, >>>>>>> theirs) around the field's lines.
Any other text merges line by line exactly as
git merge-file -p --diff3 -L mine -L base -L theirs, and with git's flags
exactly as git merge-file -p with the same flags.

kedit's defaults differ from git's in three ways: the result goes to stdout
(git writes it into MINE unless -p; -o MINE does that here), conflicts are
diff3 blocks (--merge gives git's default style), and without -L the labels
are mine, base and theirs (git's are the file names; once one -L is given,
the sides without one are named by their files, as in git).

--json writes {"clean", "conflicts": [{"path", "base", "mine", "theirs"}],
"merged"} instead: merged is the merged object for manifests (a conflicting
field holds THEIRS' value; a side without the field has no key in its
conflict) and the merged text otherwise. Each colliding region of a
multi-line string is a conflict of its own, with "lines" naming its lines
in each version; the string's clean regions are merged in.

Exit status, git merge-file's: the number of conflicts (0 clean, at most
127), 255 on trouble (an unreadable file, a binary file, invalid YAML, or
three objects that are not the same object), 129 on a usage error.

As a git merge driver (README: "kedit merge as a git merge driver"):
  git config merge.kedit.driver 'kedit merge -o %A -L ours -L base -L theirs --marker-size %L %A %O %B'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 3 {
				return usageError(cmd, fmt.Errorf("want MINE BASE THEIRS, got %s", words.Count(len(args), "file")))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return usageError(cmd, err)
			}
			return runMerge(cmd.OutOrStdout(), cmd.ErrOrStderr(), args, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "", "write the result to `FILE` (atomically) instead of stdout; -o MINE is git merge-file without -p")
	f.BoolVarP(&o.toStdout, "stdout", "p", false, "write the result to stdout (the default), as git merge-file -p")
	f.BoolVar(&o.asJSON, "json", false, "write a JSON report instead of the merged text")
	f.StringArrayVarP(&o.labels, "label", "L", nil, "`LABEL` of MINE, then BASE, then THEIRS in the markers (up to three times; the default is mine, base, theirs; once one is given, a side without one is named by its file)")
	choice(f, &o.style, diff.StyleDiff3, "diff3", "write conflicts with mine, base and theirs (the default)")
	choice(f, &o.style, diff.StyleZDiff3, "zdiff3", "diff3, with the lines both sides share at a conflict's ends moved out of it")
	choice(f, &o.style, diff.StyleMerge, "merge", "write conflicts with mine and theirs only, narrowed to where they differ (git merge-file's default)")
	choice(f, &o.favor, diff.FavorMine, "ours", "resolve conflicts with mine's lines")
	choice(f, &o.favor, diff.FavorTheirs, "theirs", "resolve conflicts with theirs' lines")
	choice(f, &o.favor, diff.FavorUnion, "union", "resolve conflicts with mine's lines then theirs' (text only)")
	f.IntVar(&o.markerSize, "marker-size", 0, "conflict markers of `N` characters (7 when 0 or less; manifests' markers never shorter than 7)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "write nothing on stderr, as git merge-file -q")
	cmd.SetFlagErrorFunc(usageError)
	return cmd
}

// check refuses flags that do not go together.
func (o *mergeOptions) check() error {
	switch {
	case len(o.labels) > 3:
		return fmt.Errorf("-L given %s: it names MINE, BASE and THEIRS, at most three", words.Count(len(o.labels), "time"))
	case o.toStdout && o.output != "":
		return errors.New("-p writes to stdout and -o to a file: give one")
	case o.asJSON && (o.style != diff.StyleDiff3 || o.favor != diff.FavorNone):
		return errors.New("--json reports the diff3 merge's conflicts: it does not go with --zdiff3, --merge, --ours, --theirs or --union")
	case o.markerSize > maxMarkerSize:
		return fmt.Errorf("--marker-size %d: at most %d", o.markerSize, maxMarkerSize)
	}
	return nil
}

// usageError says what is wrong with the command line and exits 129, as git
// does.
func usageError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "kedit merge: %s\nusage: %s (kedit merge --help)\n",
		escape.String(err.Error()), cmd.UseLine())
	return &exitError{code: mergeUsage}
}

// runMerge reads the files, merges them in diff and writes the result; it
// says itself what went wrong, and returns the exit status as an
// *exitError.
func runMerge(stdout, stderr io.Writer, files []string, o mergeOptions) error {
	if o.quiet {
		stderr = io.Discard
	}
	fail := func(err error) error {
		fmt.Fprintln(stderr, "kedit:", escape.String(err.Error()))
		return &exitError{code: mergeTrouble}
	}
	var data [3][]byte
	for i, f := range files {
		b, err := readMergeInput(f)
		if err != nil {
			return fail(err)
		}
		// git's check and git's words, file by file as git reads them.
		if b == nil || diff.IsBinary(b) {
			fmt.Fprintf(stderr, "error: Cannot merge binary files: %s\n", escape.String(f))
			return &exitError{code: mergeTrouble}
		}
		data[i] = b
	}
	res, err := diff.MergeDocuments(data[0], data[1], data[2], diff.WithText(o.textOptions(files)))
	if err != nil {
		return fail(mergeInputError(err, files))
	}
	out := res.Output
	if o.asJSON {
		js, err := json.MarshalIndent(res.Report(), "", "  ")
		if err != nil {
			return fail(err)
		}
		out = string(js) + "\n"
	}
	if o.output == "" {
		if _, err := io.WriteString(stdout, out); err != nil {
			return fail(err)
		}
	} else if err := writeOutput(o.output, []byte(out)); err != nil {
		return fail(err)
	}
	conflicts := res.Text.Conflicts
	if res.Object != nil {
		conflicts = res.Object.Open()
		for i, c := range res.Object.Conflicts {
			if res.Object.Resolutions[i].Choice == diff.Unresolved {
				fmt.Fprintf(stderr, "kedit: conflict at %s\n", escape.String(c.Where()))
			}
		}
	} else if conflicts > 0 {
		fmt.Fprintf(stderr, "kedit: %s\n", words.Count(conflicts, "conflict"))
	}
	if conflicts == 0 {
		return nil
	}
	return &exitError{code: min(conflicts, maxConflictStatus)}
}

// textOptions are the merge options the flags ask for. Labels not given
// with -L are the file names once one is given, as git names them.
func (o *mergeOptions) textOptions(files []string) diff.TextOptions {
	opts := diff.TextOptions{Style: o.style, Favor: o.favor, MarkerSize: o.markerSize}
	if len(o.labels) > 0 {
		l := [3]string{files[0], files[1], files[2]}
		copy(l[:], o.labels)
		opts.Labels = &diff.Labels{Mine: l[0], Base: l[1], Theirs: l[2]}
	}
	return opts
}

// readMergeInput reads a file to merge; a file larger than git merges gives
// nil data, which the caller refuses as git does, as binary.
func readMergeInput(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxMergeInput {
		return nil, nil
	}
	// Sized up front, as os.ReadFile does: a merge of megabytes reads
	// them once.
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, err
	}
	// Not nil, even for an empty file: nil is the too-large answer.
	return buf.Bytes(), nil
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
	if errors.Is(err, diff.ErrUnionObject) {
		return fmt.Errorf("--union: %s, %s and %s are Kubernetes manifests, which merge field by field: %w",
			files[0], files[1], files[2], err)
	}
	return err
}

// writeOutput replaces name with data atomically, keeping the mode of the
// file it replaces (0644 for a new one), so that a reader never sees half a
// merge.
func writeOutput(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	return fsutil.WriteFileAtomic(name, data, mode)
}

// choiceFlag is one of several flags without a value that set the same
// variable, the last one given winning, as git's OPT_SET_INT flags do
// (--diff3 --merge is --merge).
type choiceFlag[T comparable] struct {
	target *T
	value  T
}

func (f choiceFlag[T]) String() string { return "false" }

func (f choiceFlag[T]) Set(s string) error {
	if s != "true" {
		return errors.New("takes no value")
	}
	*f.target = f.value
	return nil
}

// Type is bool so that help shows the flag without a value.
func (f choiceFlag[T]) Type() string { return "bool" }

// choice adds --name, which sets *target to value.
func choice[T comparable](fs *pflag.FlagSet, target *T, value T, name, usage string) {
	fs.AddFlag(&pflag.Flag{Name: name, Usage: usage, Value: choiceFlag[T]{target, value}, DefValue: "false", NoOptDefVal: "true"})
}
