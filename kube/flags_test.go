package kube

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// TestConnFlagsAreKubectls holds AddFlags to kubectl's connection flags as
// genericclioptions.NewConfigFlags(true) added them to kedit before
// ConnFlags: each name, shorthand, type and default, none more, none fewer.
func TestConnFlagsAreKubectls(t *testing.T) {
	t.Setenv("KUBECACHEDIR", "/kc")
	want := map[string]struct{ shorthand, typ, def string }{
		"kubeconfig":               {"", "string", ""},
		"cache-dir":                {"", "string", "/kc"},
		"client-certificate":       {"", "string", ""},
		"client-key":               {"", "string", ""},
		"token":                    {"", "string", ""},
		"as":                       {"", "string", ""},
		"as-uid":                   {"", "string", ""},
		"as-group":                 {"", "stringArray", "[]"},
		"as-user-extra":            {"", "stringArray", "[]"},
		"cluster":                  {"", "string", ""},
		"user":                     {"", "string", ""},
		"namespace":                {"n", "string", ""},
		"context":                  {"", "string", ""},
		"server":                   {"s", "string", ""},
		"tls-server-name":          {"", "string", ""},
		"insecure-skip-tls-verify": {"", "bool", "false"},
		"certificate-authority":    {"", "string", ""},
		"request-timeout":          {"", "string", "0"},
		"disable-compression":      {"", "bool", "false"},
		"proxy-url":                {"", "string", ""},
	}
	fs := pflag.NewFlagSet("kedit", pflag.ContinueOnError)
	NewConnFlags().AddFlags(fs)
	seen := 0
	fs.VisitAll(func(f *pflag.Flag) {
		seen++
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("--%s is not one of kubectl's connection flags", f.Name)
			return
		}
		if got := (struct{ shorthand, typ, def string }{f.Shorthand, f.Value.Type(), f.DefValue}); got != w {
			t.Errorf("--%s: shorthand, type, default = %q, want %q", f.Name, got, w)
		}
		if f.Usage == "" {
			t.Errorf("--%s has no help text", f.Name)
		}
	})
	if seen != len(want) {
		t.Errorf("%d flags, want %d", seen, len(want))
	}
}

// TestConnFlagsOverrideTheKubeconfig parses a command line and checks that
// each flag reaches the REST config, the namespace and the context as
// kubectl's would.
func TestConnFlagsOverrideTheKubeconfig(t *testing.T) {
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "config")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
current-context: one
contexts:
- name: one
  context: {cluster: c1, user: u1, namespace: ns1}
- name: two
  context: {cluster: c2, user: u2, namespace: ns2}
clusters:
- name: c1
  cluster: {server: "https://one.example:6443"}
- name: c2
  cluster: {server: "https://two.example:6443"}
users:
- name: u1
  user: {token: t1}
- name: u2
  user: {token: t2}
