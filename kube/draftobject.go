package kube

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/model"
)

// DraftKey names t's object for the draft store: its cluster, namespace,
// resource and name, and for a Secret how its draft is stored (values
// base64-encoded, as the API server holds them, never the decoded text).
func DraftKey(t *Target) drafts.Key {
	k := drafts.Key{
		Context:       t.Context,
		Server:        t.Server,
		Namespace:     t.Namespace,
		ClusterScoped: !t.Namespaced(),
		Resource:      t.Ref().ResourceName(),
		Name:          t.Name,
		Subresource:   string(t.Subresource),
	}
	if t.Ref().IsSecret() {
		k.Secret = &secretDraftText
	}
	return k
}

var secretDraftText = drafts.SecretText{Store: model.StoredSecretDraft, Load: model.SecretDraftText}

// StoredDraft is a draft from the store as the session takes it back. Its
// base is handed on only when it is the version the draft was last based
// on; a draft recovered without its base can still be taken up when the
// object has not moved on since.
func StoredDraft(d *drafts.Draft) model.StoredDraft {
	sd := model.StoredDraft{Text: string(d.Text), Format: model.Format(d.Format), BaseResourceVersion: d.BaseResourceVersion, UID: d.UID}
	if d.BaseJSON != nil {
		// A base that does not decode only makes recovery stricter.
		base := &unstructured.Unstructured{}
		if base.UnmarshalJSON(d.BaseJSON) == nil && base.GetResourceVersion() == d.BaseResourceVersion {
			sd.Base = base
		}
	}
	return sd
}

// WriteDraft performs the session's WriteDraft in d, the object's share of
// the draft store. A *drafts.SecretError or a *drafts.WriteError says the
// draft exists only in memory.
func WriteDraft(d *drafts.Object, e model.WriteDraft) error {
	var base map[string]any
	if e.Base != nil {
		base = e.Base.Object
	}
	format := string(e.Format)
	if e.Format == model.FormatYAML {
		format = ""
	}
	_, err := d.WriteFormat(e.Seq, format, e.BaseResourceVersion, []byte(e.Text), base)
	return err
}
