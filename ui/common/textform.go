package common

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
)

// How the views render a session's objects as text: in its format, and
// for a status edit with its status.

// TextForm is how a session's objects are rendered as text: in its format
// (YAML, or JSON with -o json), and for a status edit with status always
// shown, as it is what is edited.
type TextForm struct {
	format model.Format
	status bool
}

// TextFormOf is the text form of sess's objects.
func TextFormOf(sess *model.Session) TextForm {
	return TextForm{format: sess.Format(), status: sess.Ref().Subresource == "status"}
}

// Notes are what the object view's header says of tf, each a part of its
// own (a part that does not fit goes on the next line): JSON, and what f
// shows.
func (tf TextForm) Notes(st *Styles, full bool) []string {
	var parts []string
	if tf.format == model.FormatJSON {
		parts = append(parts, st.Muted.Render("JSON"))
	}
	switch {
	case full:
	case tf.status:
		parts = append(parts, st.Muted.Render("managedFields hidden (f)"))
	default:
		parts = append(parts, st.Muted.Render("managedFields, status hidden (f)"))
	}
	return parts
}

// ObjectTitle names the object as the object view's header does,
// kind/name, with the subresource edited next to the name, where a narrow
// terminal keeps it.
func ObjectTitle(ref model.ObjectRef) escape.Text {
	title := escape.Safe(ref.Kind) + "/" + escape.Safe(ref.Name)
	if ref.Subresource != "" {
		title += " --subresource " + escape.Safe(ref.Subresource)
	}
	return title
}

// RenderObject renders obj in tf for the object view. By default it hides
// managedFields and status (but for a status edit), which nobody edits and
// which bury the spec; full shows them. A Secret's values are decoded, as
// in its draft.
func RenderObject(obj *unstructured.Unstructured, full bool, tf TextForm) string {
	return RenderObjectNow(obj, full, tf)
}

// RenderHow says how an object is rendered as text.
type RenderHow int

const (
	// RenderShown is the object view's: managedFields and status hidden.
	RenderShown RenderHow = iota
	// RenderFull is everything (f).
	RenderFull
	// RenderAsDraft is the text a draft is made from (Format.Render,
	// what e and i open). A draft is compared with base rendered so, and
	// only so: any line the renderers differ on (status, which the object
	// view hides) would show as a change the draft made.
	RenderAsDraft
)

// RenderAs renders obj as how says.
func RenderAs(obj *unstructured.Unstructured, how RenderHow, tf TextForm) string {
	if how != RenderAsDraft {
		return RenderObject(obj, how == RenderFull, tf)
	}
	text, err := tf.format.Render(obj)
	if err != nil {
		return "cannot render the object: " + err.Error()
	}
	return text
}

// Renders renders objects in a session's text form (tf), and remembers
// the last objects rendered: a view renders the same
// object again at every layout (a resize, an event that leaves it as it
// was), and a mebibyte takes 150 ms to render. The session's objects are
// never changed in place, so an object is known by its pointer (and its
// resourceVersion, to be sure).
type Renders struct {
	TF   TextForm
	last [2]struct {
		obj  *unstructured.Unstructured
		rv   string
		how  RenderHow
		TF   TextForm
		text string
	}
	next int
}

// Render is RenderObject in r's text form, remembered.
func (r *Renders) Render(obj *unstructured.Unstructured, full bool) string {
	how := RenderShown
	if full {
		how = RenderFull
	}
	return r.RenderAs(obj, how)
}

// RenderAs is RenderAs in r's text form, remembered.
func (r *Renders) RenderAs(obj *unstructured.Unstructured, how RenderHow) string {
	if r == nil || obj == nil {
		var tf TextForm
		if r != nil {
			tf = r.TF
		}
		return RenderAs(obj, how, tf)
	}
	tf := r.TF
	rv := obj.GetResourceVersion()
	for _, e := range r.last {
		if e.obj == obj && e.rv == rv && e.how == how && e.TF == tf {
			return e.text
		}
	}
	text := RenderAs(obj, how, tf)
	e := &r.last[r.next]
	e.obj, e.rv, e.how, e.TF, e.text = obj, rv, how, tf, text
	r.next = (r.next + 1) % len(r.last)
	return text
}

func RenderObjectNow(obj *unstructured.Unstructured, full bool, tf TextForm) string {
	if obj == nil {
		return ""
	}
	if full {
		out, err := tf.format.RenderWhole(obj)
		if err != nil {
			return "cannot render the object: " + err.Error()
		}
		return out
	}
	c := obj.DeepCopy()
	if !tf.status {
		unstructured.RemoveNestedField(c.Object, "status")
	}
	out, err := tf.format.Render(c)
	if err != nil {
		return "cannot render the object: " + err.Error()
	}
	return out
}
