package source

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/words"
)

// ConflictError: a file changed on disk since the plan read it. kedit
// writes nothing over it.
type ConflictError struct{ Files []string }

func (e *ConflictError) Error() string {
	return "changed on disk since kedit read it, so nothing was written: " + strings.Join(e.Files, ", ")
}

// DirtyError: the work tree has uncommitted changes in files the edit
// would touch.
type DirtyError struct{ Files []string }

func (e *DirtyError) Error() string {
	return "uncommitted changes in files kedit would write, so nothing was written: " + strings.Join(e.Files, ", ")
}

// Write writes the edit's files, after checking that none changed on disk
// since the plan read it and, in a git work tree, that none has
// uncommitted changes. It writes nothing when a check fails.
func (e *Edit) Write() error {
	if err := e.unchanged(); err != nil {
		return err
	}
	for _, f := range e.Files {
		p := filepath.Join(e.Dir, filepath.FromSlash(f.Path))
		perm := fs.FileMode(0o644)
		if st, err := os.Stat(p); err == nil {
			perm = st.Mode().Perm()
		}
		if err := fsutil.WriteFileAtomic(p, f.New, perm); err != nil {
			return err
		}
	}
	return nil
}

// unchanged checks that no file of the edit changed on disk since the
// plan read it and, in a git work tree, that none has uncommitted
// changes.
func (e *Edit) unchanged() error {
	var changed []string
	for _, f := range e.Files {
		cur, err := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(f.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if f.Old != nil {
				changed = append(changed, f.Path)
			}
		case err != nil:
			return err
		case f.Old == nil || !bytes.Equal(cur, f.Old):
			changed = append(changed, f.Path)
		}
	}
	if len(changed) > 0 {
		return &ConflictError{Files: changed}
	}
	dirty, err := e.dirty()
	if err != nil {
		return err
	}
	if len(dirty) > 0 {
		return &DirtyError{Files: dirty}
	}
	return nil
}

// git runs git in the edit's directory.
func (e *Edit) git(args ...string) (string, error) {
	return e.gitWith(nil, nil, args...)
}

