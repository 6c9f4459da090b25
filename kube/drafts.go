package kube

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/model"
)

// A draft file is a readable YAML file: a comment header of exactly
// draftHeaderLines lines, then the draft text byte for byte. The header is
// comments so that a user who opens the file, or feeds it to kubectl,
// still has YAML; its shape is fixed so that Load never has to guess where
// the draft text starts, even when the text itself begins with comments or
// is not YAML at all.
const (
	draftMagic        = "# kedit draft: "
	draftBaseRVPrefix = "# base resourceVersion: "
	draftSavedPrefix  = "# saved at: "
	draftTextFollows  = "# The draft text follows this header line byte for byte."
	draftHeaderLines  = 4
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
	// Base is the object the draft was made from, when SaveBase kept it
	// (at BaseResourceVersion or an older one: see Stored).
	Base *unstructured.Unstructured
}

// Stored is the draft as the session takes it back. Base is handed on
// only when it is the version the draft was last based on; a draft
// recovered without its base can still be taken up when the object has
// not moved on since.
func (d *Draft) Stored() model.StoredDraft {
	sd := model.StoredDraft{Text: string(d.Text), BaseResourceVersion: d.BaseResourceVersion}
	if d.Base != nil && d.Base.GetResourceVersion() == d.BaseResourceVersion {
		sd.Base = d.Base.DeepCopy()
	}
	return sd
}

// SecretDraftError is returned by DraftStore.Save for a Secret when the
// store does not allow Secret drafts (--allow-secret-drafts): the draft
// stays in memory only, so a Secret's values never reach the disk. The
// message names the object, never its contents.
type SecretDraftError struct {
	Target string // e.g. secrets/db-password
}

func (e *SecretDraftError) Error() string {
	return fmt.Sprintf("draft of %s kept in memory only: Secret drafts are written to disk only with --allow-secret-drafts", e.Target)
}

// DraftStore keeps drafts under Dir, one file per object:
// Dir/<context>/<namespace>/<resource.group>/<name>.yaml, mode 0600 in
// 0700 directories, so that an edit survives a crash, a closed terminal or
// a lost connection.
type DraftStore struct {
	// Dir is the root of the store, normally $XDG_STATE_HOME/kedit/drafts.
	Dir string
	// AllowSecrets lets Save write drafts of Secrets to disk.
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

// Path returns the file that holds t's draft.
func (s *DraftStore) Path(t *Target) string {
	return filepath.Join(s.objectDir(t), escapeComponent(t.Name)+".yaml")
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

// Save writes t's draft atomically: a crash leaves either the previous
// draft or the new one, never a mix. For a Secret without AllowSecrets it
// writes nothing and returns a *SecretDraftError.
func (s *DraftStore) Save(t *Target, baseResourceVersion string, text []byte) (path string, err error) {
	if IsSecret(t) && !s.AllowSecrets {
		return "", &SecretDraftError{Target: t.String()}
	}
	if strings.ContainsAny(baseResourceVersion, "\r\n") {
		// It would break the header; the server never sends one like it.
		return "", fmt.Errorf("saving the draft of %s: resourceVersion %q contains a line break", t, baseResourceVersion)
	}
	dir := s.objectDir(t)
	if err := s.mkdirPrivate(dir); err != nil {
		return "", fmt.Errorf("saving the draft of %s: %w", t, err)
	}
	path = s.Path(t)
	now := time.Now
	if s.now != nil {
		now = s.now
	}
	var buf bytes.Buffer
	// The first line only informs the reader; a name typed on the command
	// line may hold anything, and no line break may end the line early.
	name := strings.ReplaceAll(EscapeControl(t.String()), "\n", `\n`)
	fmt.Fprintf(&buf, "%s%s, namespace %s, context %s\n", draftMagic, name, strconv.Quote(t.Namespace), strconv.Quote(t.Context))
	fmt.Fprintf(&buf, "%s%s\n", draftBaseRVPrefix, baseResourceVersion)
	fmt.Fprintf(&buf, "%s%s\n", draftSavedPrefix, now().UTC().Format(time.RFC3339Nano))
	buf.WriteString(draftTextFollows + "\n")
	buf.Write(text)
	if err := fsutil.WriteFileAtomic(path, buf.Bytes(), 0o600); err != nil {
		return "", fmt.Errorf("saving the draft of %s: %w", t, err)
	}
	return path, nil
}

// basePath is the file beside the draft that keeps its base as JSON.
// Drafts end in .yaml, so List never mistakes it for one.
func (s *DraftStore) basePath(t *Target) string { return s.Path(t) + ".base.json" }

// SaveBase keeps base, the object a draft was made from, beside the draft,
// so that a draft recovered after the object moved on can be rebased rather
// than refused. It writes only when base is a version it does not already
// hold, not on every draft change. A Secret's base holds its values and
// follows the same rule as its draft.
func (s *DraftStore) SaveBase(t *Target, base *unstructured.Unstructured) error {
	if IsSecret(t) && !s.AllowSecrets {
		return &SecretDraftError{Target: t.String()}
	}
	path := s.basePath(t)
	if old, err := loadBaseFile(path); err == nil && old.GetResourceVersion() == base.GetResourceVersion() {
		return nil
	}
	if err := s.mkdirPrivate(s.objectDir(t)); err != nil {
		return fmt.Errorf("saving the base of the draft of %s: %w", t, err)
	}
	b, err := json.Marshal(base.Object)
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(path, b, 0o600); err != nil {
		return fmt.Errorf("saving the base of the draft of %s: %w", t, err)
	}
	return nil
}

func loadBaseFile(path string) (*unstructured.Unstructured, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return obj, nil
}

// Load reads t's draft, to offer its recovery. ok is false when there is
// none.
func (s *DraftStore) Load(t *Target) (d *Draft, ok bool, err error) {
	path := s.Path(t)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the draft of %s: %w", t, err)
	}
	d, err = parseDraft(b)
	if err != nil {
		return nil, false, fmt.Errorf("reading the draft of %s from %s: %w", t, path, err)
	}
	d.Path = path
	if base, err := loadBaseFile(s.basePath(t)); err == nil {
		d.Base = base // a missing or unreadable base only makes recovery stricter
	}
	return d, true, nil
}

// Delete removes t's draft, after a save or when the user discards it.
// Deleting a draft that does not exist is not an error.
func (s *DraftStore) Delete(t *Target) error {
	for _, p := range []string{s.Path(t), s.basePath(t)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("deleting the draft of %s: %w", t, err)
		}
	}
	return nil
}

