package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/model"
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
	baseExt    = ".base.json" // beside a draft: its base as JSON
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
	// Base is the object the draft was made from, when it was kept beside
	// the draft (at BaseResourceVersion or an older one: see Stored).
	Base *unstructured.Unstructured
	// Server is the API server's URL the draft was made against; empty
	// for drafts of older kedits, which did not record it.
	Server string
	// UID is the uid of the object the draft was made on; empty when not
	// recorded.
	UID string
}

// Stored is the draft as the session takes it back. Base is handed on
// only when it is the version the draft was last based on; a draft
// recovered without its base can still be taken up when the object has
// not moved on since.
func (d *Draft) Stored() model.StoredDraft {
	sd := model.StoredDraft{Text: string(d.Text), BaseResourceVersion: d.BaseResourceVersion, UID: d.UID}
	if d.Base != nil && d.Base.GetResourceVersion() == d.BaseResourceVersion {
		sd.Base = d.Base.DeepCopy()
	}
	return sd
}

// SecretDraftError is returned by ObjectDrafts.Write for a Secret when the
// store does not allow Secret drafts (--allow-secret-drafts): the draft
// stays in memory only, so a Secret's values never reach the disk. The
// message names the object, never its contents.
type SecretDraftError struct {
	Target string // e.g. secrets/db-password
}

func (e *SecretDraftError) Error() string {
	return fmt.Sprintf("draft of %s kept in memory only: Secret drafts are written to disk only with --allow-secret-drafts", e.Target)
}

// DraftWriteError says that the draft could not be written to the store
// (a full or read-only disk, a draft directory that cannot be used): it
// exists only in memory until a write succeeds.
type DraftWriteError struct {
	// Path is the file the draft was to be written to.
	Path string
	Err  error
}

func (e *DraftWriteError) Error() string {
	return fmt.Sprintf("the draft exists only in memory: writing %s failed: %v", e.Path, e.Err)
}

func (e *DraftWriteError) Unwrap() error { return e.Err }

// DraftStore keeps drafts under Dir, one directory per object:
// Dir/<context>/<namespace>/<resource.group>/<name>.yaml, mode 0600 in
// 0700 directories, so that an edit survives a crash, a closed terminal or
// a lost connection. Open hands one kedit its object's drafts.
type DraftStore struct {
	// Dir is the root of the store, normally $XDG_STATE_HOME/kedit/drafts.
	Dir string
	// AllowSecrets lets drafts of Secrets be written to disk.
	AllowSecrets bool
	// now is the clock for SavedAt; tests replace it.
	now func() time.Time
}

// DefaultDraftDir returns $XDG_STATE_HOME/kedit/drafts, or
// ~/.local/state/kedit/drafts when XDG_STATE_HOME is unset. A relative
// XDG_STATE_HOME is ignored, as the XDG base directory specification asks.
func DefaultDraftDir() (string, error) {
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

// NewDraftStore returns a store at DefaultDraftDir. allowSecretDrafts is
// the --allow-secret-drafts flag.
func NewDraftStore(allowSecretDrafts bool) (*DraftStore, error) {
	dir, err := DefaultDraftDir()
	if err != nil {
		return nil, err
	}
	return &DraftStore{Dir: dir, AllowSecrets: allowSecretDrafts}, nil
}

// IsSecret reports whether t is a core/v1 Secret, whose drafts hold secret
// values.
func IsSecret(t *Target) bool {
	r := t.Mapping.Resource
	return r.Group == "" && r.Resource == "secrets"
}

func (s *DraftStore) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// Path returns the file that holds t's draft when no other kedit edits t
// at the same time: <name>.yaml in the object's directory.
func (s *DraftStore) Path(t *Target) string { return s.slotPath(t, 1) }

// slotPath is the file of t's n-th draft: <name>.yaml, <name>_2.yaml, ...
func (s *DraftStore) slotPath(t *Target, n int) string {
	name := escapeComponent(t.Name)
	if n > 1 {
		name += "_" + strconv.Itoa(n)
	}
	return filepath.Join(s.objectDir(t), name+draftExt)
}

func (s *DraftStore) objectDir(t *Target) string {
	ctx := noContextDir
	if t.Context != "" {
		ctx = escapeComponent(t.Context)
	}
	ns := clusterScopedDir
	if t.Namespaced() {
		ns = escapeComponent(t.Namespace)
	}
	r := t.Mapping.Resource
	res := r.Resource
	if r.Group != "" {
		res += "." + r.Group
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
func (s *DraftStore) mkdirPrivate(dir string) error {
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
