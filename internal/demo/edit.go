package demo

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
)

// The demo's kubectl edit (W): another user's `kubectl edit` that takes
// its time. It reads the object, and EditWait later writes back the field
// the user most likely edits as it read it, in a patch with no
// resourceVersion, as kubectl edit does: a value saved meanwhile is lost,
// and the audit log shows who lost it.

// EditWait is how long the demo's kubectl edit takes between reading the
// object and writing it back.
const EditWait = 5 * time.Second

// EditorUser is the user the demo's kubectl edit runs as (impersonated by
// the demo's admin), EditorManager its field manager (kubectl edit's own)
// and EditorUserAgent its user agent: another client than kedit in the
// audit log.
const (
	EditorUser      = "alice"
	EditorManager   = "kubectl-edit"
	EditorUserAgent = "kubectl-edit (kedit demo)"
)

// EditStep says which report of the demo's kubectl edit a Write is.
type EditStep int

const (
	// EditRead: it read the object (ResourceVersion is the version read),
	// and writes back after EditWait.
	EditRead EditStep = iota + 1
	// EditWrote: it wrote the field back (Unchanged: as it still was).
	EditWrote
	// EditBusy: asked again while it waits to write; nothing more is done.
	EditBusy
)

// EditorClient is the demo's kubectl edit's client on the cluster of
// kubeconfig: EditorUser impersonated, with the rights RBAC gives her
// (GrantEdit: she is one of Users, as a student joining the demo as alice
// is), and a user agent of its own.
func EditorClient(kubeconfig string) (dynamic.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.Impersonate.UserName = EditorUser
	cfg.Impersonate.Groups = []string{"system:authenticated"}
	cfg.UserAgent = EditorUserAgent
	return dynamic.NewForConfig(cfg)
}

// WithEditor gives the writer the kubectl edit's client (EditorClient);
// without one, KubectlEdit uses the demo writer's. Call it before Start.
func (w *Writer) WithEditor(dc dynamic.Interface) *Writer {
	w.editor = dc
	return w
}

// KubectlEdit starts the demo's kubectl edit (the demo's `W`): it reads
// the object now and writes back EditWait later; each step is reported on
// Writes. Asked while one waits, it reports EditBusy.
func (w *Writer) KubectlEdit() {
	select {
	case w.edit <- struct{}{}:
	default:
	}
}

// staleEdit is a kubectl edit that has read the object: the field it will
// write back, and its value then.
type staleEdit struct {
	fields []string
	value  string
	found  bool
	rv     string
}

func (e *staleEdit) path() string { return "." + strings.Join(e.fields, ".") }

func (w *Writer) editClient() dynamic.Interface {
	if w.editor != nil {
		return w.editor
	}
	return w.client
}

// readForEdit reads the object as the kubectl edit: the field it will
// write back, and its value.
func (w *Writer) readForEdit(ctx context.Context) (*staleEdit, Write) {
	obj, err := w.target.Resource(w.editClient()).Get(ctx, w.target.Name, metav1.GetOptions{})
	if err != nil {
		return nil, Write{Edit: EditRead, Err: kube.Classify(w.target, "get", err)}
	}
	e := &staleEdit{fields: editField(obj, &w.keys), rv: obj.GetResourceVersion()}
	e.value, e.found, _ = unstructured.NestedString(obj.Object, e.fields...)
	return e, Write{Path: e.path(), Value: e.value, ResourceVersion: e.rv, Edit: EditRead}
}

// writeBack writes the field back as the kubectl edit read it: a merge
// patch with no resourceVersion, under kubectl edit's field manager.
func (w *Writer) writeBack(ctx context.Context, e *staleEdit) Write {
	report := Write{Path: e.path(), Value: e.value, Edit: EditWrote}
	var value any
	if e.found {
		value = e.value
	}
	patch := map[string]any{e.fields[len(e.fields)-1]: value}
	for i := len(e.fields) - 2; i >= 0; i-- {
		patch = map[string]any{e.fields[i]: patch}
	}
	body, err := json.Marshal(patch)
	if err != nil {
		report.Err = err
		return report
	}
	obj, err := w.target.Resource(w.editClient()).Patch(ctx, w.target.Name, types.MergePatchType, body,
		metav1.PatchOptions{FieldManager: EditorManager})
	if err != nil {
		report.Err = kube.Classify(w.target, "patch", err)
		return report
	}
	report.ResourceVersion = obj.GetResourceVersion()
	report.Unchanged = report.ResourceVersion == e.rv
	return report
}

// editField is the field the kubectl edit writes back: the one the user
// most likely edits, as the demo writer's even writes choose it (a config
// file's key, testmap's foo), or the writer's own annotation on another
// kind.
func editField(obj *unstructured.Unstructured, keys *demoKeys) []string {
	data, _, _ := unstructured.NestedStringMap(obj.Object, "data")
	if obj.GetKind() != "ConfigMap" || len(data) == 0 {
		return []string{"metadata", "annotations", "demo.kedit.io/write"}
	}
	sorted := make([]string, 0, len(data))
	for k := range data {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if _, _, ok := bumpSetting(data[k], "worker_connections"); ok {
			return []string{"data", k}
		}
	}
	keys.choose(sorted)
	return []string{"data", keys.mine}
}

// editText says a kubectl edit's step; where is the field.
func (w Write) editText(where escape.Text) escape.Text {
	who := EditorUser + "'s kubectl edit"
	value := escape.SafeQuoted(w.Value)
	if strings.Contains(w.Value, "\n") {
		value = escape.Textf("(%s)", words.Count(strings.Count(w.Value, "\n")+1, "line"))
	}
	switch {
	case w.Err != nil && w.Edit == EditRead:
		return escape.Textf("%s could not read the object: %s", who, w.Err)
	case w.Err != nil:
		return escape.Textf("%s could not write %s: %s", who, where, w.Err)
	case w.Edit == EditRead:
		return escape.Textf("%s read %s = %s (rv %s): writes it back in %d s", who, where, value, w.ResourceVersion,
			int(EditWait/time.Second))
	case w.Edit == EditBusy:
		return escape.Textf("%s is still waiting to write %s back", who, where)
	case w.Unchanged:
		return escape.Textf("%s wrote %s = %s back: unchanged since it read it, nothing lost", who, where, value)
	}
	// Short, for the status line: the README and the timeline say the rest.
	return escape.Textf("%s set %s back to %s (rv %s): a lost update; t shows it", who, where, value, w.ResourceVersion)
}
