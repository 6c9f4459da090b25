package diff

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// secretObject is Secret ns/creds holding values (plain bytes), encoded as
// the API server holds them.
func secretObject(values map[string]string) map[string]any {
	data := map[string]any{}
	for k, v := range values {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
		"metadata": map[string]any{"name": "creds", "namespace": "ns", "resourceVersion": "7", "labels": map[string]any{"app": "db"}},
		"data":     data,
	}
}

// readSecret reads back what RenderSecretYAML wrote: the object as any
// YAML reader sees it, and data's values as kedit reads them.
func readSecret(t testing.TB, text []byte) (*unstructured.Unstructured, map[string]string) {
	t.Helper()
	obj, err := ParseYAML(text)
	if err != nil {
		t.Fatalf("the rendered Secret does not parse: %v\n%s", err, text)
	}
	data, _, _, _, err := SecretValues(text)
	if err != nil {
		t.Fatalf("SecretValues: %v\n%s", err, text)
	}
	return obj, data
}

const pem = `-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUZ2V0IG9mZiBteSBsYXduIHlvdSBraWRzMAoGCCqGSM49
BAMCMC8xLTArBgNVBAMMJGtlZGl0LXRlc3QtY2EtZG8tbm90LXVzZS1pbi1wcm9k
-----END CERTIFICATE-----
`

// TestSecretValuesRoundTrip: every value is read back byte for byte, in
// the representation that suits it.
func TestSecretValuesRoundTrip(t *testing.T) {
	cases := []struct {
		name, value string
		// line is the value's line as rendered (the first, for a block);
		// "" skips the check.
		line string
	}{
		{"empty", "", `  v: ""`},
		{"word", "hunter2", "  v: hunter2"},
		{"trailing newline", "hunter2\n", "  v: |"},
		{"pem", pem, "  v: |"},
		{"no final newline", "a\nb", "  v: |-"},
		{"two final newlines", "a\nb\n\n", "  v: |+"},
		{"only newlines", "\n\n", ""},
		{"one newline", "\n", ""},
		{"crlf", "user=a\r\npass=b\r\n", `  v: "user=a\r\npass=b\r\n"`},
		{"leading space", " x", `  v: " x"`},
		{"trailing space", "x ", `  v: "x "`},
		{"trailing space in a line", "a \nb\n", `  v: "a \nb\n"`},
		{"trailing tab in a line", "a\t\nb\n", `  v: "a\t\nb\n"`},
		{"indented first line", "  indented\nnot\n", "  v: |2"},
		{"empty then indented", "\n  indented\n", ""},
		{"tab", "a\tb", `  v: "a\tb"`},
		{"tab in a block", "a\tb\nc\n", "  v: |"},
		{"non-ASCII", "pässwörd 日本\n", "  v: |"},
		{"number", "5432", `  v: "5432"`},
		{"boolean", "true", `  v: "true"`},
		{"yes", "y", ""},
		{"null", "null", `  v: "null"`},
		{"tilde", "~", ""},
		{"comment", "a #b", ""},
		{"colon", "a: b", ""},
		{"dash", "- x", ""},
		{"quotes", `"q" 'r'`, ""},
		{"backslash", `a\nb`, ""},
		{"indicators", "*a &b !c |d >e %f @g `h [i] {j} ?k ,l", ""},
		{"document marker", "---\n...\n", "  v: |"},
		{"binary marker as text", "AAEC " + BinaryComment, ""},
		{"nel", "a\u0085b\n", ""},
		{"line separator", "a\u2028b", ""},
		{"bidi override", "abc\u202edef", `  v: "abc\u202edef"`},
		{"bom", "\ufeffx", ""},
		{"escape", "\x1b[2J", `  v: "\x1b[2J"`},
		{"nul", "a\x00b", `  v: "a\x00b"`},
		{"del", "\x7f", ""},
		{"binary", "\x00\x01\xfe\xff", "  v: AAH+/w== " + BinaryComment},
		{"binary with newlines", "\xff\n\xfe\n", ""},
		{"invalid UTF-8 in text", "pass\xc3(word\n", ""},
		{"long line", strings.Repeat("abcdefghij", 300), ""},
		{"marker lines", "<<<<<<< mine\nx\n=======\ny\n>>>>>>> theirs\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := secretObject(map[string]string{"v": c.value, "other": "o"})
			out, err := RenderSecretYAML(obj)
			if err != nil {
				t.Fatal(err)
			}
			_, data := readSecret(t, out)
			if data["v"] != c.value || data["other"] != "o" {
				t.Errorf("read back %q, want %q:\n%s", data["v"], c.value, out)
			}
			if c.line != "" && !strings.Contains(string(out), "\n"+c.line+"\n") {
				t.Errorf("no line %q in:\n%s", c.line, out)
			}
			// Nothing the terminal would draw otherwise than it is: the
			// in-app editor takes the text as it is.
			if strings.ContainsFunc(string(out), func(r rune) bool { return needsEscape(r) || r == '\r' }) {
				t.Errorf("the text holds a control character:\n%q", out)
			}
		})
	}
}

