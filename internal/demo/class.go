package demo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// A class on one demo cluster: the teacher's kedit demo, and students who
// join it from other terminals as users of their own, each with kedit
// --as or kubectl --as through the demo's admin kubeconfig (whose user
// may impersonate anyone). What they may do is RBAC's to say, as on any
// cluster: a Role on the demo's ConfigMaps bound to Users, so that a user
// not named gets the server's 403.

// Users may edit the demo's objects (get, list, watch, update, patch the
// ConfigMaps of Namespace), through impersonation: the students of a
// class.
var Users = []string{EditorUser, "bob"}

// JoinUser is the user the join command names, and JoinManager the field
// manager its kedit writes under: the person's own, so that every screen
// (a conflict's theirs, the watch's event, the timeline, blame) and kedit
// history name bob, where kedit's own name would stand for anyone's kedit.
const (
	JoinUser    = "bob"
	JoinManager = "kedit-" + JoinUser
)

// editRole names the Role and the RoleBinding that let Users edit.
const editRole = "kedit-demo-edit"

var (
	rolesResource        = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}
	roleBindingsResource = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}
)

// GrantEdit lets Users get, list, watch, update and patch the ConfigMaps
// of ns: a Role and a RoleBinding, both named kedit-demo-edit. Those that
// exist already (a kept demo started again) are left as they are.
func GrantEdit(ctx context.Context, dc dynamic.Interface, ns string) error {
	role := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
		"metadata": map[string]any{"name": editRole, "namespace": ns},
		"rules": []any{map[string]any{
			"apiGroups": []any{""},
			"resources": []any{"configmaps"},
			"verbs":     []any{"get", "list", "watch", "update", "patch"},
		}},
	}}
	subjects := make([]any, 0, len(Users))
	for _, u := range Users {
		subjects = append(subjects, map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": u})
	}
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
		"metadata": map[string]any{"name": editRole, "namespace": ns},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": editRole},
		"subjects": subjects,
	}}
	for _, o := range []struct {
		gvr schema.GroupVersionResource
		obj *unstructured.Unstructured
	}{{rolesResource, role}, {roleBindingsResource, binding}} {
		_, err := dc.Resource(o.gvr).Namespace(ns).Create(ctx, o.obj, metav1.CreateOptions{FieldManager: demoFieldManager})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %s %s: %w", strings.ToLower(o.obj.GetKind()), editRole, err)
		}
	}
	return nil
}

// Join is how a second terminal joins the demo's cluster as another user:
// the lines to print, and to show on the help page. kubeconfig is the
// demo's, object the TYPE/NAME the demo opened.
func Join(kubeconfig, object string) []string {
	return []string{
		fmt.Sprintf("A second terminal joins this cluster as %s (%s may edit its ConfigMaps):", JoinUser, strings.Join(Users, " or ")),
		"  export KUBECONFIG=" + shellWord(kubeconfig),
		"  " + keditCommand() + " --as " + JoinUser + " --field-manager " + JoinManager + " " + shellWord(object),
		"  kubectl --as " + EditorUser + " edit " + shellWord(object),
	}
}

// keditCommand is how a shell runs this kedit: kedit when PATH finds
// this one, else its absolute path.
func keditCommand() string {
	self, err := os.Executable()
	if err != nil {
		return "kedit"
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	if p, err := exec.LookPath("kedit"); err == nil {
		if resolved, err := filepath.EvalSymlinks(p); err == nil && sameFile(resolved, self) {
			return "kedit"
		}
	}
	return shellWord(self)
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
