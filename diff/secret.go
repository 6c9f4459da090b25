package diff

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
)

// A Secret's data is shown decoded wherever the user reads or types it:
// each value as the text it is, so that a certificate or a
// config file reads naturally, and encoded again on save. This file (the
// writing) and secret_read.go (the reading back) are the one place that
// says how a decoded value is written in YAML and read back; the rule they
// keep, and that their fuzz targets check, is that reading back what was
// written gives every byte of every value as it was.

// BinaryComment marks, on its line, a value of a Secret's data that is not
// text (not valid UTF-8: a keystore, a binary token). Such a value is
// written base64, as the object holds it, and read back as base64 while the
// mark is there.
const BinaryComment = "# binary, base64"

// IsSecret reports whether obj is a Secret (IsSecretKind of its apiVersion
// and kind), whose data kedit compares, merges and shows decoded.
func IsSecret(obj *unstructured.Unstructured) bool {
	return obj != nil && IsSecretKind(obj.GroupVersionKind().GroupKind())
}

// RenderSecretYAML renders a Secret as `kubectl get -o yaml` prints it, but
// with each value of data decoded: text as a plain, quoted or block scalar,
// whichever gives back the exact bytes (a literal block for multi-line
// text, with the chomping indicator its trailing newlines need), a value
// that is not text base64 with BinaryComment. A value that is not base64
// (which no API server sends) is written as it is. Other fields are written
// as MarshalYAML writes them. SecretValues reads the values back.
func RenderSecretYAML(obj map[string]any) ([]byte, error) {
	data, ok := obj["data"].(map[string]any)
	if !ok {
		return MarshalYAML(obj)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	// yaml.Marshal goes through JSON, which sorts map keys this way: each
	// field rendered on its own, in this order, is the object rendered
	// whole.
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if k == "data" {
			if err := writeSecretData(&b, data); err != nil {
				return nil, err
			}
			continue
		}
		out, err := MarshalYAML(map[string]any{k: obj[k]})
		if err != nil {
			return nil, err
		}
		b.Write(out)
	}
	return []byte(b.String()), nil
}

// writeSecretData writes `data:` and its values decoded.
func writeSecretData(b *strings.Builder, data map[string]any) error {
	if len(data) == 0 {
		b.WriteString("data: {}\n")
		return nil
	}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("data:\n")
	for _, k := range keys {
		s, ok := data[k].(string)
		if !ok {
			// Not a Secret's value (an object being edited into shape):
			// written as it is.
			out, err := MarshalYAML(map[string]any{"data": map[string]any{k: data[k]}})
			if err != nil {
				return err
			}
			b.WriteString(strings.TrimPrefix(string(out), "data:\n"))
			continue
		}
		if raw, err := base64.StdEncoding.DecodeString(s); err == nil {
			s = string(raw)
		}
		ls, err := secretField(k, s, "  ")
		if err != nil {
			return err
		}
		writeLines(b, ls)
	}
	return nil
}

// secretField renders `key: value` for a decoded value of a Secret's data,
// each line indented by indent and ending in "\n".
func secretField(key, value, indent string) ([]string, error) {
	head, body := secretScalar(value)
	return scalarField(key, head, body, indent)
}

// scalarField renders `key: head` and the lines of body under it.
func scalarField(key, head string, body []string, indent string) ([]string, error) {
	// The key as yaml.Marshal writes it (quoted when it must be, "? key"
	// on a line of its own when it is long), then the value.
	ls, err := renderField(true, key, "", indent)
	if err != nil {
		return nil, err
	}
	last := len(ls) - 1
	prefix, ok := strings.CutSuffix(ls[last], `""`+"\n")
	if !ok {
		return nil, fmt.Errorf("diff: rendering the key %q", key)
	}
	ls[last] = prefix + head + "\n"
	// A block's lines are indented under the line that holds its header.
	inner := strings.Repeat(" ", len(prefix)-len(strings.TrimLeft(prefix, " "))+2)
	for _, l := range body {
		if l == "" {
			ls = append(ls, "\n")
		} else {
			ls = append(ls, inner+l+"\n")
		}
	}
	return ls, nil
}

// secretBlockField renders `key: value` as a literal block, for a line
// merge whose open regions are diff3 blocks inside it; nil when the text
// cannot be one.
func secretBlockField(key, text, indent string) ([]string, error) {
	if !strings.Contains(text, "\n") || !blockText(text, true) {
		return nil, nil
	}
	head, body := literalBlock(text)
	if !readsBack(head, body, text) {
		return nil, nil
	}
	return scalarField(key, head, body, indent)
}

