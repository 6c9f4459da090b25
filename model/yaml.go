package model

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kedit/kedit/diff"
)

// RenderYAML renders obj as the draft text the user edits: YAML as
// `kubectl get -o yaml` prints it, without metadata.managedFields, which
// is bookkeeping nobody edits by hand (kubectl edit hides it too).
func RenderYAML(obj *unstructured.Unstructured) (string, error) {
	if obj == nil {
		return "", nil
	}
	c := obj.DeepCopy()
	unstructured.RemoveNestedField(c.Object, "metadata", "managedFields")
	out, err := yaml.Marshal(c.Object)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", obj.GetName(), err)
	}
	return string(out), nil
}

// lineRE finds the line number in yaml.v3's errors ("yaml: line 3: ...").
var lineRE = regexp.MustCompile(`line (\d+)`)

// parseDraft reads the draft's text into an object, or explains with a
// *DraftError why it cannot. Conflict blocks left from a merge are refused
// by diff.ParseYAML with the line and field.
func parseDraft(text string) (*unstructured.Unstructured, error) {
	if strings.TrimSpace(text) == "" {
		return nil, &DraftError{Msg: "the draft is empty; discard it to cancel the edit"}
	}
	obj, err := diff.ParseYAML([]byte(text))
	if err == nil {
		return obj, nil
	}
	var me *diff.MarkerError
	if errors.As(err, &me) {
		return nil, &DraftError{Line: me.Line, Field: me.Path, Msg: "unresolved conflict block", Err: err}
	}
	if errors.Is(err, diff.ErrNotObject) {
		return nil, &DraftError{Msg: err.Error(), Err: err}
	}
	de := &DraftError{Msg: yamlMessage(err), Err: err}
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		de.Line, _ = strconv.Atoi(m[1])
	}
	return nil, de
}

// yamlMessage strips the wrappers ("invalid YAML: yaml: line 3: ") from a
// parser error so that the DraftError states the line once.
func yamlMessage(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "yaml: "); i >= 0 {
		msg = msg[i+len("yaml: "):]
	}
	if m := lineRE.FindStringIndex(msg); m != nil && m[0] == 0 {
		msg = strings.TrimLeft(msg[m[1]:], ": ")
	}
	return msg
}

// identityFields are the fields a draft may not change: they name the
// object, and a draft that changes them would be a different object.
var identityFields = []struct {
	path []string
	get  func(*unstructured.Unstructured) string
}{
	{[]string{"apiVersion"}, (*unstructured.Unstructured).GetAPIVersion},
	{[]string{"kind"}, (*unstructured.Unstructured).GetKind},
	{[]string{"metadata", "namespace"}, (*unstructured.Unstructured).GetNamespace},
	{[]string{"metadata", "name"}, (*unstructured.Unstructured).GetName},
}

// checkIdentity refuses a draft that is not base's object, naming the field
// and its line in text.
func checkIdentity(text string, base, draft *unstructured.Unstructured) error {
	for _, f := range identityFields {
		want, got := f.get(base), f.get(draft)
		if want == got {
			continue
		}
		// A namespace left out of the draft means the session's.
		if f.path[len(f.path)-1] == "namespace" && got == "" {
			continue
		}
		return &DraftError{
			Line:  lineOf(text, f.path...),
			Field: strings.Join(f.path, "."),
			Msg:   fmt.Sprintf("is %q, but this session edits %q; kedit does not rename or move objects", got, want),
		}
	}
	return nil
}

// lineOf returns the 1-based line of the key at path in text, or 0.
func lineOf(text string, path ...string) int {
	var doc yamlv3.Node
	if yamlv3.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := 0
	for _, key := range path {
		if n.Kind != yamlv3.MappingNode {
			return 0
		}
		var next *yamlv3.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		if next == nil {
			return 0
		}
		n = next
	}
	return line
}