`), 0o600); err != nil {
		t.Fatal(err)
	}

	parse := func(t *testing.T, args ...string) *ConnFlags {
		t.Helper()
		f := NewConnFlags()
		fs := pflag.NewFlagSet("kedit", pflag.ContinueOnError)
		f.AddFlags(fs)
		if err := fs.Parse(append([]string{"--kubeconfig", kubeconfig}, args...)); err != nil {
			t.Fatal(err)
		}
		return f
	}

	t.Run("kubeconfig alone", func(t *testing.T) {
		f := parse(t)
		rc, err := f.ToRESTConfig()
		if err != nil {
			t.Fatal(err)
		}
		ns, _, _ := f.ToRawKubeConfigLoader().Namespace()
		if rc.Host != "https://one.example:6443" || rc.BearerToken != "t1" || ns != "ns1" || rc.Timeout != 0 || f.contextName() != "one" {
			t.Errorf("host %q, token %q, namespace %q, timeout %v, context %q", rc.Host, rc.BearerToken, ns, rc.Timeout, f.contextName())
		}
	})
	t.Run("context", func(t *testing.T) {
		f := parse(t, "--context", "two")
		rc, err := f.ToRESTConfig()
		if err != nil {
			t.Fatal(err)
		}
		ns, _, _ := f.ToRawKubeConfigLoader().Namespace()
		if rc.Host != "https://two.example:6443" || rc.BearerToken != "t2" || ns != "ns2" || f.contextName() != "two" {
			t.Errorf("host %q, token %q, namespace %q, context %q", rc.Host, rc.BearerToken, ns, f.contextName())
		}
	})
	t.Run("cluster user namespace", func(t *testing.T) {
		f := parse(t, "--cluster", "c2", "--user", "u2", "-n", "mine")
		rc, err := f.ToRESTConfig()
		if err != nil {
			t.Fatal(err)
		}
		ns, explicit, _ := f.ToRawKubeConfigLoader().Namespace()
		if rc.Host != "https://two.example:6443" || rc.BearerToken != "t2" || ns != "mine" || !explicit {
			t.Errorf("host %q, token %q, namespace %q (explicit %v)", rc.Host, rc.BearerToken, ns, explicit)
		}
	})
	t.Run("connection and credentials", func(t *testing.T) {
		f := parse(t, "-s", "https://three.example", "--token", "t3", "--insecure-skip-tls-verify",
			"--tls-server-name", "name.example", "--request-timeout", "7s", "--disable-compression",
			"--proxy-url", "http://proxy.example:3128")
		rc, err := f.ToRESTConfig()
		if err != nil {
			t.Fatal(err)
		}
		proxied, err := rc.Proxy(nil)
		if err != nil || proxied == nil || proxied.Host != "proxy.example:3128" {
			t.Errorf("proxy %v, %v", proxied, err)
		}
		if rc.Host != "https://three.example" || rc.BearerToken != "t3" || !rc.Insecure || rc.ServerName != "name.example" ||
			rc.Timeout != 7*time.Second || !rc.DisableCompression {
			t.Errorf("host %q, token %q, insecure %v, server name %q, timeout %v, no compression %v",
				rc.Host, rc.BearerToken, rc.Insecure, rc.ServerName, rc.Timeout, rc.DisableCompression)
		}
	})
	t.Run("impersonation", func(t *testing.T) {
		f := parse(t, "--as", "jane", "--as-uid", "42", "--as-group", "g1", "--as-group", "g2",
			"--as-user-extra", "scopes=a", "--as-user-extra", "scopes=b=c", "--as-user-extra", "ignored")
		rc, err := f.ToRESTConfig()
		if err != nil {
			t.Fatal(err)
		}
		imp := rc.Impersonate
		if imp.UserName != "jane" || imp.UID != "42" || !reflect.DeepEqual(imp.Groups, []string{"g1", "g2"}) ||
			!reflect.DeepEqual(imp.Extra, map[string][]string{"scopes": {"a", "b=c"}}) {
			t.Errorf("impersonation %+v", imp)
		}
	})
	t.Run("wrapped", func(t *testing.T) {
		f := parse(t)
		f.WrapConfigFn = func(c *rest.Config) *rest.Config { c.UserAgent = "wrapped"; return c }
		rc, err := f.ToRESTConfig()
		if err != nil {
			t.Fatal(err)
		}
		if rc.UserAgent != "wrapped" {
			t.Errorf("user agent %q: WrapConfigFn not applied", rc.UserAgent)
		}
	})
}

// TestConnFlagsEmptyConfig: with no kubeconfig at all, kubectl's deprecated
// default server; where client-go finds the configuration empty, kubectl's
// longer word for it.
func TestConnFlagsEmptyConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBECONFIG", filepath.Join(home, "none"))
	rc, err := (&ConnFlags{}).ToRESTConfig()
	if err != nil || rc.Host != "http://localhost:8080" {
		t.Errorf("without a kubeconfig: %v, %v; want kubectl's http://localhost:8080", rc, err)
	}
	var empty clientcmd.ClientConfig = &explainEmptyConfig{next: emptyConfig{}}
	if _, err := empty.ClientConfig(); err != errEmptyConfig {
		t.Errorf("ClientConfig: err = %v, want kubectl's empty-config error", err)
	}
	if _, err := empty.RawConfig(); err != errEmptyConfig {
		t.Errorf("RawConfig: err = %v, want kubectl's empty-config error", err)
	}
}

// emptyConfig is a ClientConfig with nothing configured.
type emptyConfig struct{}

func (emptyConfig) Namespace() (string, bool, error)     { return "", false, clientcmd.ErrEmptyConfig }
func (emptyConfig) ConfigAccess() clientcmd.ConfigAccess { return nil }

func (emptyConfig) ClientConfig() (*rest.Config, error) {
	return nil, clientcmd.ErrEmptyConfig
}

func (emptyConfig) RawConfig() (clientcmdapi.Config, error) {
	return clientcmdapi.Config{}, clientcmd.ErrEmptyConfig
}

// TestCacheDirs: kubectl's cache directory rules, so that kedit and
// kubectl share one cache.
func TestCacheDirs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBECACHEDIR", "")
	if got, want := defaultCacheDir(), filepath.Join(home, ".kube", "cache"); got != want {
		t.Errorf("default cache dir %q, want %q", got, want)
	}
	t.Setenv("KUBECACHEDIR", "/kc")
	if got := defaultCacheDir(); got != "/kc" {
		t.Errorf("with KUBECACHEDIR, cache dir %q, want /kc", got)
	}
	for host, want := range map[string]string{
		"https://127.0.0.1:6443":         "/p/127.0.0.1_6443",
		"http://example.com/prefix":      "/p/example.com/prefix",
		"api.example.com:443":            "/p/api.example.com_443",
		"https://[::1]:6443":             "/p/___1__6443",
		"https://a.example/k8s/clusters": "/p/a.example/k8s/clusters",
	} {
		if got := discoveryCacheDir("/p", host); got != want {
			t.Errorf("discoveryCacheDir(%q) = %q, want %q", host, got, want)
		}
	}
}

// TestConnFlagsCacheDirFlag: --cache-dir wins over KUBECACHEDIR, discovery
// is kept under it per server as kubectl keeps it, and the client is made
// once. The server is a stub of discovery's two documents:
// what is tested is where the answers land, not what they say.
func TestConnFlagsCacheDirFlag(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api":
			w.Write([]byte(`{"kind":"APIVersions","versions":["v1"]}`))
		case "/apis":
			w.Write([]byte(`{"kind":"APIGroupList","groups":[]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	t.Setenv("KUBECACHEDIR", filepath.Join(dir, "env"))
	t.Setenv("KUBECONFIG", filepath.Join(dir, "none"))
	f := &ConnFlags{APIServer: srv.URL, CacheDir: filepath.Join(dir, "flag")}
	dc, err := f.ToDiscoveryClient()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dc.ServerGroups(); err != nil {
		t.Fatal(err)
	}
	host := strings.ReplaceAll(strings.TrimPrefix(srv.URL, "http://"), ":", "_")
	if _, err := os.Stat(filepath.Join(dir, "flag", "discovery", host, "servergroups.json")); err != nil {
		t.Errorf("discovery not cached under --cache-dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "env")); !os.IsNotExist(err) {
		t.Errorf("KUBECACHEDIR used despite --cache-dir: %v", err)
	}
	if again, _ := f.ToDiscoveryClient(); again != dc {
		t.Error("a second ToDiscoveryClient made another client")
	}
	if _, err := f.ToRESTMapper(); err != nil {
		t.Fatal(err)
	}
}