// secretScalar chooses how a decoded value is written after "key: ": head
// is the rest of that line, body the lines of a literal block, if any,
// without their indentation. Every candidate is read back before it is
// taken, so a case the rules below did not foresee falls back to a double
// quoted scalar, and at worst to base64, rather than change a byte.
func secretScalar(v string) (head string, body []string) {
	binary := func() (string, []string) {
		return base64.StdEncoding.EncodeToString([]byte(v)) + " " + BinaryComment, nil
	}
	if !utf8.ValidString(v) {
		return binary()
	}
	if v == "" {
		return `""`, nil
	}
	type candidate struct {
		head string
		body []string
	}
	var cands []candidate
	switch {
	case !strings.Contains(v, "\n"):
		if plainText(v) {
			cands = append(cands, candidate{head: v})
		}
	case blockText(v, false):
		h, b := literalBlock(v)
		cands = append(cands, candidate{h, b})
	}
	cands = append(cands, candidate{head: QuoteYAML(v)})
	for _, c := range cands {
		if readsBack(c.head, c.body, v) {
			return c.head, c.body
		}
	}
	return binary()
}

// plainText says whether a one-line value may be tried as a plain scalar:
// no space at either end (YAML trims it), nothing a terminal or an editor
// would show otherwise than it is. readsBack settles the rest of YAML's
// rules (indicators, comments, values that read as numbers or booleans).
func plainText(v string) bool {
	if strings.TrimSpace(v) != v {
		return false
	}
	return !strings.ContainsFunc(v, func(r rune) bool { return r == '\t' || needsEscape(r) }) && !escape.Needed(v)
}

// blockText says whether a multi-line value may be written as a literal
// block: every character shown as it is, and no line ending in a space or
// a tab, which editors strip on save without a word. Unless markers, no
// line may look like a conflict marker either, which ParseYAML would take
// for an unresolved conflict.
func blockText(v string, markers bool) bool {
	if strings.ContainsFunc(v, needsEscape) || escape.Needed(v) {
		return false
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.TrimRight(l, " \t") != l || !markers && markerRun(l) > 0 {
			return false
		}
	}
	return true
}

// needsEscape says whether r is written as an escape in a double-quoted
// scalar wherever it stands (escape.Needed also finds the characters that
// take no cell and the stray joiners, which depend on what is around them):
// what internal/escape draws as one (control characters but
// newline and tab, which blocks hold; DEL and the C1 controls; the
// bidirectional controls), and the line and paragraph separators, the byte
// order mark and the non-characters, which YAML would fold or drop.
// QuoteYAML writes them so.
func needsEscape(r rune) bool {
	return escape.Unsafe(r) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff
}

// literalBlock writes a multi-line value as a literal block. The chomping
// indicator keeps its trailing newlines: "-" for none, none for one, "+"
// for more; an indentation indicator is needed when the first line that is
// not empty starts with a space.
func literalBlock(v string) (string, []string) {
	head := "|"
	var text string
	switch {
	case !strings.HasSuffix(v, "\n"):
		head, text = "|-", v
	case strings.HasSuffix(v, "\n\n"):
		head, text = "|+", v[:len(v)-1]
	default:
		text = v[:len(v)-1]
	}
	body := strings.Split(text, "\n")
	for _, l := range body {
		if l == "" {
			continue
		}
		if l[0] == ' ' {
			head = head[:1] + "2" + head[1:]
		}
		break
	}
	return head, body
}

// readsBack says whether `k: head` followed by body reads back as v, as
// SecretValues reads it.
func readsBack(head string, body []string, v string) bool {
	var b strings.Builder
	b.WriteString("k: " + head + "\n")
	for _, l := range body {
		if l != "" {
			b.WriteString("  " + l)
		}
		b.WriteByte('\n')
	}
	var doc yamlv3.Node
	if yamlv3.Unmarshal([]byte(b.String()), &doc) != nil || len(doc.Content) != 1 {
		return false
	}
	root := doc.Content[0]
	if root.Kind != yamlv3.MappingNode || len(root.Content) != 2 {
		return false
	}
	got, err := secretValue(root.Content[0], root.Content[1])
	if err != nil || got != v {
		return false
	}
	// A plain value that reads as a number, a boolean or null would be
	// read back alike, but other YAML readers (and users) would take it
	// for one: such values are quoted, as yaml.Marshal quotes them.
	n := root.Content[1]
	return n.Style != 0 || n.Tag == "!!str"
}

// DecodedYAML is YAML with a Secret's data decoded, as RenderSecretYAML
// writes a Secret; for any other object it is YAML. A multi-line value
// whose line merge has open conflicts is a literal block holding the line
// merge with a diff3 block for each colliding region, as a ConfigMap's
// would be; ParseYAML and SecretValues read the text back once every block
// is gone.
func (m *ObjectMerge) DecodedYAML() ([]byte, error) {
	if !IsSecret(m.Merged) {
		return m.YAML()
	}
	// As YAML does: a token in place of each open field's value, which
	// RenderSecretYAML writes as it is (it is no base64), then the blocks.
	return m.withBlocks(RenderSecretYAML, func(out string, tokens map[int]string) (string, bool, error) {
		return m.expandBlocks(out, tokens, true, TextOptions{}.blockFormat())
	})
}