// DraftEntry is one draft found by List, named by where it belongs.
type DraftEntry struct {
	// Context is the kubeconfig context; empty when there was none.
	Context string
	// Namespace is empty for cluster-scoped objects.
	Namespace string
	// Resource is resource.group, e.g. deployments.apps or configmaps.
	Resource string
	Name     string
	Path     string
}

// List returns every draft in the store, to show what can be recovered.
// Files that are not drafts' (a stray temp file, a user's backup) are
// skipped.
func (s *DraftStore) List() ([]DraftEntry, error) {
	var out []DraftEntry
	err := filepath.WalkDir(s.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == s.Dir {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".yaml") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		rel, err := filepath.Rel(s.Dir, path)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) != 4 {
			return nil
		}
		var e DraftEntry
		var ok [4]bool
		if parts[0] != noContextDir {
			e.Context, ok[0] = unescapeComponent(parts[0])
		} else {
			ok[0] = true
		}
		if parts[1] != clusterScopedDir {
			e.Namespace, ok[1] = unescapeComponent(parts[1])
		} else {
			ok[1] = true
		}
		e.Resource, ok[2] = unescapeComponent(parts[2])
		e.Name, ok[3] = unescapeComponent(strings.TrimSuffix(parts[3], ".yaml"))
		if ok != [4]bool{true, true, true, true} {
			return nil // hashed (too long) or foreign names cannot be turned back
		}
		e.Path = path
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing drafts in %s: %w", s.Dir, err)
	}
	return out, nil
}

func parseDraft(b []byte) (*Draft, error) {
	rest := b
	var lines [draftHeaderLines]string
	for i := range lines {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		if !found {
			return nil, errors.New("not a kedit draft: the header is cut short")
		}
		lines[i], rest = string(line), after
	}
	if !strings.HasPrefix(lines[0], draftMagic) {
		return nil, errors.New("not a kedit draft: no header")
	}
	rv, ok := strings.CutPrefix(lines[1], draftBaseRVPrefix)
	if !ok {
		return nil, errors.New("not a kedit draft: no base resourceVersion")
	}
	savedText, ok := strings.CutPrefix(lines[2], draftSavedPrefix)
	if !ok {
		return nil, errors.New("not a kedit draft: no saved-at time")
	}
	saved, err := time.Parse(time.RFC3339Nano, savedText)
	if err != nil {
		return nil, fmt.Errorf("not a kedit draft: saved-at time: %w", err)
	}
	if lines[3] != draftTextFollows {
		return nil, errors.New("not a kedit draft: header does not end where expected")
	}
	return &Draft{BaseResourceVersion: rv, SavedAt: saved, Text: bytes.Clone(rest)}, nil
}

// mkdirPrivate creates dir with mode 0700 and makes every kedit directory
// from the store's parent (…/kedit) down to dir 0700, including ones an
// older version or a umask left readable by others. Directories above
// …/kedit belong to the user and are left as they are.
func (s *DraftStore) mkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	top := filepath.Dir(s.Dir)
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("draft directory %s is outside %s", dir, top)
	}
	p := top
	for _, part := range append([]string{""}, strings.Split(rel, string(filepath.Separator))...) {
		p = filepath.Join(p, part)
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Perm() != 0o700 {
			if err := os.Chmod(p, 0o700); err != nil {
				return err
			}
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
