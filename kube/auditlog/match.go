package auditlog

import (
	"fmt"
	"sort"
	"strings"
)

// Match says which object's events to keep.
type Match struct {
	// Resources are the plural resource names the object's type may go by
	// in the log's objectRef; one when a cluster resolved the type.
	Resources []string
	// Group is the type's API group ("" for the core group); AnyGroup
	// takes any group, and the log then has to name only one.
	Group    string
	AnyGroup bool
	// Namespace is the namespace the object is looked for in; a
	// cluster-scoped object has none in the log, which is taken too
	// unless Scoped says otherwise.
	Namespace string
	Name      string
	// Scoped is set when the type's scope is known (a cluster resolved
	// it): Namespaced then says which.
	Scoped, Namespaced bool
}

// builtin are kubectl's short names, singular names and kinds of the
// built-in types, for naming a type with no cluster to ask.
var builtin = map[string][2]string{}

func init() {
	for _, t := range []struct {
		resource, group string
		aliases         string
	}{
		{"configmaps", "", "cm configmap"},
		{"secrets", "", "secret"},
		{"services", "", "svc service"},
		{"serviceaccounts", "", "sa serviceaccount"},
		{"pods", "", "po pod"},
		{"namespaces", "", "ns namespace"},
		{"nodes", "", "no node"},
		{"endpoints", "", "ep"},
		{"persistentvolumes", "", "pv persistentvolume"},
		{"persistentvolumeclaims", "", "pvc persistentvolumeclaim"},
		{"limitranges", "", "limits limitrange"},
		{"resourcequotas", "", "quota resourcequota"},
		{"replicationcontrollers", "", "rc replicationcontroller"},
		{"deployments", "apps", "deploy deployment"},
		{"daemonsets", "apps", "ds daemonset"},
		{"statefulsets", "apps", "sts statefulset"},
		{"replicasets", "apps", "rs replicaset"},
		{"jobs", "batch", "job"},
		{"cronjobs", "batch", "cj cronjob"},
		{"horizontalpodautoscalers", "autoscaling", "hpa horizontalpodautoscaler"},
		{"ingresses", "networking.k8s.io", "ing ingress"},
		{"networkpolicies", "networking.k8s.io", "netpol networkpolicy"},
		{"poddisruptionbudgets", "policy", "pdb poddisruptionbudget"},
		{"roles", "rbac.authorization.k8s.io", "role"},
		{"rolebindings", "rbac.authorization.k8s.io", "rolebinding"},
		{"clusterroles", "rbac.authorization.k8s.io", "clusterrole"},
		{"clusterrolebindings", "rbac.authorization.k8s.io", "clusterrolebinding"},
		{"storageclasses", "storage.k8s.io", "sc storageclass"},
		{"customresourcedefinitions", "apiextensions.k8s.io", "crd crds customresourcedefinition"},
		{"priorityclasses", "scheduling.k8s.io", "pc priorityclass"},
		{"mutatingwebhookconfigurations", "admissionregistration.k8s.io", "mutatingwebhookconfiguration"},
		{"validatingwebhookconfigurations", "admissionregistration.k8s.io", "validatingwebhookconfiguration"},
	} {
		builtin[t.resource] = [2]string{t.resource, t.group}
		for _, a := range strings.Fields(t.aliases) {
			builtin[a] = [2]string{t.resource, t.group}
		}
	}
}

// MatchType names the object TYPE/NAME in namespace without a cluster to
// resolve TYPE: kubectl's short and singular names and the kinds of the
// built-in types, RESOURCE.GROUP, or a resource's plural or singular name
// (as the log's objectRef holds it), in any group.
func MatchType(typ, namespace, name string) (Match, error) {
	t := strings.ToLower(strings.TrimSpace(typ))
	if t == "" || name == "" {
		return Match{}, fmt.Errorf("give the object as TYPE/NAME")
	}
	m := Match{Namespace: namespace, Name: name}
	if b, ok := builtin[t]; ok {
		m.Resources, m.Group = []string{b[0]}, b[1]
		return m, nil
	}
	res, group, dotted := strings.Cut(t, ".")
	if dotted {
		if b, ok := builtin[res]; ok && b[1] == group {
			res = b[0]
		}
		m.Resources, m.Group = plurals(res), group
		return m, nil
	}
	m.Resources, m.AnyGroup = plurals(res), true
	return m, nil
}

// plurals are the resource names a type named r may have: r itself, and
// English plurals of it as Kubernetes forms them.
func plurals(r string) []string {
	set := map[string]bool{r: true, r + "s": true}
	switch {
	case strings.HasSuffix(r, "y"):
		set[strings.TrimSuffix(r, "y")+"ies"] = true
	case strings.HasSuffix(r, "s"), strings.HasSuffix(r, "x"), strings.HasSuffix(r, "ch"), strings.HasSuffix(r, "sh"):
		set[r+"es"] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// String names the object as kubectl does: configmaps/testmap, with the
// resource's group when it has one.
func (m Match) String() string {
	r := strings.Join(m.Resources, "|")
	if !m.AnyGroup && m.Group != "" {
		r += "." + m.Group
	}
	return r + "/" + m.Name
}

func (m Match) resourceOK(resource, group string) bool {
	if !m.AnyGroup && group != m.Group {
		return false
	}
	for _, r := range m.Resources {
		if r == resource {
			return true
		}
	}
	return false
}
