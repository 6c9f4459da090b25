package kube

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
)

// upstreamTransport names the declarations of client-go and apimachinery
// that trackedTransport copies, with the sha256 of each as gofmt prints it
// without its comments, in the versions go.mod requires. When a sum no
// longer matches, the code changed upstream: read the new version, bring
// trackedTransport in step with it, and record the new sum here.
var upstreamTransport = []struct{ module, file, decl, sum string }{
	{"k8s.io/client-go", "transport/cache.go", "(*tlsTransportCache).get", "70acc375fade2c915f1eb2493be4bd66a016dcbd8afd1e3754b5dcfaaa01fe3f"},
	{"k8s.io/client-go", "transport/cache.go", "idleConnsPerHost", "dbb64e667a60e07639abc79b2b4938a4f69341f5890dff701e8414071e8d8425"},
	{"k8s.io/apimachinery", "pkg/util/net/http.go", "SetTransportDefaults", "2e9cdc0d2749f4e2f38fa9b7dea36ccb86b6a1e6a5b689e096f82a20ae151778"},
	{"k8s.io/apimachinery", "pkg/util/net/http.go", "SetOldTransportDefaults", "ab17a024e41637d4ca795997db30349199b62f746761f20cbd7b8e332ea6b5b3"},
	{"k8s.io/apimachinery", "pkg/util/net/http.go", "configureHTTP2Transport", "ad306b8b4d4e7f1b7e3a8712daa71ec7c13b625ee9472bf9ec66a593f62937f2"},
	{"k8s.io/apimachinery", "pkg/util/net/http.go", "readIdleTimeoutSeconds", "a5af295d83d6686d2471bc7ac5681ad8b951e6f0163c772eba7ae015be2d3f7d"},
	{"k8s.io/apimachinery", "pkg/util/net/http.go", "pingTimeoutSeconds", "cb039bb06b8e1ab96bf79fb3f6fe5a94f36512072550856f5f87c4d0f123135d"},
}

// TestTransportCopyFollowsClientGo: the watch's transport (trackedTransport)
// is a copy of client-go's, which has no hook that hands out its HTTP/2
// connections. The copied functions are read from the module cache and
// must be the ones the copy was made from; and for the same config the
// copy's transport has the settings client-go's own has.
func TestTransportCopyFollowsClientGo(t *testing.T) {
	dirs := map[string]string{}
	for _, u := range upstreamTransport {
		dir, ok := dirs[u.module]
		if !ok {
			out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", u.module).Output()
			if err != nil {
				t.Fatalf("go list -m %s: %v", u.module, err)
			}
			dir = strings.TrimSpace(string(out))
			dirs[u.module] = dir
		}
		src, err := declSource(filepath.Join(dir, u.file), u.decl)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(src)
		if got := hex.EncodeToString(sum[:]); got != u.sum {
			t.Errorf("%s %s in %s changed (sha256 %s, the copy follows %s): bring trackedTransport (kube/goaway.go) in step with it, then record the new sum", u.module, u.decl, u.file, got, u.sum)
		}
	}

	cfg := &rest.Config{Host: "https://127.0.0.1:1", TLSClientConfig: rest.TLSClientConfig{Insecure: true}, DisableCompression: true}
	ours, tracker, ok := trackedTransport(cfg)
	if !ok || tracker == nil {
		t.Fatal("no tracked transport for a TLS config")
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	theirs := unwrapTransport(rt)
	if theirs == nil {
		t.Fatalf("client-go's transport is a %T, not an *http.Transport under wrappers", rt)
	}
	if ours.TLSHandshakeTimeout != theirs.TLSHandshakeTimeout || ours.MaxIdleConnsPerHost != theirs.MaxIdleConnsPerHost ||
		ours.IdleConnTimeout != theirs.IdleConnTimeout || ours.DisableCompression != theirs.DisableCompression ||
		ours.TLSClientConfig.InsecureSkipVerify != theirs.TLSClientConfig.InsecureSkipVerify ||
		(ours.DialContext == nil) != (theirs.DialContext == nil) || (ours.Proxy == nil) != (theirs.Proxy == nil) {
		t.Errorf("the copy's transport differs from client-go's:\nours   %+v\ntheirs %+v", ours, theirs)
	}
	if _, h2 := theirs.TLSNextProto["h2"]; !h2 {
		t.Error("client-go's transport does not speak HTTP/2")
	}
	if _, h2 := ours.TLSNextProto["h2"]; !h2 {
		t.Error("the copy does not speak HTTP/2")
	}
}

// declSource is the declaration named decl in the Go file at path ("F",
// "(*T).M", or a const's or var's name) as gofmt prints it, comments left
// out.
func declSource(path, decl string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var node any
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				var b bytes.Buffer
				_ = format.Node(&b, fset, d.Recv.List[0].Type)
				name = "(" + b.String() + ")." + name
			}
			if name == decl {
				node = d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if v, ok := s.(*ast.ValueSpec); ok && len(v.Names) == 1 && v.Names[0].Name == decl {
					node = v
				}
			}
		}
	}
	if node == nil {
		return nil, &declMissingError{path: path, decl: decl}
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, node); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type declMissingError struct{ path, decl string }

func (e *declMissingError) Error() string {
	return e.decl + " is no longer in " + e.path + ": client-go changed how it builds its transport; bring trackedTransport (kube/goaway.go) in step"
}

// unwrapTransport finds the *http.Transport under client-go's wrappers.
func unwrapTransport(rt http.RoundTripper) *http.Transport {
	for range 20 {
		switch t := rt.(type) {
		case *http.Transport:
			return t
		case utilnet.RoundTripperWrapper:
			rt = t.WrappedRoundTripper()
		default:
			return nil
		}
	}
	return nil
}
