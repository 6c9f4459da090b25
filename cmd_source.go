package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/source"
)

// sourceOptions are kedit source's own flags.
type sourceOptions struct {
	dir, draft            string
	asJSON, write, commit bool
}

func newSourceCmd(flags *kube.ConnFlags) *cobra.Command {
	var o sourceOptions
	cmd := &cobra.Command{
		Use:   "source TYPE/NAME [--source DIR] [-f DRAFT [--write] [--commit]] [--json]",
		Short: "Where a live object comes from in its manifests, and an edit of it written there",
		Long: `source finds the manifests a live object comes from under DIR (--source,
else the git work tree of the current directory) and says which file and
which kustomization:

  1. the object's config.kubernetes.io/origin annotation (kustomize's
     buildMetadata: [originAnnotations], which Flux keeps on what it
     applies): the file, and for a generated object its generator;
  2. the path its GitOps owner builds, read from the cluster: a Flux
     Kustomization's spec.path (the kustomize.toolkit.fluxcd.io labels), an
     Argo CD Application's spec.source.path (the tracking annotation);
  3. else every plain YAML file and every kustomization under DIR that may
     build the object (one whose namespace: is another, or whose files
     hold no name the object's can be made of, is passed by), built in
     process with the kustomize API, whose output holds the object.

An object a Helm chart made is named and refused: kedit does not write
templates.

An origin annotation that names nothing under DIR is passed by, and said;
one that names a remote repository, and a remote base (a URL in
resources:), is named with its URL: kedit fetches nothing and writes only
files under DIR. A directory the kustomize API cannot read (a name with a
space) is skipped and named.

With -f DRAFT (the object as you edited it, YAML or JSON), it prints the
change it would make to the files, as a diff: each changed field written
where it has the last word in the build (the resource file; a patch,
a file or inline, of the overlay, a kustomization between it and the
base, or a component; a JSON 6902 op; the images: or replicas: entry
that sets an image or a replica count; a configMapGenerator's or
secretGenerator's literal, env file line or file). A file another build
shares is left as it is: the change goes into a new patch (or images: or
replicas: entry) of the kustomization nearest the object whose build
holds only this variant, and kedit says why there. What the cluster sets
(status, managedFields, resourceVersion, last-applied-configuration, a
Service's clusterIP and nodePort ...) is left out, and said. Each change
is spliced into the file's text where its value stands: every other byte
stays, whatever the layout; only a file that does not parse is refused,
by its line. Before anything is shown, the edited files are built again:
the object must have the edited value on every changed path and no other
object may change, or nothing is written and the field that could not be
placed is named. A draft the files already hold says so.

--write writes the files: a file changed on disk since it was read, or one
with uncommitted changes, is refused, named. --commit commits the change
on a new branch kedit/KIND-NAMESPACE-NAME naming the object and the
fields, made on HEAD through an index of its own: the checkout stays on
its branch and its files as they are (with --write too, they are written
after). kedit never pushes. With --json an error is a JSON document too:
{"error": "..."}.

Exit status: 0 found (and written); 2 an error, no source, or an edit that
cannot be placed.`,
		Example: `  # where does this Deployment come from?
  kedit source deploy/web -n prod --source ~/src/fleet

  # the change an edited draft would make, then commit it on a branch
  kubectl get cm settings-7g2k9 -n prod -o yaml > cm.yaml; $EDITOR cm.yaml
  kedit source cm/settings-7g2k9 -n prod -f cm.yaml
  kedit source cm/settings-7g2k9 -n prod -f cm.yaml --commit`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSource(cmd, flags, args, o)
		},
	}
	cmd.Flags().StringVar(&o.dir, "source", "", "the checkout `DIR` of the manifests (default: the git work tree of the current directory)")
	cmd.Flags().StringVarP(&o.draft, "filename", "f", "", "the edited object, a YAML or JSON `DRAFT`: print the change it makes to the files")
	cmd.Flags().BoolVar(&o.write, "write", false, "write the change into the files (with -f)")
	cmd.Flags().BoolVar(&o.commit, "commit", false, "commit the change on a new branch named after the object, the checkout left as it is (with -f); never pushes")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON document instead of the text")
	return cmd
}