// TestRenderSecretYAMLIsKubectlsButForData: every field but data reads as
// yaml.Marshal writes it, so a Secret's text differs from kubectl's only
// where the values are decoded.
func TestRenderSecretYAMLIsKubectlsButForData(t *testing.T) {
	obj := secretObject(map[string]string{"a": "1"})
	obj["stringData"] = map[string]any{"s": "x\ny\n"}
	obj["immutable"] = true
	out, err := RenderSecretYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	delete(obj, "data")
	want, _ := yaml.Marshal(obj)
	got := strings.Replace(string(out), "data:\n  a: \"1\"\n", "", 1)
	if got != string(want) {
		t.Errorf("without data:\n%s\nwant:\n%s", got, want)
	}
	// Empty and absent data.
	obj["data"] = map[string]any{}
	if out, _ := RenderSecretYAML(obj); !strings.Contains(string(out), "\ndata: {}\n") {
		t.Errorf("empty data:\n%s", out)
	}
}

// TestSecretValuesRefusals: a value that is no value, or marked binary
// but no base64, is refused with its field and line, never its text.
func TestSecretValuesRefusals(t *testing.T) {
	for _, c := range []struct{ text, field string }{
		{"data:\n  k: [a, b]\n", "data.k"},
		{"data:\n  k:\n    nested: hunter2\n", "data.k"},
		{"data:\n  k: not*base64 " + BinaryComment + "\n", "data.k"},
		{"stringData:\n  k: {a: hunter2}\n", "stringData.k"},
		{"data: [hunter2]\n", "data"},
	} {
		_, _, _, _, err := SecretValues([]byte(c.text))
		ve, ok := err.(*SecretValueError)
		if !ok || ve.Field != c.field || ve.Line == 0 {
			t.Errorf("%q: %v, want a *SecretValueError on %s with its line", c.text, err, c.field)
			continue
		}
		if strings.Contains(ve.Error(), "hunter2") || strings.Contains(ve.Error(), "not*base64") {
			t.Errorf("the error quotes the value: %v", ve)
		}
	}
	data, sd, hasData, hasSD, err := SecretValues([]byte("data:\nstringData:\n  port: 5432\n  empty:\n  yaml: !!binary AAEC\n"))
	if err != nil || len(data) != 0 || !hasData || !hasSD || !reflect.DeepEqual(sd, map[string]string{"port": "5432", "empty": "", "yaml": "\x00\x01\x02"}) {
		t.Errorf("SecretValues = %v %v %v %v %v", data, sd, hasData, hasSD, err)
	}
}

// FuzzSecretValue: for any bytes, the value written for display reads back
// as the same bytes.
func FuzzSecretValue(f *testing.F) {
	for _, s := range []string{"", "x", "hunter2\n", pem, "a\r\n", " x ", "\x00\xff", "\n\n", "a\u0085b", "  a\n b\n", "true", "#", "a\t\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := RenderSecretYAML(secretObject(map[string]string{"k": string(b)}))
		if err != nil {
			t.Fatal(err)
		}
		_, data := readSecret(t, out)
		if data["k"] != string(b) {
			t.Fatalf("%q read back as %q from:\n%s", b, data["k"], out)
		}
	})
}

// FuzzSecretObject: a Secret written decoded and read back is the same
// Secret: every field, and every value of data, byte for byte.
func FuzzSecretObject(f *testing.F) {
	f.Add("password", []byte("hunter2\n"), "tls.crt", []byte(pem), []byte("\x00\x01"))
	f.Add("a", []byte(""), "b", []byte("x \r\n"), []byte("ü"))
	f.Fuzz(func(t *testing.T, k1 string, v1 []byte, k2 string, v2, v3 []byte) {
		values := map[string]string{k1: string(v1), k2: string(v2), "keystore.jks": string(v3)}
		for k := range values {
			if k == "" {
				t.Skip() // no object has an empty key of data
			}
		}
		want := secretObject(values)
		out, err := RenderSecretYAML(want)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8Keys(values) {
			return // JSON cannot hold the key; yaml.Marshal changed it
		}
		got, data := readSecret(t, out)
		enc := map[string]any{}
		for k, v := range data {
			enc[k] = base64.StdEncoding.EncodeToString([]byte(v))
		}
		got.Object["data"] = enc
		if !reflect.DeepEqual(got.Object, want) {
			t.Fatalf("read back:\n%v\nwant:\n%v\nfrom:\n%s", got.Object, want, out)
		}
	})
}

