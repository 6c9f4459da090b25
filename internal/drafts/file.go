package drafts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/fsutil"
)

// A draft file is a readable YAML file: a comment header, then the draft
// text byte for byte. The header is comments so that a user who opens the
// file, or feeds it to kubectl, still has YAML. It is a fixed first line,
// the base resourceVersion, the time it was saved, optionally the cluster
// and the object's uid, and a fixed last line; Load never has to guess
// where the draft text starts, even when the text itself begins with
// comments or is not YAML at all. Drafts written before the cluster and uid
// were recorded have neither line.
const (
	draftMagic        = "# kedit draft: "
	draftBaseRVPrefix = "# base resourceVersion: "
	draftSavedPrefix  = "# saved at: "
	draftServerPrefix = "# server: "
	draftUIDPrefix    = "# uid: "
	draftTextFollows  = "# The draft text follows this header line byte for byte."
	maxHeaderLines    = 6
)

// formatDraft is the file of a draft: its header, then text.
func (s *Store) formatDraft(k Key, uid, baseRV string, text []byte) ([]byte, error) {
	if strings.ContainsAny(baseRV, "\r\n") {
		// It would break the header; the server never sends one like it.
		return nil, fmt.Errorf("resourceVersion %q contains a line break", baseRV)
	}
	var buf bytes.Buffer
	// The first line only informs the reader; a name typed on the command
	// line may hold anything, and no line break may end the line early.
	name := strings.ReplaceAll(escape.String(k.String()), "\n", `\n`)
	fmt.Fprintf(&buf, "%s%s, namespace %s, context %s\n", draftMagic, name, strconv.Quote(k.Namespace), strconv.Quote(k.Context))
	fmt.Fprintf(&buf, "%s%s\n", draftBaseRVPrefix, baseRV)
	fmt.Fprintf(&buf, "%s%s\n", draftSavedPrefix, s.clock().UTC().Format(time.RFC3339Nano))
	fmt.Fprintf(&buf, "%s%s\n", draftServerPrefix, strconv.Quote(k.Server))
	fmt.Fprintf(&buf, "%s%s\n", draftUIDPrefix, strconv.Quote(uid))
	buf.WriteString(draftTextFollows + "\n")
	buf.Write(text)
	return buf.Bytes(), nil
}

func parseDraft(b []byte) (*Draft, error) {
	rest := b
	var lines []string
	for {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		if !found {
			return nil, errors.New("not a kedit draft: the header is cut short")
		}
		lines, rest = append(lines, string(line)), after
		if string(line) == draftTextFollows {
			break
		}
		if len(lines) == maxHeaderLines {
			return nil, errors.New("not a kedit draft: header does not end where expected")
		}
	}
	if !strings.HasPrefix(lines[0], draftMagic) {
		return nil, errors.New("not a kedit draft: no header")
	}
	if len(lines) < 4 {
		return nil, errors.New("not a kedit draft: the header is cut short")
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
	d := &Draft{BaseResourceVersion: rv, SavedAt: saved, Text: bytes.Clone(rest)}
	for _, l := range lines[3 : len(lines)-1] {
		var field *string
		var v string
		if v, ok = strings.CutPrefix(l, draftServerPrefix); ok {
			field = &d.Server
		} else if v, ok = strings.CutPrefix(l, draftUIDPrefix); ok {
			field = &d.UID
		} else {
			return nil, fmt.Errorf("not a kedit draft: unknown header line %q", l)
		}
		if *field, err = strconv.Unquote(v); err != nil {
			return nil, fmt.Errorf("not a kedit draft: header line %q: %w", l, err)
		}
	}
	return d, nil
}

// Read reads the draft at path, and its base when one is kept beside it.
// A symlink is never followed.
func Read(path string) (*Draft, error) {
	b, err := fsutil.ReadFileNoFollow(path)
	if err != nil {
		return nil, err
	}
	d, err := parseDraft(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Path = path
	if base, err := fsutil.ReadFileNoFollow(path + baseExt); err == nil {
		d.BaseJSON = base // a missing or unreadable base only makes recovery stricter
	}
	return d, nil
}

// baseRVOf is the resourceVersion of a base kept as JSON; "" when it
// cannot be read.
func baseRVOf(base []byte) string {
	var obj struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if json.Unmarshal(base, &obj) != nil {
		return ""
	}
	return obj.Metadata.ResourceVersion
}

// writeDraftFiles writes the draft at path atomically, then its base
// beside it when given. A crash leaves either the previous draft or the
// new one, never a mix.
func writeDraftFiles(path string, file []byte, base map[string]any) error {
	if err := fsutil.WriteFileAtomic(path, file, 0o600); err != nil {
		return err
	}
	if base == nil {
		return nil
	}
	b, err := json.Marshal(base)
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(path+baseExt, b, 0o600); err != nil {
		return fmt.Errorf("the draft is saved, but not its base (recovering it later may need a fresh edit): %w", err)
	}
	return nil
}

// removeDraftFiles removes a draft and its base; what is missing already
// is no error.
func removeDraftFiles(path string) error {
	for _, p := range []string{path, path + baseExt} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	fsutil.SyncDir(filepath.Dir(path))
	return nil
}

// keepAside moves the draft at path to <path>.<UTC time>.kept, which
// nothing writes again, and removes its base. It never replaces a file.
func keepAside(path string, now time.Time) (string, error) {
	stamp := now.UTC().Format(keptLayout)
	for i := 1; ; i++ {
		kept := path + "." + stamp + keptExt
		if i > 1 {
			kept = path + "." + stamp + "-" + strconv.Itoa(i) + keptExt
		}
		err := os.Link(path, kept)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		if err := removeDraftFiles(path); err != nil {
			return kept, err
		}
		return kept, nil
	}
}
