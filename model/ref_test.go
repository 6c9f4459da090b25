package model

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestObjectRefString(t *testing.T) {
	for _, tt := range []struct {
		ref  ObjectRef
		want string
	}{
		{cmRef, "configmaps/testmap -n ns"},
		{deployRef, "deployments.apps/web -n ns"},
		{ObjectRef{Context: "prod", Resource: schema.GroupVersionResource{Version: "v1", Resource: "nodes"}, Kind: "Node", Name: "n1", ClusterScoped: true}, "nodes/n1"},
	} {
		if got := tt.ref.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
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
		{"100", "99", true}, // numbers, not text
		// Beyond 64 bits, as the API machinery allows.
		{"18446744073709551616", "18446744073709551615", true},
		{"18446744073709551615", "18446744073709551616", false},
		{"05", "4", true}, // not as the server writes them: arrival order
	}
	for _, tt := range tests {
		if got := NewerResourceVersion(tt.a, tt.b); got != tt.want {
			t.Errorf("NewerResourceVersion(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestObjectRefIsSecret(t *testing.T) {
	secrets := ObjectRef{Resource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, Kind: "Secret", Namespace: "ns", Name: "db"}
	if !secrets.IsSecret() {
		t.Error("a Secret's ref is no Secret")
	}
	other := secrets
	other.Resource.Group = "example.com"
	if other.IsSecret() || cmRef.IsSecret() {
		t.Error("a ConfigMap, or secrets.example.com, is taken for a Secret")
	}
}
