package kube

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/discovery"
	diskcached "k8s.io/client-go/discovery/cached/disk"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/homedir"

	"github.com/kedit/kedit/internal/escape"
)

// ConnFlags are kubectl's connection flags (--kubeconfig, --context, -n,
// --server, --token, --as ...) and what they make: the REST config, the
// discovery client cached on disk and the REST mapper.
//
// They are k8s.io/cli-runtime's genericclioptions.ConfigFlags (as
// NewConfigFlags(true) makes them) rebuilt on client-go alone, flag for
// flag and rule for rule: genericclioptions imports cli-runtime's
// pkg/resource, which links kustomize and Go's plugin package, a third of
// kedit's binary for flags kedit could read itself.
//
// The zero value reads the kubeconfig as kubectl does without flags;
// NewConnFlags gives the flags kubectl's defaults for --help. The loader,
// discovery client and mapper are made on their first use and kept, so
// fields set after that do not count; WrapConfigFn counts for each
// ToRESTConfig.
type ConnFlags struct {
	// KubeConfig is --kubeconfig; empty follows KUBECONFIG, then
	// ~/.kube/config.
	KubeConfig string
	// CacheDir is --cache-dir: discovery's cache (discovery/HOST) and the
	// HTTP cache (http/) under it; empty is KUBECACHEDIR, else
	// ~/.kube/cache.
	CacheDir string

	ClusterName          string // --cluster
	AuthInfoName         string // --user
	Context              string // --context
	Namespace            string // -n, --namespace
	APIServer            string // -s, --server
	TLSServerName        string // --tls-server-name
	Insecure             bool   // --insecure-skip-tls-verify
	CertFile             string // --client-certificate
	KeyFile              string // --client-key
	CAFile               string // --certificate-authority
	BearerToken          string // --token
	Impersonate          string // --as
	ImpersonateUID       string // --as-uid
	ImpersonateGroup     []string
	ImpersonateUserExtra []string // --as-user-extra, KEY=VALUE each
	Timeout              string   // --request-timeout
	DisableCompression   bool     // --disable-compression
	ProxyURL             string   // --proxy-url

	// WrapConfigFn, when set, transforms every REST config ToRESTConfig
	// returns (the discovery client's too): --debug's request log.
	WrapConfigFn func(*rest.Config) *rest.Config
	// Debugf, when set, gets what --debug's log says of the connection
	// that is no request: that discovery is read from kubectl's cache, so
	// that its requests are not sent.
	Debugf func(format string, args ...any)
	// UserAgent, when set, is every request's user agent (kedit/VERSION
	// (OS/ARCH)), so that an audit log names kedit's version: client-go's
	// default is a build without version stamps (kubernetes/$Format).
	UserAgent string

	// Each is made once, under its own lock, as genericclioptions makes
	// them with persistent config.
	loaderMu    sync.Mutex
	loader      clientcmd.ClientConfig
	discoveryMu sync.Mutex
	discovery   discovery.CachedDiscoveryInterface
	mapperMu    sync.Mutex
	mapper      meta.RESTMapper
}

// discoveryBurst is genericclioptions' burst for discovery requests: one
// request per group-version, and no client-side throttling of them on
// most clusters.
const discoveryBurst = 300

// discoveryTTL is how long kubectl trusts its discovery cache.
const discoveryTTL = 6 * time.Hour

// NewConnFlags returns ConnFlags with kubectl's defaults, which --help
// shows: --cache-dir's directory and --request-timeout's 0.
func NewConnFlags() *ConnFlags {
	return &ConnFlags{CacheDir: defaultCacheDir(), Timeout: "0"}
}

