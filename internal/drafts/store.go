package drafts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/fsutil"
)

// clusterScopedDir stands in for the namespace of cluster-scoped objects.
// Escaped path components never start with "_" (see escapeComponent), so
// no namespace or context can collide with it or with noContextDir.
const (
	clusterScopedDir = "_cluster"
	noContextDir     = "_nocontext"
)

// maxComponent bounds one escaped path component: object names may be 253
// bytes and escaping can triple them, while most file systems allow 255.
const maxComponent = 200

// The names of the files of one object's drafts, beside each other in its
// directory. The first kedit on an object stores its draft in
// <name>.yaml, a second one at the same time in <name>_2.yaml, and so on:
// escapeComponent never writes "_", so no object's name can look like
// another's numbered one.
const (
	draftExt   = ".yaml"
	baseExt    = ".base.json" // beside an older kedit's draft: its base as JSON
	lockExt    = ".lock"      // beside a draft: flock'ed by the kedit writing it
	keptExt    = ".kept"      // <draft>.<UTC time>.kept: set aside, never written again
	keptLayout = "20060102T150405Z"
)

// Draft is a draft as stored on disk: the user's unsaved text and the
// base it was written against, so recovery can tell whether the object
// moved on since.
type Draft struct {
	// BaseResourceVersion is the resourceVersion of the base the draft
	// was edited from.
	BaseResourceVersion string
	// SavedAt is when the draft was last written.
	SavedAt time.Time
	// Text is the draft exactly as the user left it; it may not be valid
	// YAML.
	Text []byte
	// Path is the file holding the draft.
	Path string
	// BaseJSON is the object the draft was made from, as JSON; nil when it
	// was not stored. The store writes it with the draft, so it is at
	// BaseResourceVersion; an older kedit kept it beside the draft, where
	// it may be at an older one.
	BaseJSON []byte
	// Server is the API server's URL the draft was made against; empty
	// for drafts of older kedits, which did not record it.
	Server string
	// UID is the uid of the object the draft was made on; empty when not
	// recorded.
	UID string
	// Format is the format Text is written in, as -o names it ("json");
	// empty for YAML.
	Format string

	// baseLine is true when the file holds its base (or says it has
	// none): the file beside it, if any, is not its base.
	baseLine bool
}

// SecretError is returned by Object.Write for a Secret when the store does
// not allow Secret drafts (--allow-secret-drafts): the draft stays in
// memory only, so a Secret's values never reach the disk. The message
// names the object, never its contents.
type SecretError struct {
	Target string // e.g. secrets/db-password
}

func (e *SecretError) Error() string {
	return fmt.Sprintf("draft of %s kept in memory only: Secret drafts are written to disk only with --allow-secret-drafts", e.Target)
}

// WriteError says that the draft could not be written to the store (a full
// or read-only disk, a draft directory that cannot be used): it exists
// only in memory until a write succeeds.
type WriteError struct {
	// Path is the file the draft was to be written to.
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("the draft exists only in memory: writing %s failed: %v", e.Path, e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// Store keeps drafts under Dir, one directory per object:
// Dir/<context>/<namespace>/<resource.group>/<name>.yaml, mode 0600 in
// 0700 directories, so that an edit survives a crash, a closed terminal or
// a lost connection. Open hands one kedit its object's drafts.
type Store struct {
	// Dir is the root of the store, normally $XDG_STATE_HOME/kedit/drafts.
	Dir string
	// AllowSecrets lets drafts of Secrets be written to disk.
	AllowSecrets bool
	// now is the clock for SavedAt; tests replace it.
	now func() time.Time
	// fs changes the files; nil is the disk itself (osDisk).
	fs disk
}

// DefaultDir returns $XDG_STATE_HOME/kedit/drafts, or
// ~/.local/state/kedit/drafts when XDG_STATE_HOME is unset. A relative
// XDG_STATE_HOME is ignored, as the XDG base directory specification asks.
func DefaultDir() (string, error) {
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" || !filepath.IsAbs(state) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the draft directory (XDG_STATE_HOME and HOME are unset): %w", err)
		}
		state = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(state, "kedit", "drafts"), nil
}

// NewStore returns a store at DefaultDir. allowSecretDrafts is the
// --allow-secret-drafts flag.
func NewStore(allowSecretDrafts bool) (*Store, error) {
	dir, err := DefaultDir()
	if err != nil {
		return nil, err
	}
	return &Store{Dir: dir, AllowSecrets: allowSecretDrafts}, nil
}