// sourceReport is kedit source's JSON.
type sourceReport struct {
	Source  *source.Source     `json:"source"`
	Warning string             `json:"warning,omitempty"`
	Files   []sourceFile       `json:"files,omitempty"`
	Placed  []source.Placement `json:"placed,omitempty"`
	// Notes are what the edit left out (what the cluster sets).
	Notes []string `json:"notes,omitempty"`
	// Held says the files already hold the draft's values.
	Held    string `json:"held,omitempty"`
	Written bool   `json:"written,omitempty"`
	Branch  string `json:"branch,omitempty"`
}

type sourceFile struct {
	Path string `json:"path"`
	New  bool   `json:"new,omitempty"`
	Diff string `json:"diff,omitempty"`
}

func runSource(cmd *cobra.Command, flags *kube.ConnFlags, args []string, o sourceOptions) error {
	stderr, stdout := cmd.ErrOrStderr(), cmd.OutOrStdout()
	fail := func(err error) error {
		if o.asJSON {
			// With --json an error is a JSON document too, on stdout
			// where the answer goes.
			b, _ := json.MarshalIndent(map[string]string{"error": err.Error()}, "", "  ")
			fmt.Fprintf(stdout, "%s\n", b)
			return &exitError{2}
		}
		fmt.Fprintln(stderr, "kedit source:", escape.String(err.Error()))
		return &exitError{2}
	}
	typ, name, rest, err := kube.SplitObjectArgs(args)
	if err != nil {
		return fail(err)
	}
	if len(rest) > 0 {
		return fail(fmt.Errorf("unexpected arguments after the object: %s", strings.Join(rest, " ")))
	}
	if (o.write || o.commit) && o.draft == "" {
		return fail(errors.New("--write and --commit write the change of an edited object: give it with -f DRAFT"))
	}
	dir, err := sourceDir(o.dir)
	if err != nil {
		return fail(err)
	}
	t, err := kube.Resolve(flags, typ, name)
	if err != nil {
		return fail(err)
	}
	rc, err := flags.ToRESTConfig()
	if err != nil {
		return fail(err)
	}
	dc, err := dynamic.NewForConfig(rc)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	live, err := kube.Get(ctx, dc, t)
	if err != nil {
		return fail(err)
	}
	rep := sourceReport{}
	hints, warning, err := kube.SourceHints(ctx, live, func(ctx context.Context, owner model.GitOpsOwner) (string, string, error) {
		return kube.GitOpsPath(ctx, dc, owner)
	})
	if err != nil {
		return fail(err)
	}
	if warning != "" {
		rep.Warning = warning + "; the manifests under " + dir + " are searched"
	}
	if rep.Warning != "" && !o.asJSON {
		fmt.Fprintln(stderr, "kedit source: warning:", escape.String(rep.Warning))
	}
	ref := source.RefOf(live)
	src, err := source.Find(dir, ref, hints)
	if err != nil {
		return fail(err)
	}
	rep.Source = src
	var edit *source.Edit
	if o.draft != "" {
		text, err := os.ReadFile(o.draft)
		if err != nil {
			return fail(err)
		}
		mine, err := diff.DecodeObject(text)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", o.draft, err))
		}
		if err := diff.SameObject(live, mine, "mine"); err != nil {
			return fail(err)
		}
		edit, err = source.Plan(src, live, mine)
		if errors.Is(err, source.ErrAlreadyHeld) {
			rep.Held = err.Error()
			edit = &source.Edit{}
		} else if err != nil {
			return fail(err)
		}
		secret := diff.IsSecret(live)
		for _, f := range edit.Files {
			sf := sourceFile{Path: f.Path, New: f.Old == nil}
			if !secret {
				sf.Diff = f.Unified()
			}
			rep.Files = append(rep.Files, sf)
		}
		rep.Placed, rep.Notes = edit.Placed, edit.Notes
		// The commit is made first, from the files as they were read:
		// it never touches the checkout, and --write then writes them.
		if o.commit && len(edit.Files) > 0 {
			if rep.Branch, err = edit.Commit(ref); err != nil {
				return fail(err)
			}
		}
		if o.write && len(edit.Files) > 0 {
			if err := edit.Write(); err != nil {
				return fail(err)
			}
			rep.Written = true
		}
	}
	if o.asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fail(err)
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	_, err = fmt.Fprint(stdout, sourceText(rep, diff.IsSecret(live)))
	return err
}

