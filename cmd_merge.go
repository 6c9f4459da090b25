package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
)

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
conflict) and the merged text otherwise. Each colliding region of a
multi-line string is a conflict of its own, with "lines" naming its lines
in each version; the string's clean regions are merged in.

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
		js, err := json.MarshalIndent(res.Report(), "", "  ")
		if err != nil {
			return err
		}
		out = string(js) + "\n"
	}
	if output == "" {
		if _, err := io.WriteString(stdout, out); err != nil {
			return err
		}
	} else if err := writeOutput(output, []byte(out)); err != nil {
		return err
	}
	if res.Clean() {
		return nil
	}
	if res.Object != nil {
		for _, c := range res.Object.Conflicts {
			fmt.Fprintf(stderr, "kedit: conflict at %s\n", kube.EscapeControl(c.Where()))
		}
	} else {
		fmt.Fprintf(stderr, "kedit: %s\n", words.Count(res.Text.Conflicts, "conflict"))
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
