package drafts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/fsutil"
)

// A draft file is a readable YAML file: a comment header, then the draft
// text byte for byte. The header is comments so that a user who opens the
// file, or feeds it to kubectl, still has YAML. It is a fixed first line,
// the base resourceVersion, the time it was saved, the cluster, the
// object's uid, the draft text's format when it is not YAML (-o json: a
// JSON text after the comments is YAML still), the base itself as JSON on
// one line, and a fixed last line;
// Load never has to guess where the draft text starts, even when the text
// itself begins with comments or is not YAML at all.
//
// A draft and its base are one file, written in one atomic write: no crash
// can leave a draft without its base, or a base beside another draft.
// Older kedits wrote the base beside the draft (<draft>.base.json) and no
// base line; such a draft is read with that file as its base. Drafts of
// still older kedits have no cluster or uid line either.
const (
	draftMagic        = "# kedit draft: "
	draftBaseRVPrefix = "# base resourceVersion: "
	draftSavedPrefix  = "# saved at: "
	draftServerPrefix = "# server: "
	draftUIDPrefix    = "# uid: "
	draftFormatPrefix = "# format: "
	draftBasePrefix   = "# base: "
	draftTextFollows  = "# The draft text follows this header line byte for byte."
	maxHeaderLines    = 8
)

// formatDraft is the file of a draft: its header, format ("" for YAML)
// and base (JSON, "null" for none) in it, then text.
func (s *Store) formatDraft(k Key, uid, format, baseRV string, base, text []byte) ([]byte, error) {
	if strings.ContainsAny(baseRV, "\r\n") {
		// It would break the header; the server never sends one like it.
		return nil, fmt.Errorf("resourceVersion %q contains a line break", baseRV)
	}
	if !formatRE.MatchString(format) {
		return nil, fmt.Errorf("format %q is not a format's name", format)
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
	if format != "" && format != "yaml" {
		// A YAML draft's file stays as older kedits wrote it.
		fmt.Fprintf(&buf, "%s%s\n", draftFormatPrefix, format)
	}
	if base == nil {
		base = []byte("null")
	}
	if bytes.ContainsAny(base, "\r\n") {
		// encoding/json writes none; anything else would break the header.
		return nil, errors.New("the base's JSON holds a line break")
	}
	fmt.Fprintf(&buf, "%s%s\n", draftBasePrefix, base)
	buf.WriteString(draftTextFollows + "\n")
	buf.Write(text)
	return buf.Bytes(), nil
}

// formatRE is a format's name: letters, as -o takes them.
var formatRE = regexp.MustCompile(`^[a-z]*$`)

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
		if v, ok := strings.CutPrefix(l, draftBasePrefix); ok {
			d.baseLine = true
			if v != "null" {
				d.BaseJSON = []byte(v)
			}
			continue
		}
		if v, ok := strings.CutPrefix(l, draftFormatPrefix); ok {
			if !formatRE.MatchString(v) {
				return nil, fmt.Errorf("not a kedit draft: header line %q", l)
			}
			d.Format = v
			continue
		}
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

// Read reads the draft at path with its base. A symlink is never
// followed.
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
	if d.baseLine {
		// The base the draft was written with: a file beside it is an
		// older kedit's, left by a crash, and belongs to another draft.
		return d, nil
	}
	// An older kedit's draft, its base beside it.
	if base, err := fsutil.ReadFileNoFollow(path + baseExt); err == nil {
		d.BaseJSON = base // a missing or unreadable base only makes recovery stricter
	}
	return d, nil
}

// encodeBase is base as JSON, nil for none; the last one is kept, so that
// a base is encoded once per resourceVersion.
func (o *Object) encodeBase(base map[string]any) ([]byte, error) {
	if base == nil {
		return nil, nil
	}
	md, _ := base["metadata"].(map[string]any)
	rv, _ := md["resourceVersion"].(string)
	if rv != "" && rv == o.baseRV {
		return o.baseJSON, nil
	}
	b, err := json.Marshal(base)
	if err != nil {
		return nil, err
	}
	o.baseRV, o.baseJSON = rv, b
	return b, nil
}

// writeDraft replaces the draft at path with file, which holds its base,
// in one atomic write, then removes the base an older kedit kept beside
// it: a crash leaves the previous draft or the new one, each with its own
// base.
func (s *Store) writeDraft(path string, file []byte) error {
	if err := s.disk().WriteFile(path, file); err != nil {
		return err
	}
	return s.disk().Remove(path + baseExt)
}

// removeDraftFiles removes a draft, then the base an older kedit kept
// beside it; what is missing already is no error. The draft goes first,
// so that no crash leaves it without its base.
func (s *Store) removeDraftFiles(path string) error {
	for _, p := range []string{path, path + baseExt} {
		if err := s.disk().Remove(p); err != nil {
			return err
		}
	}
	fsutil.SyncDir(filepath.Dir(path))
	return nil
}

// keepAside moves the draft at path to <path>.<UTC time>.kept, which
// nothing writes again. It never replaces a file.
func (s *Store) keepAside(path string) (string, error) {
	stamp := s.clock().UTC().Format(keptLayout)
	for i := 1; ; i++ {
		kept := path + "." + stamp + keptExt
		if i > 1 {
			kept = path + "." + stamp + "-" + strconv.Itoa(i) + keptExt
		}
		err := s.disk().Link(path, kept)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		if err := s.removeDraftFiles(path); err != nil {
			return kept, err
		}
		return kept, nil
	}
}