// AddFlags adds the connection flags to fs with kubectl's names,
// shorthands and help texts.
func (f *ConnFlags) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&f.KubeConfig, "kubeconfig", f.KubeConfig, "Path to the kubeconfig file to use for CLI requests.")
	fs.StringVar(&f.CacheDir, "cache-dir", f.CacheDir, "Default cache directory")
	fs.StringVar(&f.CertFile, "client-certificate", f.CertFile, "Path to a client certificate file for TLS")
	fs.StringVar(&f.KeyFile, "client-key", f.KeyFile, "Path to a client key file for TLS")
	fs.StringVar(&f.BearerToken, "token", f.BearerToken, "Bearer token for authentication to the API server")
	fs.StringVar(&f.Impersonate, "as", f.Impersonate, "Username to impersonate for the operation. User could be a regular user or a service account in a namespace.")
	fs.StringVar(&f.ImpersonateUID, "as-uid", f.ImpersonateUID, "UID to impersonate for the operation.")
	fs.StringArrayVar(&f.ImpersonateGroup, "as-group", f.ImpersonateGroup, "Group to impersonate for the operation, this flag can be repeated to specify multiple groups.")
	fs.StringArrayVar(&f.ImpersonateUserExtra, "as-user-extra", f.ImpersonateUserExtra, "User extras to impersonate for the operation, this flag can be repeated to specify multiple values for the same key.")
	fs.StringVar(&f.ClusterName, "cluster", f.ClusterName, "The name of the kubeconfig cluster to use")
	fs.StringVar(&f.AuthInfoName, "user", f.AuthInfoName, "The name of the kubeconfig user to use")
	fs.StringVarP(&f.Namespace, "namespace", "n", f.Namespace, "If present, the namespace scope for this CLI request")
	fs.StringVar(&f.Context, "context", f.Context, "The name of the kubeconfig context to use")
	fs.StringVarP(&f.APIServer, "server", "s", f.APIServer, "The address and port of the Kubernetes API server")
	fs.StringVar(&f.TLSServerName, "tls-server-name", f.TLSServerName, "Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used")
	fs.BoolVar(&f.Insecure, "insecure-skip-tls-verify", f.Insecure, "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure")
	fs.StringVar(&f.CAFile, "certificate-authority", f.CAFile, "Path to a cert file for the certificate authority")
	fs.StringVar(&f.Timeout, "request-timeout", f.Timeout, "The length of time to wait before giving up on a single server request. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero means don't timeout requests.")
	fs.BoolVar(&f.DisableCompression, "disable-compression", f.DisableCompression, "If true, opt-out of response compression for all requests to the server")
	fs.StringVar(&f.ProxyURL, "proxy-url", f.ProxyURL, "Proxy URL to use for requests to the API server")
}

// ToRESTConfig returns the REST config the kubeconfig and the flags make,
// through WrapConfigFn when it is set.
func (f *ConnFlags) ToRESTConfig() (*rest.Config, error) {
	c, err := f.ToRawKubeConfigLoader().ClientConfig()
	if err != nil {
		return nil, err
	}
	if f.UserAgent != "" {
		c.UserAgent = f.UserAgent
	}
	if f.WrapConfigFn != nil {
		return f.WrapConfigFn(c), nil
	}
	return c, nil
}

// ToRawKubeConfigLoader returns the kubeconfig loader with the flags as
// overrides, made on the first call: the kubeconfig is read lazily, on
// each use, as clientcmd's deferred loading reads it.
func (f *ConnFlags) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	f.loaderMu.Lock()
	defer f.loaderMu.Unlock()
	if f.loader == nil {
		f.loader = f.newLoader()
	}
	return f.loader
}

// newLoader binds the flags to clientcmd's overrides exactly as
// genericclioptions does. An empty value overrides nothing: clientcmd
// merges only what is set.
func (f *ConnFlags) newLoader() clientcmd.ClientConfig {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	// kubectl's default for a kubeconfig without a server
	// (http://localhost:8080), deprecated there but still what it does.
	rules.DefaultClientConfig = &clientcmd.DefaultClientConfig
	rules.ExplicitPath = f.KubeConfig

	o := &clientcmd.ConfigOverrides{ClusterDefaults: clientcmd.ClusterDefaults}
	o.AuthInfo.ClientCertificate = f.CertFile
	o.AuthInfo.ClientKey = f.KeyFile
	o.AuthInfo.Token = f.BearerToken
	o.AuthInfo.Impersonate = f.Impersonate
	if len(f.ImpersonateUserExtra) > 0 {
		extra := make(map[string][]string)
		for _, kv := range f.ImpersonateUserExtra {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				continue // as kubectl: a value without = is ignored
			}
			extra[k] = append(extra[k], v)
		}
		o.AuthInfo.ImpersonateUserExtra = extra
	}
	o.AuthInfo.ImpersonateUID = f.ImpersonateUID
	o.AuthInfo.ImpersonateGroups = f.ImpersonateGroup

	o.ClusterInfo.Server = f.APIServer
	o.ClusterInfo.TLSServerName = f.TLSServerName
	o.ClusterInfo.CertificateAuthority = f.CAFile
	o.ClusterInfo.InsecureSkipTLSVerify = f.Insecure
	o.ClusterInfo.DisableCompression = f.DisableCompression
	o.ClusterInfo.ProxyURL = f.ProxyURL

	o.CurrentContext = f.Context
	o.Context.Cluster = f.ClusterName
	o.Context.AuthInfo = f.AuthInfoName
	o.Context.Namespace = f.Namespace
	o.Timeout = f.Timeout

	// No --username or --password (kubectl has them only when asked for):
	// never an interactive prompt.
	return &explainEmptyConfig{clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, o)}
}

// ToDiscoveryClient returns the discovery client, made on the first call,
// cached on disk where kubectl caches it: CacheDir/discovery/HOST for six
// hours, and the HTTP cache (the OpenAPI documents) in CacheDir/http.
func (f *ConnFlags) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	f.discoveryMu.Lock()
	defer f.discoveryMu.Unlock()
	if f.discovery != nil {
		return f.discovery, nil
	}
	config, err := f.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	config.Burst = discoveryBurst
	config.QPS = 0
	cacheDir := defaultCacheDir()
	if f.CacheDir != "" && f.CacheDir != cacheDir {
		cacheDir = f.CacheDir
	}
	dir := discoveryCacheDir(filepath.Join(cacheDir, "discovery"), config.Host)
	dc, err := diskcached.NewCachedDiscoveryClientForConfig(config, dir, filepath.Join(cacheDir, "http"), discoveryTTL)
	if err != nil {
		return nil, err
	}
	if f.Debugf != nil {
		f.Debugf("%s", discoveryCacheLine(dir, time.Now()))
	}
	f.discovery = dc
	return dc, nil
}

