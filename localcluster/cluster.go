package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/pflag"
	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
	"k8s.io/kubernetes/cmd/kube-apiserver/app/options"
)

// Files in the cluster directory.
const (
	stateFile      = "state.json"
	apiserverLog   = "apiserver.log"
	etcdLog        = "etcd.log"
	etcdDataDir    = "etcd"
	viewerConfig   = "kubeconfig-viewer"
	defaultConfig  = "kubeconfig"
	contextName    = "localcluster"
	readyTimeout   = 2 * time.Minute
	etcdReadyLimit = time.Minute
)

// state is what a cluster directory remembers between runs besides etcd's
// data: the ports, so that kubeconfigs written by a previous run still point
// at the server.
type state struct {
	APIServerPort  int `json:"apiserverPort"`
	EtcdClientPort int `json:"etcdClientPort"`
	EtcdPeerPort   int `json:"etcdPeerPort"`
}

type cluster struct {
	dir            string
	kubeconfigPath string
	creds          *credentials
	st             state
	strictPort     bool // --port was given: never fall back to another port
	// auditArgs are the API server's audit flags; none without --audit-log.
	auditArgs []string

	apiListener   net.Listener
	etcd          *embed.Etcd
	cancelAPI     context.CancelFunc
	apiserverDone chan error
}

func newCluster(dir string, port int, kubeconfigOut string) (*cluster, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("creating --dir: %w", err)
	}
	if kubeconfigOut == "" {
		kubeconfigOut = filepath.Join(abs, defaultConfig)
	}
	if kubeconfigOut, err = filepath.Abs(kubeconfigOut); err != nil {
		return nil, err
	}
	c := &cluster{dir: abs, kubeconfigPath: kubeconfigOut, apiserverDone: make(chan error, 1)}
	if c.creds, err = ensureCredentials(abs); err != nil {
		return nil, fmt.Errorf("preparing credentials in %s: %w", abs, err)
	}
	if err := c.loadState(); err != nil {
		return nil, err
	}
	if port != 0 {
		c.st.APIServerPort, c.strictPort = port, true
	}
	return c, nil
}

func (c *cluster) loadState() error {
	b, err := os.ReadFile(filepath.Join(c.dir, stateFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &c.st); err != nil {
		return fmt.Errorf("reading %s: %w", filepath.Join(c.dir, stateFile), err)
	}
	return nil
}

func (c *cluster) saveState() error {
	b, err := json.MarshalIndent(c.st, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(c.dir, stateFile), append(b, '\n'), 0o600)
}

func (c *cluster) serverURL() string {
	return "https://127.0.0.1:" + strconv.Itoa(c.st.APIServerPort)
}

// listenLoopback binds 127.0.0.1:port. A remembered port that is taken
// meanwhile falls back to a free one; an explicitly asked one does not.
func listenLoopback(port int, strict bool) (net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil && port != 0 && !strict {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	return ln, err
}

// freePort finds a free loopback port for etcd, preferring the one it had.
func freePort(prev int) (int, error) {
	ln, err := listenLoopback(prev, false)
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (c *cluster) start(ctx context.Context) error {
	ln, err := listenLoopback(c.st.APIServerPort, c.strictPort)
	if err != nil {
		return fmt.Errorf("listening for the API server: %w", err)
	}
	c.apiListener = ln
	c.st.APIServerPort = ln.Addr().(*net.TCPAddr).Port

	if c.st.EtcdClientPort, err = freePort(c.st.EtcdClientPort); err != nil {
		return fmt.Errorf("finding a port for etcd: %w", err)
	}
	if c.st.EtcdPeerPort, err = freePort(c.st.EtcdPeerPort); err != nil {
		return fmt.Errorf("finding a port for etcd: %w", err)
	}
	if c.st.EtcdPeerPort == c.st.EtcdClientPort {
		if c.st.EtcdPeerPort, err = freePort(0); err != nil {
			return fmt.Errorf("finding a port for etcd: %w", err)
		}
	}
	if err := c.saveState(); err != nil {
		return err
	}
	if err := c.startEtcd(); err != nil {
		return err
	}
	if err := c.startAPIServer(ctx); err != nil {
		return err
	}
	if err := c.waitReady(ctx); err != nil {
		return err
	}
	if err := c.writeKubeconfig(c.kubeconfigPath, adminUser, c.creds.adminToken); err != nil {
		return fmt.Errorf("writing the kubeconfig: %w", err)
	}
	return c.writeKubeconfig(filepath.Join(c.dir, viewerConfig), viewerUser, c.creds.viewerToken)
}

func (c *cluster) startEtcd() error {
	cfg := embed.NewConfig()
	cfg.Name = "localcluster"
	cfg.Dir = filepath.Join(c.dir, etcdDataDir)
	clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(c.st.EtcdClientPort))}
	peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(c.st.EtcdPeerPort))}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.Logger = "zap"
	cfg.LogOutputs = []string{filepath.Join(c.dir, etcdLog)}
	cfg.LogLevel = "warn"

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("starting etcd (log: %s): %w", filepath.Join(c.dir, etcdLog), err)
	}
	c.etcd = e
	select {
	case <-e.Server.ReadyNotify():
		return nil
	case err := <-e.Err():
		return fmt.Errorf("etcd failed (log: %s): %w", filepath.Join(c.dir, etcdLog), err)
	case <-time.After(etcdReadyLimit):
		return fmt.Errorf("etcd was not ready after %s (log: %s)", etcdReadyLimit, filepath.Join(c.dir, etcdLog))
	}
}