// Key names the object whose drafts the store keeps, as kube resolved it:
// it is the draft's directory and file name, and what its header records.
type Key struct {
	// Context is the kubeconfig context; empty when there was none.
	Context string
	// Server is the API server's URL: two kubeconfigs may give one context
	// name to two clusters.
	Server string
	// Namespace is the object's namespace, as the command line gave it.
	Namespace string
	// ClusterScoped is true for objects outside namespaces: their
	// directory is _cluster.
	ClusterScoped bool
	// Resource is the resource as kubectl spells it, resource.group:
	// "configmaps", "deployments.apps".
	Resource string
	// Name is the object's name.
	Name string
	// Subresource is the part of the object the draft edits ("status",
	// "scale"); "" for the object itself. A subresource's drafts are kept
	// apart from the object's.
	Subresource string
	// Secret, when set, marks a Secret: its drafts are written to disk
	// only when the store allows it (Store.AllowSecrets), and then in the
	// form Secret gives them.
	Secret *SecretText
}

// SecretText turns a Secret's draft, as the user edits it, into what is
// stored on disk (its values encoded as the API server holds them) and
// back.
type SecretText struct {
	// Store is the text to write for a draft.
	Store func(text string) string
	// Load is the draft's text from what was written; an error makes the
	// file one kedit did not write.
	Load func(stored string) (string, error)
}

// String names the object as kubectl does, resource/name.
func (k Key) String() string { return k.Resource + "/" + k.Name }

func (s *Store) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// Path returns the file that holds k's draft when no other kedit edits k
// at the same time: <name>.yaml in the object's directory.
func (s *Store) Path(k Key) string { return s.slotPath(k, 1) }

// slotPath is the file of k's n-th draft: <name>.yaml, <name>_2.yaml, ...
func (s *Store) slotPath(k Key, n int) string {
	name := escapeComponent(k.Name)
	if n > 1 {
		name += "_" + strconv.Itoa(n)
	}
	return filepath.Join(s.objectDir(k), name+draftExt)
}

func (s *Store) objectDir(k Key) string {
	ctx := noContextDir
	if k.Context != "" {
		ctx = escapeComponent(k.Context)
	}
	ns := clusterScopedDir
	if !k.ClusterScoped {
		ns = escapeComponent(k.Namespace)
	}
	res := k.Resource
	if k.Subresource != "" {
		// resource.group/status: a "/" no resource's name holds.
		res += "/" + k.Subresource
	}
	return filepath.Join(s.Dir, ctx, ns, escapeComponent(res))
}

// slotOf reads a file name in an object's directory: the draft number n
// of the object whose escaped name is name, and what the file is (the
// draft, its base or its lock; "" for a name that is not the object's).
func slotOf(file, name string) (n int, kind string) {
	rest, ok := strings.CutPrefix(file, name)
	if !ok {
		return 0, ""
	}
	n = 1
	if num, after, ok := strings.Cut(rest, draftExt); ok && strings.HasPrefix(num, "_") {
		v, err := strconv.Atoi(num[1:])
		if err != nil || v < 2 || strconv.Itoa(v) != num[1:] {
			return 0, ""
		}
		n, rest = v, draftExt+after
	}
	switch rest {
	case draftExt:
		return n, draftExt
	case draftExt + baseExt:
		return n, baseExt
	case draftExt + lockExt:
		return n, lockExt
	}
	return 0, ""
}

// mkdirPrivate creates dir with mode 0700 and makes every kedit directory
// from the store's parent (…/kedit) down to dir a private directory
// (fsutil.PrivateDir: 0700, the user's, no symlink), including ones an
// older version or a umask left readable by others. Directories above
// …/kedit belong to the user and are left as they are.
func (s *Store) mkdirPrivate(dir string) error {
	top := filepath.Dir(s.Dir)
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("draft directory %s is outside %s", dir, top)
	}
	if err := os.MkdirAll(filepath.Dir(top), 0o700); err != nil {
		return err
	}
	p := top
	for _, part := range append([]string{""}, strings.Split(rel, string(filepath.Separator))...) {
		p = filepath.Join(p, part)
		if err := fsutil.PrivateDir(p); err != nil {
			return err
		}
	}
	return nil
}

// escapeComponent turns any string into one safe path component:
// bytes outside [A-Za-z0-9.-] (and "_" and "%" themselves) become %XX, so
// "/" cannot nest directories, and a component made only of dots (".",
// "..") has them escaped too so it cannot name a directory up. The mapping
// is one to one, so two contexts never share a directory. Components
// longer than maxComponent are cut and suffixed with a hash of the whole.
func escapeComponent(s string) string {
	var b strings.Builder
	onlyDots := strings.Trim(s, ".") == ""
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
			b.WriteByte(c)
		case c == '.' && !onlyDots:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	out := b.String()
	if out == "" {
		out = "%" // the empty string; "%" alone is never produced otherwise
	}
	if len(out) > maxComponent {
		sum := sha256.Sum256([]byte(s))
		out = out[:maxComponent-17] + "~" + hex.EncodeToString(sum[:8])
	}
	return out
}

// unescapeComponent reverses escapeComponent; ok is false for names it
// cannot have produced or cannot reverse (hashed long names).
func unescapeComponent(s string) (string, bool) {
	if s == "%" {
		return "", true
	}
	if strings.Contains(s, "~") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), true
}
