package model

import (
	"encoding/base64"
	"errors"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
)

// A Secret's draft text is its decoded form: RenderYAML writes
// the values of data decoded (diff.RenderSecretYAML), and parseDraft reads
// them back and encodes them, once, into the object the session saves. So
// the in-app editor, $EDITOR, the object view, the diff, the conflict view
// and the timeline all show the same decoded text, and nothing but the
// draft object is ever encoded.

// SecretHeader is the comment on top of a Secret's text, which says how
// its values are shown.
const SecretHeader = "# kedit shows the values of data decoded and encodes them again on save.\n" +
	"# A value that is not text stays base64, marked \"" + diff.BinaryComment + "\".\n"

// RenderSecretYAML renders a Secret whole (managedFields and status
// included, when obj has them) as RenderYAML renders its draft text:
// SecretHeader, then the object with the values of data decoded.
func RenderSecretYAML(obj *unstructured.Unstructured) (string, error) {
	out, err := diff.RenderSecretYAML(obj.Object)
	if err != nil {
		return "", err
	}
	return SecretHeader + string(out), nil
}

// mergedYAML renders a rebase's merge for the conflict view and the
// editors: a Secret's decoded, as its draft text is.
func mergedYAML(m *diff.ObjectMerge) (string, error) {
	if !diff.IsSecret(m.Merged) {
		out, err := m.YAML()
		return string(out), err
	}
	out, err := m.DecodedYAML()
	if err != nil {
		return "", err
	}
	return SecretHeader + string(out), nil
}

// encodeSecret reads the decoded values of a Secret's text into obj (the
// text parsed), encoding each once. stringData is honoured as the API
// server honours it: its values go into data, over data's own.
func encodeSecret(text string, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	data, stringData, hasData, hasStringData, err := diff.SecretValues([]byte(text))
	var ve *diff.SecretValueError
	switch {
	case errors.As(err, &ve):
		return nil, &DraftError{Line: ve.Line, Field: ve.Field, Msg: ve.Msg, Err: ve}
	case err != nil:
		// The text parsed as YAML a moment ago; the message may quote it.
		return nil, &DraftError{Msg: "the Secret's values cannot be read"}
	}
	if !hasData && !hasStringData {
		return obj, nil
	}
	enc := make(map[string]any, len(data)+len(stringData))
	for k, v := range data {
		enc[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	for k, v := range stringData {
		enc[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	delete(obj.Object, "stringData")
	if len(enc) == 0 {
		// The server keeps no empty data: the draft should not differ
		// from the object for it.
		delete(obj.Object, "data")
		return obj, nil
	}
	obj.Object["data"] = enc
	return obj, nil
}

// quotedRE finds what a parser's message quotes: "..." and `...`.
var quotedRE = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")

// redactDraftError keeps a Secret's values out of a refused draft's
// message: what the YAML parser quotes from the text is hidden (the line
// and field still say where). kedit's own messages name fields and keys
// only, and stay as they are.
func redactDraftError(err error) error {
	var de *DraftError
	if !errors.As(err, &de) || de.Err == nil {
		return err
	}
	var ve *diff.SecretValueError
	var me *diff.MarkerError
	if errors.As(de.Err, &ve) || errors.As(de.Err, &me) {
		return err
	}
	r := *de
	r.Msg = quotedRE.ReplaceAllString(r.Msg, `"…"`)
	r.Err = errors.New(r.Msg)
	return &r
}

// The draft store keeps a Secret's draft (--allow-secret-drafts) with its
// values base64-encoded, as the API server holds them, never as the
// decoded text the user edits.
const (
	// unparsedSecretDraft starts the stored form of a Secret's draft text
	// that does not parse: its values cannot be found to be encoded, so the
	// whole text is.
	unparsedSecretDraft = "# kedit: this draft of a Secret does not parse; its text is base64-encoded below.\n" +
		"keditDraftText: "
)

// StoredSecretDraft returns what the draft store writes for a Secret's
// draft text: the object it parses to, its values base64-encoded, as
// diff.MarshalYAML writes it (the text's comments and layout are not kept, its
// content is); a text that does not parse, or is not a Secret, is
// base64-encoded whole. SecretDraftText reads it back.
func StoredSecretDraft(text string) string {
	if obj, err := parseDraft(text); err == nil && diff.IsSecret(obj) {
		if out, err := diff.MarshalYAML(obj.Object); err == nil {
			return string(out)
		}
	}
	return unparsedSecretDraft + base64.StdEncoding.EncodeToString([]byte(text)) + "\n"
}

// ErrStoredSecretDraft says that a stored draft of a Secret is not one
// StoredSecretDraft wrote. It never quotes the file.
var ErrStoredSecretDraft = errors.New("not a stored draft of a Secret: its values are not kept base64-encoded as kedit writes them")

// SecretDraftText returns the draft text of a Secret's stored draft
// (StoredSecretDraft): its values decoded, as RenderYAML writes them, or
// the text exactly as it was when it did not parse. A draft an older kedit
// stored (the object's YAML, base64 and all) reads the same way.
func SecretDraftText(stored string) (string, error) {
	if rest, ok := strings.CutPrefix(stored, unparsedSecretDraft); ok {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(rest, "\n"))
		if err != nil {
			return "", ErrStoredSecretDraft
		}
		return string(b), nil
	}
	obj, err := diff.ParseYAML([]byte(stored))
	if err != nil || !diff.IsSecret(obj) {
		return "", ErrStoredSecretDraft
	}
	return RenderYAML(obj)
}