// quietKlog sends the API server's klog output to a file in the cluster
// directory: localcluster's own stderr carries only its few lines.
func (c *cluster) quietKlog() error {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for k, v := range map[string]string{
		"logtostderr":     "false",
		"alsologtostderr": "false",
		"stderrthreshold": "FATAL",
		"one_output":      "true",
		"log_file":        filepath.Join(c.dir, apiserverLog),
	} {
		if err := fs.Set(k, v); err != nil {
			return fmt.Errorf("configuring the API server's log: %w", err)
		}
	}
	return nil
}

func (c *cluster) startAPIServer(ctx context.Context) error {
	if err := c.quietKlog(); err != nil {
		return err
	}
	s := options.NewServerRunOptions()
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	for _, f := range s.Flags().FlagSets {
		fs.AddFlagSet(f)
	}
	args := []string{
		"--etcd-servers=" + "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(c.st.EtcdClientPort)),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--cert-dir=" + filepath.Join(c.dir, "apiserver-certs"),
		"--tls-cert-file=" + c.creds.servingCert,
		"--tls-private-key-file=" + c.creds.servingKey,
		"--token-auth-file=" + c.creds.tokenFile,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + c.creds.saKey,
		"--service-account-signing-key-file=" + c.creds.saKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		// Nothing in this process runs pods, so nothing could use a
		// node-facing or aggregated API; keep the surface ordinary otherwise.
		"--enable-aggregator-routing=false",
	}
	args = append(args, c.auditArgs...)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("API server flags: %w", err)
	}
	s.SecureServing.Listener = c.apiListener
	s.SecureServing.BindPort = c.st.APIServerPort

	if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return fmt.Errorf("API server feature gates: %w", err)
	}
	apiCtx, cancel := context.WithCancel(context.Background())
	c.cancelAPI = cancel
	completed, err := s.Complete(apiCtx)
	if err != nil {
		return fmt.Errorf("completing API server options: %w", err)
	}
	if errs := completed.Validate(); len(errs) != 0 {
		return fmt.Errorf("API server options: %v", errs)
	}
	go func() {
		c.apiserverDone <- app.Run(apiCtx, completed)
	}()
	return nil
}

// waitReady polls /readyz with the admin token until it answers ok.
func (c *cluster) waitReady(ctx context.Context) error {
	client, err := c.httpClient()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(readyTimeout)
	var last string
	for time.Now().Before(deadline) {
		select {
		case err := <-c.apiserverDone:
			return fmt.Errorf("API server exited before it was ready (log: %s): %v", filepath.Join(c.dir, apiserverLog), err)
		case <-ctx.Done():
			return errors.New("interrupted before the API server was ready")
		case <-time.After(200 * time.Millisecond):
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.serverURL()+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+c.creds.adminToken)
		resp, err := client.Do(req)
		if err != nil {
			last = err.Error()
			continue
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		last = fmt.Sprintf("%s: %s", resp.Status, body)
	}
	return fmt.Errorf("API server not ready after %s (log: %s); last answer: %s", readyTimeout, filepath.Join(c.dir, apiserverLog), last)
}

func (c *cluster) httpClient() (*http.Client, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(c.creds.caCert) {
		return nil, errors.New("the cluster CA certificate does not parse")
	}
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}, nil
}

func (c *cluster) writeKubeconfig(path, user, token string) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[contextName] = &clientcmdapi.Cluster{
		Server:                   c.serverURL(),
		CertificateAuthorityData: c.creds.caCert,
	}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[contextName] = &clientcmdapi.Context{Cluster: contextName, AuthInfo: user, Namespace: "default"}
	cfg.CurrentContext = contextName
	b, err := clientcmd.Write(*cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return writeFileAtomic(path, b, 0o600)
}

// stop shuts the API server down, then etcd.
func (c *cluster) stop() {
	if c.cancelAPI != nil {
		c.cancelAPI()
		select {
		case <-c.apiserverDone:
		case <-time.After(shutdownGrace - 2*time.Second):
		}
	}
	if c.etcd != nil {
		c.etcd.Close()
	}
	if c.apiListener != nil {
		c.apiListener.Close()
	}
	klog.Flush()
}