// ToRESTMapper returns the REST mapper, made on the first call: resources
// and kinds from discovery, read when first needed, with the short names
// (cm, deploy) expanded.
func (f *ConnFlags) ToRESTMapper() (meta.RESTMapper, error) {
	f.mapperMu.Lock()
	defer f.mapperMu.Unlock()
	if f.mapper != nil {
		return f.mapper, nil
	}
	dc, err := f.ToDiscoveryClient()
	if err != nil {
		return nil, err
	}
	// The expander warns when a short name also names a lower-priority
	// resource. kubectl prints that only when given a warning printer,
	// which kedit never gave genericclioptions: Resolve says an ambiguous
	// short name itself (ambiguousShortName), and stderr belongs to the
	// renderer once the UI runs.
	f.mapper = restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(dc), dc, func(string) {})
	return f.mapper, nil
}

// discoveryCacheLine says, for --debug's log, whether discovery will be
// read from kubectl's cache in dir, as the cached client decides it: its
// list of groups written less than discoveryTTL ago is read, and no
// discovery request is sent for what the cache holds.
func discoveryCacheLine(dir string, now time.Time) string {
	fi, err := os.Stat(filepath.Join(dir, "servergroups.json"))
	if err != nil || now.Sub(fi.ModTime()) > discoveryTTL {
		return fmt.Sprintf("discovery: kubectl's cache %s holds none younger than %v hours: discovery's requests are sent, and cached there", escape.String(dir), discoveryTTL.Hours())
	}
	return fmt.Sprintf("discovery: read from kubectl's cache %s (written %s, trusted for %v hours): discovery asks the server nothing the cache holds",
		escape.String(dir), fi.ModTime().Format("2006-01-02 15:04:05"), discoveryTTL.Hours())
}

// contextName is the kubeconfig context in use, which errors name (Target
// and Cluster carry it): --context, else the kubeconfig's current one; ""
// when the kubeconfig cannot be read.
func (f *ConnFlags) contextName() string {
	if f.Context != "" {
		return f.Context
	}
	raw, err := f.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return ""
	}
	return raw.CurrentContext
}

// defaultCacheDir is kubectl's cache directory: KUBECACHEDIR, else
// ~/.kube/cache.
func defaultCacheDir() string {
	if dir := os.Getenv("KUBECACHEDIR"); dir != "" {
		return dir
	}
	return filepath.Join(homedir.HomeDir(), ".kube", "cache")
}

// unsafeFileChars matches what kubectl keeps out of a discovery cache
// directory's name: anything that might not be allowed in a file name
// somewhere (Windows is the strict one).
var unsafeFileChars = regexp.MustCompile(`[^(\w/.)]`)

// discoveryCacheDir is kubectl's discovery cache directory for host under
// parent: the host without its scheme, unsafe characters as _, so that
// kedit and kubectl share one cache per server.
func discoveryCacheDir(parent, host string) string {
	host = strings.Replace(strings.Replace(host, "https://", "", 1), "http://", "", 1)
	return filepath.Join(parent, unsafeFileChars.ReplaceAllString(host, "_"))
}

// errEmptyConfig is kubectl's word for no kubeconfig at all, in place of
// client-go's shorter one.
var errEmptyConfig = clientcmd.NewEmptyConfigError(`Missing or incomplete configuration info.  Please point to an existing, complete config file:


  1. Via the command-line flag --kubeconfig
  2. Via the KUBECONFIG environment variable
  3. In your home directory as ~/.kube/config

To view or setup config directly use the 'config' command.`)

// explainEmptyConfig is a ClientConfig that says errEmptyConfig where
// client-go would say its own, as genericclioptions' loader does.
type explainEmptyConfig struct {
	next clientcmd.ClientConfig
}

func (c *explainEmptyConfig) RawConfig() (clientcmdapi.Config, error) {
	config, err := c.next.RawConfig()
	return config, explainEmpty(err)
}

func (c *explainEmptyConfig) ClientConfig() (*rest.Config, error) {
	config, err := c.next.ClientConfig()
	return config, explainEmpty(err)
}

func (c *explainEmptyConfig) Namespace() (string, bool, error) {
	ns, explicit, err := c.next.Namespace()
	return ns, explicit, explainEmpty(err)
}

func (c *explainEmptyConfig) ConfigAccess() clientcmd.ConfigAccess {
	return c.next.ConfigAccess()
}

func explainEmpty(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return errEmptyConfig
	}
	return err
}
