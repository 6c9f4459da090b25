package ui

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
)

// How the views render a session's objects as text: in its format, and
// for a status edit with its status.

// textForm is how a session's objects are rendered as text: in its format
// (YAML, or JSON with -o json), and for a status edit with status always
// shown, as it is what is edited.
type textForm struct {
	format model.Format
	status bool
}

// textFormOf is the text form of sess's objects.
func textFormOf(sess *model.Session) textForm {
	return textForm{format: sess.Format(), status: sess.Ref().Subresource == "status"}
}

// notes are what the object view's header says of tf, each after two
// spaces: JSON, and what f shows.
func (tf textForm) notes(st *Styles, full bool) string {
	var s string
	if tf.format == model.FormatJSON {
		s += "  " + st.Muted.Render("JSON")
	}
	switch {
	case full:
	case tf.status:
		s += "  " + st.Muted.Render("managedFields hidden (f)")
	default:
		s += "  " + st.Muted.Render("managedFields, status hidden (f)")
	}
	return s
}

// objectTitle names the object as the object view's header does,
// kind/name, with the subresource edited next to the name, where a narrow
// terminal keeps it.
func objectTitle(ref model.ObjectRef) escape.Text {
	title := escape.Safe(ref.Kind) + "/" + escape.Safe(ref.Name)
	if ref.Subresource != "" {
		title += " --subresource " + escape.Safe(ref.Subresource)
	}
	return title
}

// renderObject renders obj in tf for the object view. By default it hides
// managedFields and status (but for a status edit), which nobody edits and
// which bury the spec; full shows them. A Secret's values are decoded, as
// in its draft.
func renderObject(obj *unstructured.Unstructured, full bool, tf textForm) string {
	return renderObjectNow(obj, full, tf)
}

// renderHow says how an object is rendered as text.
type renderHow int

const (
	// renderShown is the object view's: managedFields and status hidden.
	renderShown renderHow = iota
	// renderFull is everything (f).
	renderFull
	// renderAsDraft is the text a draft is made from (Format.Render,
	// what e and i open). A draft is compared with base rendered so, and
	// only so: any line the renderers differ on (status, which the object
	// view hides) would show as a change the draft made.
	renderAsDraft
)

// renderAs renders obj as how says.
func renderAs(obj *unstructured.Unstructured, how renderHow, tf textForm) string {
	if how != renderAsDraft {
		return renderObject(obj, how == renderFull, tf)
	}
	text, err := tf.format.Render(obj)
	if err != nil {
		return "cannot render the object: " + err.Error()
	}
	return text
}

// renders renders objects in a session's text form (tf), and remembers
// the last objects rendered: a view renders the same
// object again at every layout (a resize, an event that leaves it as it
// was), and a mebibyte takes 150 ms to render. The session's objects are
// never changed in place, so an object is known by its pointer (and its
// resourceVersion, to be sure).
type renders struct {
	tf   textForm
	last [2]struct {
		obj  *unstructured.Unstructured
		rv   string
		how  renderHow
		tf   textForm
		text string
	}
	next int
}

// render is renderObject in r's text form, remembered.
func (r *renders) render(obj *unstructured.Unstructured, full bool) string {
	how := renderShown
	if full {
		how = renderFull
	}
	return r.renderAs(obj, how)
}

// renderAs is renderAs in r's text form, remembered.
func (r *renders) renderAs(obj *unstructured.Unstructured, how renderHow) string {
	if r == nil || obj == nil {
		var tf textForm
		if r != nil {
			tf = r.tf
		}
		return renderAs(obj, how, tf)
	}
	tf := r.tf
	rv := obj.GetResourceVersion()
	for _, e := range r.last {
		if e.obj == obj && e.rv == rv && e.how == how && e.tf == tf {
			return e.text
		}
	}
	text := renderAs(obj, how, tf)
	e := &r.last[r.next]
	e.obj, e.rv, e.how, e.tf, e.text = obj, rv, how, tf, text
	r.next = (r.next + 1) % len(r.last)
	return text
}

func renderObjectNow(obj *unstructured.Unstructured, full bool, tf textForm) string {
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
