package drafts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// cmBase is a ConfigMap at rv as a base, decoded from JSON.
func cmBase(rv, foo string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "ns", "resourceVersion": rv, "uid": "u"},
		"data":     map[string]any{"foo": foo}}
}

// sameJSON reports whether b holds obj; both nil counts.
func sameJSON(t *testing.T, b []byte, obj map[string]any) bool {
	t.Helper()
	if b == nil || obj == nil {
		return b == nil && obj == nil
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("base %q: %v", b, err)
	}
	want, _ := json.Marshal(obj)
	var w map[string]any
	_ = json.Unmarshal(want, &w)
	return reflect.DeepEqual(got, w)
}

// toOlderLayout rewrites the draft at path as kedit wrote it before a
// draft carried its base: no base line in the header, the base as JSON in
// <path>.base.json beside it (none for a draft stored without one).
func toOlderLayout(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, text, ok := bytes.Cut(b, []byte(draftTextFollows+"\n"))
	if !ok {
		t.Fatalf("%s has no header", path)
	}
	var kept []string
	var base string
	for _, l := range strings.SplitAfter(string(head), "\n") {
		if v, ok := strings.CutPrefix(l, draftBasePrefix); ok {
			base = strings.TrimSuffix(v, "\n")
			continue
		}
		kept = append(kept, l)
	}
	older := append([]byte(strings.Join(kept, "")+draftTextFollows+"\n"), text...)
	if err := os.WriteFile(path, older, 0o600); err != nil {
		t.Fatal(err)
	}
	if base != "" && base != "null" {
		if err := os.WriteFile(path+baseExt, []byte(base), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDraftAndBaseAreOneFile: the base goes into the draft's file, in its
// header, so that one atomic write stores both; nothing is written beside
// it, the file is still the draft text byte for byte behind comments, and
// a base an older kedit left beside it is removed and never read as this
// draft's.
func TestDraftAndBaseAreOneFile(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	k := configMapKey("c", "ns", "cm")
	o := open(t, s, k, "u")
	base := cmBase("7", "line one\nline two\r\n\u2028")
	text := []byte("# a comment\ndata:\n  foo: mine\n")
	path, err := o.Write(1, "7", text, base)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !bytes.HasSuffix(raw, append([]byte(draftTextFollows+"\n"), text...)) {
		t.Errorf("the file does not end with the header's last line and the text:\n%s", raw)
	}
	for _, l := range strings.Split(string(raw[:len(raw)-len(text)]), "\n") {
		if l != "" && !strings.HasPrefix(l, "# ") {
			t.Errorf("a header line is not a comment: %q", l)
		}
	}
	if _, err := os.Lstat(path + baseExt); !os.IsNotExist(err) {
		t.Errorf("a base file was written beside the draft: %v", err)
	}
	d, err := Read(path)
	if err != nil || !bytes.Equal(d.Text, text) || !sameJSON(t, d.BaseJSON, base) {
		t.Fatalf("Read = %+v, %v; want the text and its base", d, err)
	}

	// A base an older kedit left beside the file is not this draft's.
	stale := []byte(`{"metadata":{"resourceVersion":"3"}}`)
	if err := os.WriteFile(path+baseExt, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	if d, _ := Read(path); !sameJSON(t, d.BaseJSON, base) {
		t.Errorf("the base read is %s, want the one written with the draft", d.BaseJSON)
	}
	mustWrite(t, o, 2, "7", "data: {}\n")
	if _, err := os.Lstat(path + baseExt); !os.IsNotExist(err) {
		t.Errorf("the older kedit's base stays after a write: %v", err)
	}

	// No base: the file says so, and still nothing is read from beside it.
	if err := os.WriteFile(path+baseExt, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Write(3, "7", text, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+baseExt, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	if d, _ := Read(path); d.BaseJSON != nil {
		t.Errorf("a draft stored without a base reads %s as its base", d.BaseJSON)
	}
}

// TestOlderKeditsDraftIsOffered: a draft the kedit before this one stored
// (the draft file without a base line, its base beside it in
// <name>.yaml.base.json) is read with that base, offered, listed by
// kedit drafts, and, once recovered and written again, stored in one
// file; discarding one removes its base too.
func TestOlderKeditsDraftIsOffered(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	k := configMapKey("c", "ns", "cm")
	first := open(t, s, k, "uid-1")
	base := cmBase("41", "1")
	path, err := first.Write(1, "41", []byte("data:\n  foo: older\n"), base)
	if err != nil {
		t.Fatal(err)
	}
	first.crash()
	toOlderLayout(t, path)
	if raw, _ := os.ReadFile(path); bytes.Contains(raw, []byte(draftBasePrefix)) {
		t.Fatal("the older layout still has a base line")
	}

	entries, err := s.List()
	if err != nil || len(entries) != 1 || entries[0].Path != path || entries[0].BaseResourceVersion != "41" {
		t.Fatalf("kedit drafts lists %+v, %v", entries, err)
	}
	o := open(t, s, k, "uid-1")
	stored := o.Stored()
	if len(stored) != 1 || stored[0].Path != path || string(stored[0].Text) != "data:\n  foo: older\n" || stored[0].UID != "uid-1" {
		t.Fatalf("stored = %+v", stored)
	}
	if !sameJSON(t, stored[0].BaseJSON, base) {
		t.Errorf("the older kedit's base reads %s", stored[0].BaseJSON)
	}
	// Recovered, then written: one file, the older base gone.
	if _, err := o.Adopt(path); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Write(2, "41", []byte("data:\n  foo: recovered\n"), base); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path + baseExt); !os.IsNotExist(err) {
		t.Errorf("the older kedit's base file stays: %v", err)
	}
	if d, _ := Read(path); !sameJSON(t, d.BaseJSON, base) || string(d.Text) != "data:\n  foo: recovered\n" {
		t.Errorf("after the write: %+v", d)
	}
	o.crash()

	// Discarded: the draft and the base beside it go.
	toOlderLayout(t, path)
	again := open(t, s, k, "uid-1")
	if _, err := again.Discard(path); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "cm.yaml*"))
	for _, f := range files {
		if !strings.HasSuffix(f, lockExt) {
			t.Errorf("%s stays after the draft was discarded", f)
		}
	}
}

// TestDraftKeepsItsFormat: a JSON draft's file says so in its header, and
// reads back with its format and its text byte for byte; a YAML draft's
// file has no such line, as older kedits wrote it; a format line that is
// not a format's name makes the file one kedit did not write.
func TestDraftKeepsItsFormat(t *testing.T) {
	s, _ := newTestDraftStore(t, false)
	o := open(t, s, configMapKey("c", "ns", "cm"), "u")
	text := []byte("{\n    \"data\": {\n        \"foo\": \"mine\"\n    }\n}\n")
	path, err := o.WriteFormat(1, "json", "7", text, cmBase("7", "x"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !bytes.Contains(raw, []byte("\n"+draftFormatPrefix+"json\n")) {
		t.Errorf("the file does not record the format:\n%s", raw)
	}
	d, err := Read(path)
	if err != nil || d.Format != "json" || !bytes.Equal(d.Text, text) {
		t.Fatalf("Read = %+v, %v; want the JSON text in json", d, err)
	}
	if _, err := o.WriteFormat(2, "", "7", []byte("data: {}\n"), nil); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(path)
	if bytes.Contains(raw, []byte(draftFormatPrefix)) {
		t.Errorf("a YAML draft's file records a format:\n%s", raw)
	}
	if d, err := Read(path); err != nil || d.Format != "" {
		t.Errorf("Read = %+v, %v; want no format", d, err)
	}
	forged := bytes.Replace(raw, []byte(draftTextFollows), []byte(draftFormatPrefix+"js on\n"+draftTextFollows), 1)
	if err := os.WriteFile(path, forged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "not a kedit draft") {
		t.Errorf("Read of a bad format line: %v", err)
	}
	if _, err := o.WriteFormat(3, "js\non", "7", text, nil); err == nil {
		t.Error("a format with a line break was written into the header")
	}
}
