package model

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kedit/kedit/diff"
)

// secretRef (timeline_record_test.go) is Secret ns/creds.

// secretAt builds Secret ns/creds at rv holding values (plain bytes),
// encoded as the API server holds them.
func secretAt(rv string, values map[string]string) *unstructured.Unstructured {
	data := map[string]any{}
	for k, v := range values {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
		"metadata": map[string]any{"name": "creds", "namespace": "ns", "resourceVersion": rv, "uid": "u-1",
			"managedFields": managed(mf{"kubectl-create", "Update", 0, `{"f:data":{".":{}}}`})},
		"data": data,
	}}
}

const testPEM = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZ2V0IG9mZiBteSBsYXduIHlvdSBraWRz\nBAMCMC8xLTArBgNVBAMMJGtlZGl0LXRlc3Q=\n-----END CERTIFICATE-----\n"

// hardValues are the values a decode-then-encode most easily breaks.
var hardValues = map[string]string{
	"pem":        testPEM,
	"newline":    "hunter2\n",
	"newlines":   "a\n\n\n",
	"no-newline": "a\nb",
	"crlf":       "user=a\r\npass=b\r\n",
	"spaces":     "  both  ",
	"empty":      "",
	"non-ascii":  "pässwörd 日本",
	"binary":     "\x00\x01\xfe\xff\n",
	"number":     "5432",
	"nel":        "a\u0085b",
}

// TestSecretDraftTextIsDecoded: the draft text shows each value decoded,
// says so on top, and leaving it unchanged changes nothing.
func TestSecretDraftTextIsDecoded(t *testing.T) {
	s := opened(t, secretRef, secretAt("1", hardValues))
	text, err := s.DraftText()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{SecretHeader, "  pem: |\n    -----BEGIN CERTIFICATE-----\n", "  newline: |\n    hunter2\n",
		`  crlf: "user=a\r\npass=b\r\n"`, `  spaces: "  both  "`, `  empty: ""`, "  non-ascii: pässwörd 日本\n",
		"  binary: AAH+/wo= " + diff.BinaryComment + "\n", `  number: "5432"`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the draft text:\n%s", want, text)
		}
	}
	for _, v := range []string{"hunter2", "user=a"} {
		if strings.Contains(text, base64.StdEncoding.EncodeToString([]byte(v))) {
			t.Errorf("the text holds %q base64-encoded", v)
		}
	}
	effects := must(t, s, DraftEdited{Text: text})
	if s.Draft() != nil || s.State() != StateViewing {
		t.Errorf("an unchanged decoded text is a draft (%s, effects %s)", s.State(), describe(effects))
	}
}

// TestSecretSaveEncodesOnce: an edit of one key saves every other value
// byte for byte, and the typed value encoded exactly once.
func TestSecretSaveEncodesOnce(t *testing.T) {
	base := secretAt("1", hardValues)
	s := opened(t, secretRef, base)
	text, _ := s.DraftText()
	edited := strings.Replace(text, "  number: \"5432\"\n", "  number: \"5433\"\n  typed: aGVsbG8=\n", 1)
	must(t, s, DraftEdited{Text: edited})
	if d := s.Draft(); d == nil || d.Err != nil {
		t.Fatalf("draft: %+v", d)
	}
	save := saveOf(t, must(t, s, SaveRequested{}))
	for k, v := range hardValues {
		got, _ := dataOf(save.Object, k)
		want, _ := dataOf(base, k)
		if k == "number" {
			want = base64.StdEncoding.EncodeToString([]byte("5433"))
		}
		if got != want {
			raw, _ := base64.StdEncoding.DecodeString(got)
			t.Errorf("%s saved as %q (%q), want %q (%q)", k, got, raw, want, v)
		}
	}
	// What was typed is the value: base64-looking text is text.
	if got, _ := dataOf(save.Object, "typed"); got != base64.StdEncoding.EncodeToString([]byte("aGVsbG8=")) {
		t.Errorf("typed saved as %q", got)
	}
}