// gitWith runs git in the edit's directory with env added and stdin.
func (e *Edit) gitWith(env []string, stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = e.Dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// inWorkTree says whether the directory is in a git work tree.
func (e *Edit) inWorkTree() bool {
	out, err := e.git("rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(out) == "true"
}

// dirty returns the edit's files that git says have uncommitted changes
// (or are untracked), in a git work tree; none outside one.
func (e *Edit) dirty() ([]string, error) {
	if len(e.Files) == 0 || !e.inWorkTree() {
		return nil, nil
	}
	args := []string{"status", "--porcelain", "--"}
	for _, f := range e.Files {
		args = append(args, filepath.FromSlash(f.Path))
	}
	out, err := e.git(args...)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if len(l) > 3 {
			files = append(files, l[3:])
		}
	}
	return files, nil
}

// BranchName is the branch Commit makes for an object:
// kedit/KIND-NAMESPACE-NAME, lower case, what git refuses in a name
// replaced by "-".
func BranchName(r Ref) string {
	s := strings.ToLower(r.Kind)
	if r.Namespace != "" {
		s += "-" + r.Namespace
	}
	s += "-" + r.Name
	return "kedit/" + strings.Trim(badRef.ReplaceAllString(s, "-"), "-.")
}

var badRef = regexp.MustCompile(`[^a-z0-9._-]+`)

// Commit makes a commit of the edit's files on a new branch named after
// the object (BranchName), with a message naming the object and the
// changed fields, and returns the branch. The commit is made on HEAD
// through an index of its own: the checkout stays on its branch and its
// files as they are (Write writes them). It never pushes. The files must
// be as the plan read them, without uncommitted changes.
func (e *Edit) Commit(r Ref) (string, error) {
	return e.commit(BranchName(r), e.Message(r))
}

// CommitAll makes one commit of several written edits of one directory,
// one for each of refs, on a new branch named after the first object and
// how many more, with each object's message; it never pushes.
func CommitAll(edits []*Edit, refs []Ref) (string, error) {
	if len(edits) == 0 || len(edits) != len(refs) {
		return "", fmt.Errorf("CommitAll: %s of %s", words.Count(len(edits), "edit"), words.Count(len(refs), "object"))
	}
	if len(edits) == 1 {
		return edits[0].Commit(refs[0])
	}
	all, err := Combine(edits)
	if err != nil {
		return "", err
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s: the live edits in their source\n", words.Count(len(edits), "object"))
	for i, e := range edits {
		msg.WriteString("\n" + e.Message(refs[i]))
	}
	return all.commit(fmt.Sprintf("%s-and-%d-more", BranchName(refs[0]), len(refs)-1), msg.String())
}

// commit commits the edit's files on the new branch with msg, on HEAD,
// through a temporary index: the checkout is left as it is.
func (e *Edit) commit(branch, msg string) (string, error) {
	if !e.inWorkTree() {
		return "", fmt.Errorf("%s is not in a git work tree", e.Dir)
	}
	if err := e.unchanged(); err != nil {
		return "", err
	}
	if _, err := e.git("check-ref-format", "refs/heads/"+branch); err != nil {
		return "", fmt.Errorf("%s is no name git takes for a branch", branch)
	}
	if _, err := e.git("rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		return "", fmt.Errorf("the branch %s exists: nothing committed (delete it, or merge it first)", branch)
	}
	head, err := e.git("rev-parse", "--verify", "HEAD")
	if err != nil {
		return "", err
	}
	prefix, err := e.git("rev-parse", "--show-prefix")
	if err != nil {
		return "", err
	}
	top, err := e.git("rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	atTop := []string{"-C", strings.TrimSpace(top)}
	tmp, err := os.MkdirTemp("", "kedit-commit-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := e.gitWith(env, nil, "read-tree", strings.TrimSpace(head)); err != nil {
		return "", err
	}
	for _, f := range e.Files {
		blob, err := e.gitWith(nil, f.New, "hash-object", "-w", "--stdin")
		if err != nil {
			return "", err
		}
		mode := "100644"
		if st, err := os.Stat(filepath.Join(e.Dir, filepath.FromSlash(f.Path))); err == nil && st.Mode().Perm()&0o111 != 0 {
			mode = "100755"
		}
		info := mode + "," + strings.TrimSpace(blob) + "," + strings.TrimSpace(prefix) + f.Path
		if _, err := e.gitWith(env, nil, append(atTop, "update-index", "--add", "--cacheinfo", info)...); err != nil {
			return "", err
		}
	}
	tree, err := e.gitWith(env, nil, "write-tree")
	if err != nil {
		return "", err
	}
	commit, err := e.gitWith(nil, []byte(msg), "commit-tree", strings.TrimSpace(tree), "-p", strings.TrimSpace(head))
	if err != nil {
		return "", err
	}
	if _, err := e.git("branch", branch, strings.TrimSpace(commit)); err != nil {
		return "", err
	}
	return branch, nil
}

// Message is the commit message: the object, then each field and the
// file it went into.
func (e *Edit) Message(r Ref) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the live edit in its source\n\n", r)
	for _, p := range e.Placed {
		fmt.Fprintf(&b, "%s in %s (%s)\n", p.Field, p.File, p.How)
	}
	return b.String()
}

// NoNewline is the line a unified diff has after one with no newline at
// its end, as git writes it.
const NoNewline = `\ No newline at end of file`

// Unified is the file's change as `git diff` shows it: ---/+++ headers
// (/dev/null for a new file) and hunks with three lines of context.
func (f FileEdit) Unified() string {
	var b strings.Builder
	from := "a/" + f.Path
	if f.Old == nil {
		from = "/dev/null"
	}
	fmt.Fprintf(&b, "--- %s\n+++ b/%s\n", from, f.Path)
	for _, h := range diff.Hunks(diff.LineDiff(string(f.Old), string(f.New)), diff.DefaultContext) {
		b.WriteString(h.Header() + "\n")
		for _, e := range h.Edits {
			mark := " "
			switch e.Op {
			case diff.LineInsert:
				mark = "+"
			case diff.LineDelete:
				mark = "-"
			}
			for _, l := range e.Lines {
				b.WriteString(mark + l)
				if !strings.HasSuffix(l, "\n") {
					b.WriteString("\n" + NoNewline + "\n")
				}
			}
		}
	}
	return b.String()
}
