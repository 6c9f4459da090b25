package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
)

func newDraftsCmd(flags *kube.ConnFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "drafts [--json]",
		Short: "List the stored drafts, newest first",
		Long: `drafts lists every draft in the draft store, newest first: context,
namespace, object, base resourceVersion, age, size, state and path. A draft
set aside because it could not be recovered is marked kept; one a running
kedit is writing is marked editing, with its pid.

  kedit drafts
  kedit drafts --json
  kedit drafts rm configmap/testmap -n team-a
  kedit drafts rm ~/.local/state/kedit/drafts/prod/team-a/configmaps/testmap.yaml

Something in the draft directory that kedit did not write there (a stray
file, a symlink) is an error that names it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDraftsList(cmd.OutOrStdout(), cmd.ErrOrStderr(), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the drafts as a JSON array")
	cmd.AddCommand(newDraftsRmCmd(flags))
	return cmd
}

func newDraftsRmCmd(flags *kube.ConnFlags) *cobra.Command {
	var yes bool
	var sub string
	cmd := &cobra.Command{
		Use:   "rm [--yes] TYPE/NAME [--subresource status|scale] | TYPE NAME | PATH",
		Short: "Remove the stored drafts of an object, or one draft file",
		Long: `rm removes the stored drafts of the object TYPE/NAME (found with the
connection flags, as kedit itself finds it: kept-aside ones too), or with
--subresource those of its status or scale, which are kept apart from the
object's; or the one draft file PATH; after asking. A draft a running kedit
is writing is not removed.

  kedit drafts rm deployment/web --subresource scale`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDraftsRm(cmd, flags, args, sub, yes)
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "remove without asking")
	cmd.Flags().StringVar(&sub, "subresource", "", "remove the drafts of the object's status or scale subresource (kedit --subresource's)")
	return cmd
}

// draftJSON is one draft as --json prints it.
type draftJSON struct {
	Context             string    `json:"context"`
	Namespace           string    `json:"namespace"`
	Resource            string    `json:"resource"`
	Name                string    `json:"name"`
	Subresource         string    `json:"subresource,omitempty"`
	BaseResourceVersion string    `json:"baseResourceVersion"`
	SavedAt             time.Time `json:"savedAt"`
	Size                int       `json:"size"`
	Kept                bool      `json:"kept"`
	EditingPID          int       `json:"editingPid,omitempty"`
	Server              string    `json:"server,omitempty"`
	Path                string    `json:"path"`
}

func runDraftsList(stdout, stderr io.Writer, asJSON bool) error {
	store, err := drafts.NewStore(false)
	if err != nil {
		return failWith(stderr, err)
	}
	drafts, err := store.List()
	if err != nil {
		return failWith(stderr, err)
	}
	if asJSON {
		out := make([]draftJSON, 0, len(drafts))
		for _, d := range drafts {
			out = append(out, draftJSON{Context: d.Context, Namespace: d.Namespace, Resource: d.Resource, Name: d.Name, Subresource: d.Subresource,
				BaseResourceVersion: d.BaseResourceVersion, SavedAt: d.SavedAt, Size: d.Size, Kept: d.Kept,
				EditingPID: d.EditingPID, Server: d.Server, Path: d.Path})
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	if len(drafts) == 0 {
		fmt.Fprintf(stderr, "no drafts stored in %s\n", store.Dir)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONTEXT\tNAMESPACE\tOBJECT\tBASE RV\tAGE\tSIZE\tSTATE\tPATH")
	now := time.Now()
	for _, d := range drafts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", orDash(d.Context), orDash(d.Namespace),
			escape.String(draftObject(d)), escape.String(d.BaseResourceVersion),
			duration.HumanDuration(now.Sub(d.SavedAt)), d.Size, state(d), escape.String(d.Path))
	}
	return tw.Flush()
}

// draftObject names a draft's object as kubectl does, resource/name, with
// the subresource it edits.
func draftObject(d drafts.Entry) string {
	if d.Subresource != "" {
		return d.Resource + "/" + d.Name + " --subresource " + d.Subresource
	}
	return d.Resource + "/" + d.Name
}

// draftTarget names t's drafts' object as draftObject does.
func draftTarget(t *kube.Target) string {
	return draftObject(drafts.Entry{Resource: kube.ResourceName(t.Mapping.Resource.GroupResource()), Name: t.Name, Subresource: string(t.Subresource)})
}

// otherParts says which other parts of t's object (the object itself, its
// subresources) have stored drafts, and the command that removes them:
// "; stored: 1 draft of its scale subresource (kedit drafts rm deploy/web
// --subresource scale)". "" when none has.
func otherParts(store *drafts.Store, t *kube.Target, typ, name string) string {
	var out []string
	for _, sub := range append([]kube.Subresource{""}, kube.Subresources...) {
		if sub == t.Subresource {
			continue
		}
		other := *t
		other.Subresource = sub
		ds, err := store.DraftsOf(kube.DraftKey(&other))
		if err != nil || len(ds) == 0 {
			continue
		}
		part, flag := "the object itself", ""
		if sub != "" {
			part, flag = "its "+string(sub)+" subresource", " --subresource "+string(sub)
		}
		out = append(out, fmt.Sprintf("%s of %s (kedit drafts rm %s/%s%s)", words.Count(len(ds), "draft"), part, typ, name, flag))
	}
	if len(out) == 0 {
		return ""
	}
	return "; stored: " + strings.Join(out, ", ")
}

// state marks a draft kept aside, or being written by a running kedit.
func state(d drafts.Entry) string {
	switch {
	case d.Kept:
		return "kept"
	case d.EditingPID != 0:
		return fmt.Sprintf("editing (pid %d)", d.EditingPID)
	}
	return "stored"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return escape.String(s)
}

// runDraftsRm removes an object's drafts (of its subresource sub, when
// given) or one draft file, after asking.
func runDraftsRm(cmd *cobra.Command, flags *kube.ConnFlags, args []string, sub string, yes bool) error {
	stderr := cmd.ErrOrStderr()
	store, err := drafts.NewStore(false)
	if err != nil {
		return failWith(stderr, err)
	}
	subresource, err := kube.ParseSubresource(sub)
	if err != nil {
		return failWith(stderr, fmt.Errorf("--subresource: %w", err))
	}
	var paths []string
	what := ""
	if _, err := os.Lstat(args[0]); err == nil && len(args) == 1 {
		if subresource != "" {
			return failWith(stderr, fmt.Errorf("--subresource names the drafts of an object (TYPE/NAME); the file %s is one draft, whichever it is", args[0]))
		}
		paths, what = []string{args[0]}, args[0]
	} else {
		typ, name, rest, err := kube.SplitObjectArgs(args)
		if err == nil && len(rest) > 0 {
			err = fmt.Errorf("unexpected arguments: %s", strings.Join(rest, " "))
		}
		if err != nil {
			return failWith(stderr, fmt.Errorf("%w (or give the PATH of a draft file that exists)", err))
		}
		target, err := kube.Resolve(flags, typ, name)
		if err != nil {
			return failWith(stderr, err)
		}
		target.Subresource = subresource
		drafts, err := store.DraftsOf(kube.DraftKey(target))
		if err != nil {
			return failWith(stderr, err)
		}
		object := draftTarget(target)
		where := target.Where()
		if where != "" {
			where = " in " + where
		}
		if len(drafts) == 0 {
			return failWith(stderr, fmt.Errorf("no stored draft of %s%s%s", object, where, otherParts(store, target, typ, name)))
		}
		for _, d := range drafts {
			paths = append(paths, d.Path)
		}
		what = fmt.Sprintf("%s of %s%s", words.Count(len(drafts), "draft"), object, where)
	}
	if !yes {
		fmt.Fprintf(stderr, "remove %s?\n", escape.String(what))
		for _, p := range paths {
			fmt.Fprintf(stderr, "  %s\n", escape.String(p))
		}
		fmt.Fprint(stderr, "[y/N] ")
		line, _ := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(stderr, "nothing removed")
			return nil
		}
	}
	failed := false
	for _, p := range paths {
		if err := store.Remove(p); err != nil {
			fmt.Fprintln(stderr, "kedit:", escape.String(err.Error()))
			failed = true
			continue
		}
		fmt.Fprintf(cmd.OutOrStdout(), "removed %s\n", escape.String(p))
	}
	if failed {
		return &exitError{1}
	}
	return nil
}

// failWith prints err as kedit's error and exits 1.
func failWith(stderr io.Writer, err error) error {
	fmt.Fprintln(stderr, "kedit:", escape.String(err.Error()))
	return &exitError{1}
}