// TestSecretStringDataIsMergedIntoData: stringData in the draft goes into
// data on save, over data's own values, as the API server does.
func TestSecretStringDataIsMergedIntoData(t *testing.T) {
	s := opened(t, secretRef, secretAt("1", map[string]string{"user": "admin", "password": "old"}))
	text, _ := s.DraftText()
	must(t, s, DraftEdited{Text: text + "stringData:\n  password: new\n  token: |\n    t0k3n\n"})
	save := saveOf(t, must(t, s, SaveRequested{}))
	want := map[string]any{"user": b64("admin"), "password": b64("new"), "token": b64("t0k3n\n")}
	if got := save.Object.Object["data"]; !reflect.DeepEqual(got, want) {
		t.Errorf("data = %v, want %v", got, want)
	}
	if _, ok := save.Object.Object["stringData"]; ok {
		t.Error("stringData was sent")
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestSecretDraftErrorsNeverQuoteValues: a binary value edited into
// something that is not base64, a value that is a map, YAML that does not
// parse: each refusal names the line and field, never the value.
func TestSecretDraftErrorsNeverQuoteValues(t *testing.T) {
	s := opened(t, secretRef, secretAt("1", map[string]string{"keystore": "\x00\xff", "password": "old"}))
	text, _ := s.DraftText()
	for _, c := range []struct{ name, from, to, field string }{
		{"binary not base64", "AP8= " + diff.BinaryComment, "hunter2-binary " + diff.BinaryComment, "data.keystore"},
		{"a map", "password: old", "password: {hunter2-map: x}", "data.password"},
		{"unclosed quote", "password: old", `password: "hunter2-quote`, ""},
		{"bad indentation", "password: old", "password: hunter2-indent\n   bad: `hunter2-tick`\n  x: y", ""},
	} {
		edited := strings.Replace(text, c.from, c.to, 1)
		// The in-app editor parses in the background (Format.ParseDraft) and hands
		// the result over: the same rule holds for both ways and for what
		// the editor draws on the line (ParsedDraft.Err).
		parsed := FormatYAML.ParseDraft(edited)
		for _, way := range []struct {
			name string
			err  func() error
		}{
			{"parsed by the session", func() error { _, _, err := s.Handle(DraftEdited{Text: edited}); return err }},
			{"parsed ahead", func() error { _, _, err := s.Handle(DraftEdited{Text: edited, Parsed: parsed}); return err }},
			{"the editor's note", func() error { return parsed.Err(secretRef) }},
		} {
			t.Run(c.name+"/"+way.name, func(t *testing.T) {
				err := way.err()
				var de *DraftError
				if !errors.As(err, &de) || de.Line == 0 {
					t.Fatalf("err = %v, want a *DraftError with its line", err)
				}
				if c.field != "" && de.Field != c.field {
					t.Errorf("field %q, want %q", de.Field, c.field)
				}
				for e := error(de); e != nil; e = errors.Unwrap(e) {
					if strings.Contains(e.Error(), "hunter2") {
						t.Errorf("the refusal quotes the value: %q", e.Error())
					}
				}
			})
		}
	}
}

// TestSecretMergedTextIsDecoded: the conflict view's text of a Secret is
// decoded; edited by hand, it is read back decoded and saved encoded.
func TestSecretMergedTextIsDecoded(t *testing.T) {
	s := opened(t, secretRef, secretAt("1", map[string]string{"pem": testPEM, "user": "admin"}))
	text, _ := s.DraftText()
	must(t, s, DraftEdited{Text: strings.Replace(text, "MIIBszCCAVmg", "MINEszCCAVmg", 1)})
	must(t, s, SaveRequested{})
	must(t, s, LiveChanged{Type: LiveModified, Object: secretAt("2", map[string]string{"pem": strings.Replace(testPEM, "MIIBszCCAVmg", "THEIRSCCAVmg", 1), "user": "root"}), At: at(1)})
	must(t, s, SaveFailed{Err: conflictErr()})
	if n := len(s.Conflicts()); n != 1 {
		t.Fatalf("%d conflicts", n)
	}
	merged, err := s.MergedText()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(merged, SecretHeader) || !strings.Contains(merged, "    <<<<<<< mine\n    MINEszCCAVmg") || !strings.Contains(merged, "  user: root\n") {
		t.Fatalf("merged text:\n%s", merged)
	}
	// Mine's lines kept, as a user would in $EDITOR.
	var keep []string
	skip := false
	for _, l := range strings.Split(strings.TrimSuffix(merged, "\n"), "\n") {
		switch strings.TrimSpace(l) {
		case "<<<<<<< mine":
			continue
		case "||||||| base":
			skip = true
			continue
		case ">>>>>>> theirs":
			skip = false
			continue
		}
		if !skip {
			keep = append(keep, l)
		}
	}
	must(t, s, MergedEdited{Text: strings.Join(keep, "\n") + "\n"})
	save := saveOf(t, must(t, s, SaveRequested{}))
	if got, _ := dataOf(save.Object, "pem"); got != b64(strings.Replace(testPEM, "MIIBszCCAVmg", "MINEszCCAVmg", 1)) {
		t.Errorf("pem saved as %q", got)
	}
	if got, _ := dataOf(save.Object, "user"); got != b64("root") {
		t.Errorf("user saved as %q", got)
	}
}

// TestSecretDraftIsStoredEncoded: the draft store's form holds the values
// base64-encoded, never the decoded text, and reads back as the text's
// content; a text that does not parse comes back byte for byte.
func TestSecretDraftIsStoredEncoded(t *testing.T) {
	s := opened(t, secretRef, secretAt("1", hardValues))
	text, _ := s.DraftText()
	text = strings.Replace(text, "hunter2", "hunter3", 1)
	stored := StoredSecretDraft(text)
	for _, plain := range []string{"hunter3", "pässwörd", "BEGIN CERTIFICATE"} {
		if strings.Contains(stored, plain) {
			t.Errorf("the stored form holds %q:\n%s", plain, stored)
		}
	}
	back, err := SecretDraftText(stored)
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseDraft(text)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseDraft(back)
	if err != nil || !reflect.DeepEqual(a.Object, b.Object) {
		t.Errorf("read back as another object (%v):\n%s", err, back)
	}

	broken := text + "  oops: [hunter3\n"
	stored = StoredSecretDraft(broken)
	if strings.Contains(stored, "hunter3") {
		t.Errorf("the stored form of a broken text holds the value:\n%s", stored)
	}
	if back, err := SecretDraftText(stored); err != nil || back != broken {
		t.Errorf("a broken text read back as %q, %v", back, err)
	}
	// A draft an older kedit stored is the object's YAML: it reads back
	// decoded.
	old, _ := yamlOf(secretAt("1", map[string]string{"password": "hunter2\n"}))
	if back, err := SecretDraftText(old); err != nil || !strings.Contains(back, "  password: |\n    hunter2\n") {
		t.Errorf("an older draft read back as %q, %v", back, err)
	}
	if _, err := SecretDraftText("password: hunter2\n"); !errors.Is(err, ErrStoredSecretDraft) || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a file kedit did not write: %v", err)
	}
}

// yamlOf is obj as an older kedit stored a Secret's draft: its YAML,
// values base64-encoded.
func yamlOf(obj *unstructured.Unstructured) (string, error) {
	c := obj.DeepCopy()
	unstructured.RemoveNestedField(c.Object, "metadata", "managedFields")
	out, err := yaml.Marshal(c.Object)
	return string(out), err
}

// FuzzSecretDraftRoundTrip: for any bytes, the Secret's draft text parses
// back to the Secret itself (parse(render(secret)) == secret), and the
// stored form of the text reads back to it too.
func FuzzSecretDraftRoundTrip(f *testing.F) {
	for k, v := range hardValues {
		f.Add(k, []byte(v), []byte(testPEM))
	}
	f.Fuzz(func(t *testing.T, key string, v1, v2 []byte) {
		if key == "" || strings.ToValidUTF8(key, "") != key || key == "pem" {
			return // no Secret has such a key (JSON cannot even hold one)
		}
		base := secretAt("1", map[string]string{key: string(v1), "pem": string(v2)})
		text, err := RenderYAML(base)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := parseDraft(text)
		if err != nil {
			t.Fatalf("%v:\n%s", err, text)
		}
		want := base.DeepCopy()
		unstructured.RemoveNestedField(want.Object, "metadata", "managedFields")
		if !reflect.DeepEqual(obj.Object, want.Object) {
			t.Fatalf("parse(render(secret)):\n%v\nwant:\n%v\ntext:\n%s", obj.Object, want.Object, text)
		}
		back, err := SecretDraftText(StoredSecretDraft(text))
		if err != nil {
			t.Fatal(err)
		}
		if again, err := parseDraft(back); err != nil || !reflect.DeepEqual(again.Object, want.Object) {
			t.Fatalf("the stored form read back otherwise (%v):\n%s", err, back)
		}
	})
}

// TestSecretWithControlCharactersRenders: a Secret whose other fields (a
// label, an annotation) hold a C1 control, an ESC and a bidi control
// renders, as any object the server accepts must, and its draft
// and stored draft read back to the same object.
func TestSecretWithControlCharactersRenders(t *testing.T) {
	evil := "a\u009b2Jb\x1b]0;t\x07\u202ec"
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "s", "namespace": "ns", "resourceVersion": "1",
			"labels": map[string]any{"l": "ok"}, "annotations": map[string]any{"k" + evil: evil}},
		"data": map[string]any{"v": base64.StdEncoding.EncodeToString([]byte(evil))},
	}}
	text, err := RenderYAML(obj)
	if err != nil {
		t.Fatalf("RenderYAML: %v", err)
	}
	if strings.ContainsAny(text, "\x1b\x07\u009b\u202e") {
		t.Errorf("the draft holds a raw control character:\n%s", text)
	}
	for name, s := range map[string]string{"draft": text, "stored draft": StoredSecretDraft(text)} {
		if name == "stored draft" {
			if s, err = SecretDraftText(s); err != nil {
				t.Fatalf("SecretDraftText: %v", err)
			}
		}
		back, err := parseDraft(s)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, s)
		}
		if !reflect.DeepEqual(back.Object, obj.Object) {
			t.Errorf("%s reads back as %v, want %v", name, back.Object, obj.Object)
		}
	}
}
