package kube

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/openapi"
	"k8s.io/kube-openapi/pkg/spec3"

	"github.com/kedit/kedit/kube/schemacheck"
)

// ServerSchemas builds a type converter from the OpenAPI v3 document the
// API server publishes for gv, so that MergeObjects merges custom resources
// by their own schema (list keys, atomic fields). It passes straight to
// diff.WithSchemas.
func ServerSchemas(dc discovery.DiscoveryInterface, gv schema.GroupVersion) (managedfields.TypeConverter, error) {
	raw, err := openAPIDocument(dc, gv)
	if err != nil {
		return nil, err
	}
	var doc spec3.OpenAPI
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("parsing the OpenAPI v3 document of %s: %w", gv, err)
	}
	if doc.Components == nil || len(doc.Components.Schemas) == 0 {
		return nil, fmt.Errorf("the OpenAPI v3 document of %s has no schemas", gv)
	}
	tc, err := managedfields.NewTypeConverter(doc.Components.Schemas, false)
	if err != nil {
		return nil, fmt.Errorf("building schemas for %s: %w", gv, err)
	}
	return tc, nil
}

// openAPIDocument is the server's OpenAPI v3 document of gv, JSON. It is
// read through the discovery client's transport, which keeps it on disk
// (LoadSchemas), but not kept in memory as the client's own OpenAPIV3
// would keep every document it read for as long as kedit runs: the
// caller keeps what it needs of it (a kind's schema), and lets the
// megabytes go.
func openAPIDocument(dc discovery.DiscoveryInterface, gv schema.GroupVersion) ([]byte, error) {
	paths, err := openapi.NewClient(dc.RESTClient()).Paths()
	if err != nil {
		return nil, fmt.Errorf("listing the server's OpenAPI v3 documents: %w", err)
	}
	key := "apis/" + gv.Group + "/" + gv.Version
	if gv.Group == "" {
		key = "api/" + gv.Version
	}
	gvDoc, ok := paths[key]
	if !ok {
		return nil, fmt.Errorf("the server publishes no OpenAPI v3 document for %s", gv)
	}
	raw, err := gvDoc.Schema("application/json")
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI v3 document of %s: %w", gv, err)
	}
	return raw, nil
}

// ServerCheckSchema is the server's schema of gvk, for checking drafts of
// it as the server would (schemacheck), from the same OpenAPI v3 document
// ServerSchemas reads.
func ServerCheckSchema(dc discovery.DiscoveryInterface, gvk schema.GroupVersionKind) (*schemacheck.Schema, error) {
	raw, err := openAPIDocument(dc, gvk.GroupVersion())
	if err != nil {
		return nil, err
	}
	return schemacheck.New(raw, gvk)
}

// LoadCheckSchema returns the server's schema of the target's kind for
// schemacheck, through the flags' discovery client, which keeps the
// documents on disk as LoadSchemas says.
func LoadCheckSchema(flags *ConnFlags, t *Target) (*schemacheck.Schema, error) {
	dc, err := flags.ToDiscoveryClient()
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	return ServerCheckSchema(dc, t.Mapping.GroupVersionKind)
}

// LoadSchemas returns the server's schemas for the target's group and
// version, for diff.WithSchemas: custom resources then merge by their own
// list keys. The documents come through the flags' discovery client, which
// keeps them on disk as kubectl does (under the cache directory, --cache-dir,
// KUBECACHEDIR or ~/.kube/cache, in http/, per server): the server's
// discovery document names each group-version's document with a hash of
// its content, so a stored document serves until the schema changes (a CRD
// updated, the server upgraded), and is read again then.
func LoadSchemas(flags *ConnFlags, t *Target) (managedfields.TypeConverter, error) {
	dc, err := flags.ToDiscoveryClient()
	if err != nil {
		return nil, fmt.Errorf("connecting to the cluster: %w", err)
	}
	return ServerSchemas(dc, t.Mapping.GroupVersionKind.GroupVersion())
}

// BuiltinKind says whether t's kind is one of client-go's own (ConfigMap,
// Deployment ...), whose schema diff has built in: the server's adds
// nothing for them but requests and a document of megabytes to parse.
// Custom resources and aggregated APIs are not.
func BuiltinKind(t *Target) bool {
	return scheme.Scheme.Recognizes(t.Mapping.GroupVersionKind)
}
