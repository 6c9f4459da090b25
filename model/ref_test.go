package model

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestObjectRefStringAndDraftPath(t *testing.T) {
	tests := []struct {
		name      string
		ref       ObjectRef
		wantStr   string
		wantDraft string
	}{
		{"core namespaced", cmRef, "configmaps/testmap -n ns", "kind-dev/ns/configmaps/testmap.yaml"},
		{"group", deployRef, "deployments.apps/web -n ns", "kind-dev/ns/deployments.apps/web.yaml"},
		{
			"cluster-scoped",
			ObjectRef{Context: "prod", Resource: schema.GroupVersionResource{Version: "v1", Resource: "nodes"}, Kind: "Node", Name: "n1", ClusterScoped: true},
			"nodes/n1", "prod/_cluster/nodes/n1.yaml",
		},
		{
			"context with slashes and colons stays one element",
			ObjectRef{Context: "arn:aws:eks:eu-west-1:1:cluster/prod", Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespace: "ns", Name: "m"},
			"configmaps/m -n ns", "arn%3Aaws%3Aeks%3Aeu-west-1%3A1%3Acluster%2Fprod/ns/configmaps/m.yaml",
		},
		{
			"dot-dot context cannot escape",
			ObjectRef{Context: "..", Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespace: "ns", Name: "m"},
			"configmaps/m -n ns", "%2E%2E/ns/configmaps/m.yaml",
		},
		{
			"empty context",
			ObjectRef{Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespace: "ns", Name: "m"},
			"configmaps/m -n ns", "_/ns/configmaps/m.yaml",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ref.String(); got != tt.wantStr {
				t.Errorf("String() = %q, want %q", got, tt.wantStr)
			}
			if got := tt.ref.DraftPath(); got != tt.wantDraft {
				t.Errorf("DraftPath() = %q, want %q", got, tt.wantDraft)
			}
		})
	}
}

func TestNewerRV(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"10", "9", true},
		{"9", "10", false},
		{"5", "5", false},
		{"abc", "5", true}, // not integers: trust arrival order
		{"5", "", true},
	}
	for _, tt := range tests {
		if got := newerRV(tt.a, tt.b); got != tt.want {
			t.Errorf("newerRV(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