// sourceText is kedit source's text: where the object comes from, then
// the change to the files.
func sourceText(rep sourceReport, secret bool) string {
	var b escapedText
	s := rep.Source
	fmt.Fprintf(&b, "%s comes from %s (found by %s)\n", s.Ref, s.Dir, s.Via)
	if s.Kustomization != "" {
		fmt.Fprintf(&b, "  kustomization  %s\n", dotDir(s.Kustomization))
	}
	if s.File != "" {
		fmt.Fprintf(&b, "  file           %s\n", s.File)
	}
	if s.Generator != "" {
		fmt.Fprintf(&b, "  generator      %s in %s\n", s.Generator, s.GeneratorIn)
	}
	if s.Note != "" {
		fmt.Fprintf(&b, "  note           %s\n", s.Note)
	}
	if len(rep.Placed) > 0 || len(rep.Notes) > 0 {
		b.WriteString("\n")
		for _, p := range rep.Placed {
			b.WriteString(p.String() + "\n")
		}
		for _, n := range rep.Notes {
			b.WriteString(n + "\n")
		}
		b.WriteString("\n")
	}
	if rep.Held != "" {
		b.WriteString("\n" + rep.Held + "\n")
	}
	for _, f := range rep.Files {
		if secret {
			fmt.Fprintf(&b, "%s: changed (a Secret's values are not shown)\n", f.Path)
			continue
		}
		writeDiff(&b, f.Diff)
	}
	switch {
	case rep.Branch != "" && rep.Written:
		fmt.Fprintf(&b, "\ncommitted on branch %s (not pushed), and written\n", rep.Branch)
	case rep.Branch != "":
		fmt.Fprintf(&b, "\ncommitted on branch %s (not pushed); your checkout is as it was\n", rep.Branch)
	case rep.Written:
		b.WriteString("\nwritten\n")
	case len(rep.Files) > 0:
		b.WriteString("\nnothing written: --write writes it, --commit commits it on a new branch\n")
	}
	return b.String()
}

// escapedText is text for the terminal, each piece escaped (escape.String)
// as it is written.
type escapedText struct{ strings.Builder }

func (t *escapedText) WriteString(s string) (int, error) {
	return t.Builder.WriteString(escape.String(s))
}

func (t *escapedText) Write(p []byte) (int, error) { return t.WriteString(string(p)) }

// writeDiff writes a unified diff escaped line by line, but for diff's
// own "\ No newline at end of file", which stays as git writes it: the
// printed diff is a patch git apply takes.
func writeDiff(b *escapedText, d string) {
	for _, l := range strings.SplitAfter(d, "\n") {
		if strings.TrimSuffix(l, "\n") == source.NoNewline {
			b.Builder.WriteString(l)
			continue
		}
		b.WriteString(l)
	}
}

func dotDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// sourceDir is --source, else the top of the git work tree holding the
// current directory.
func sourceDir(flag string) (string, error) {
	if flag != "" {
		st, err := os.Stat(flag)
		if err != nil {
			return "", fmt.Errorf("--source: %w", err)
		}
		if !st.IsDir() {
			return "", fmt.Errorf("--source %s is not a directory", flag)
		}
		return filepath.Abs(flag)
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", errors.New("the current directory is in no git work tree: give the manifests' checkout with --source DIR")
	}
	return strings.TrimSpace(string(out)), nil
}