func utf8Keys(m map[string]string) bool {
	for k := range m {
		if strings.ToValidUTF8(k, "\ufffd") != k {
			return false
		}
	}
	return true
}

// TestDecodedYAMLMergesLineByLine: a PEM both sides changed merges line by
// line, decoded; a collision is a diff3 block inside the literal block, and
// the text with the block resolved reads back as the values chosen.
func TestDecodedYAMLMergesLineByLine(t *testing.T) {
	lines := strings.SplitAfter(pem, "\n")
	change := func(i int, s string) string {
		c := append([]string(nil), lines...)
		c[i] = s + "\n"
		return strings.Join(c, "")
	}
	obj := func(rv string, values map[string]string) *unstructured.Unstructured {
		o := secretObject(values)
		o["metadata"].(map[string]any)["resourceVersion"] = rv
		return &unstructured.Unstructured{Object: o}
	}
	base := obj("1", map[string]string{"tls.crt": pem, "keystore": "\x00\xff"})
	mine := obj("1", map[string]string{"tls.crt": change(1, "MINE"), "keystore": "\x00\xff"})

	clean, err := MergeObjects(base, mine, obj("2", map[string]string{"tls.crt": change(3, "-----END THEIRS-----"), "keystore": "\x00\xff"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(clean.Conflicts) != 0 {
		t.Fatalf("conflicts: %+v", clean.Conflicts)
	}
	out, err := clean.DecodedYAML()
	if err != nil {
		t.Fatal(err)
	}
	_, data := readSecret(t, out)
	if want := strings.Replace(change(1, "MINE"), lines[3], "-----END THEIRS-----\n", 1); data["tls.crt"] != want || data["keystore"] != "\x00\xff" {
		t.Errorf("merged %q, want %q:\n%s", data["tls.crt"], want, out)
	}

	theirs := obj("2", map[string]string{"tls.crt": change(1, "THEIRS"), "keystore": "\x00\xff"})
	m, err := MergeObjects(base, mine, theirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Conflicts) != 1 || m.Conflicts[0].Hunk == nil {
		t.Fatalf("conflicts: %+v", m.Conflicts)
	}
	out, err = m.DecodedYAML()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	block := "  tls.crt: |\n    -----BEGIN CERTIFICATE-----\n    <<<<<<< mine\n    MINE\n    ||||||| base\n    " + strings.TrimSuffix(lines[1], "\n") +
		"\n    =======\n    THEIRS\n    >>>>>>> theirs\n"
	if !strings.Contains(text, block) || !strings.Contains(text, "keystore: AP8= "+BinaryComment) {
		t.Fatalf("no decoded block:\n%s", text)
	}
	if _, err := ParseYAML(out); err == nil {
		t.Error("the text with a block parses")
	}
	resolved := strings.Replace(text, "    <<<<<<< mine\n    MINE\n    ||||||| base\n    "+strings.TrimSuffix(lines[1], "\n")+"\n    =======\n", "", 1)
	resolved = strings.Replace(resolved, "    >>>>>>> theirs\n", "", 1)
	_, data = readSecret(t, []byte(resolved))
	if data["tls.crt"] != change(1, "THEIRS") || data["keystore"] != "\x00\xff" {
		t.Errorf("resolved by hand: %q", data)
	}
	// Resolved in the session's way, the text is the final object's.
	if _, err := m.Resolve(0, Resolution{Choice: TakeMine}); err != nil {
		t.Fatal(err)
	}
	out, _ = m.DecodedYAML()
	if _, data = readSecret(t, out); data["tls.crt"] != change(1, "MINE") {
		t.Errorf("resolved to mine: %q", data["tls.crt"])
	}
	// The encoded YAML is as it was: base64, for kedit merge.
	m.Resolutions[0] = Resolution{}
	enc, _ := m.YAML()
	if strings.Contains(string(enc), "MINE") || strings.Contains(string(enc), "BEGIN CERTIFICATE") {
		t.Errorf("YAML decoded the values:\n%s", enc)
	}
}
