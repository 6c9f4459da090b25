package kube

import (
	"context"
	"net"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/model"
)

// TestNoConnectionWroteNothing: a request that never reached a server
// (nothing listens at the address) is retried without reading the object
// back first, and said as not taken; one whose connection broke after it
// was sent may have been done.
func TestNoConnectionWroteNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		listen func(t *testing.T) string
		landed bool
	}{
		{"refused", func(t *testing.T) string {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := l.Addr().String()
			l.Close() // nothing listens there now
			return addr
		}, false},
		{"reset after the request", func(t *testing.T) string {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					// Read the request, then hang up without an answer.
					buf := make([]byte, 4096)
					c.Read(buf)
					c.(*net.TCPConn).SetLinger(0)
					c.Close()
				}
			}()
			return l.Addr().String()
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dc, err := dynamic.NewForConfig(&rest.Config{Host: "http://" + tc.listen(t)})
			if err != nil {
				t.Fatal(err)
			}
			gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
			// A save's request: a PUT, which client-go does not retry.
			obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "testmap", "namespace": "ns", "resourceVersion": "7"}}}
			_, err = dc.Resource(gvr).Namespace("ns").Update(context.Background(), obj, metav1.UpdateOptions{})
			if err == nil {
				t.Fatal("a request to nothing succeeded")
			}
			target := &Target{Mapping: &meta.RESTMapping{Resource: gvr, GroupVersionKind: gvr.GroupVersion().WithKind("ConfigMap"), Scope: meta.RESTScopeNamespace}, Namespace: "ns", Name: "testmap"}
			classified := classify(target, "update", err)
			if k := model.KindOf(classified); !k.Retryable() {
				t.Fatalf("%v: kind %s, want a retry", classified, k)
			}
			if got := model.MayHaveLanded(classified); got != tc.landed {
				t.Errorf("%v: may have landed %v, want %v", classified, got, tc.landed)
			}
		})
	}
}
