// Package vltest runs a real VictoriaLogs for kedit's tests: the log
// engine kedit history reads audit events from. The binary is built from
// its Go module at the version in the file "package" (go install, into
// the user cache directory, or bin/victoria-logs by `make victorialogs`),
// never downloaded as a binary; a server runs on loopback in a temporary
// directory of the test's own and stops when the test ends.
//
// Start runs one node, StartCluster the same binary three times: two
// storage nodes and a front (-storageNode) that spreads what it is given
// over them and asks both for every query. A server that cannot be built
// or started fails the test, saying why; nothing skips.
package vltest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/localproc"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/internal/words"
)

// Package is the module path and version `go install` builds VictoriaLogs
// from; the Makefile reads the same file.
//
//go:embed package
var pkg string

// Package returns the module path and version VictoriaLogs is built from.
func Package() string { return strings.TrimSpace(pkg) }

// BinaryEnv names a victoria-logs binary to run instead of building one:
// `make test` installs bin/victoria-logs once and hands it to every test
// binary.
const BinaryEnv = "VICTORIALOGS_BIN"

// readyTimeout bounds a start: a node answers its health check in well
// under a second here, but a loaded CI machine may be much slower.
const readyTimeout = time.Minute

var build struct {
	sync.Mutex
	bin string
}

// Binary returns the path of a victoria-logs binary: $VICTORIALOGS_BIN
// when set, else one `go install`ed into the user cache directory (a
// directory per version; test binaries running at once share one build
// through a lock file).
func Binary() (string, error) {
	if p := os.Getenv(BinaryEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$%s: %w", BinaryEnv, err)
		}
		return filepath.Abs(p)
	}
	build.Lock()
	defer build.Unlock()
	if build.bin != "" {
		return build.bin, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	_, version, _ := strings.Cut(Package(), "@")
	dir := filepath.Join(cache, "kedit", "victoria-logs-"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "victoria-logs")
	lock, err := os.OpenFile(filepath.Join(dir, "build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("locking the victoria-logs build: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(bin); err != nil {
		cmd := exec.Command("go", "install", Package())
		cmd.Env = append(os.Environ(), "GOBIN="+dir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("building VictoriaLogs (GOBIN=%s go install %s): %v\n%s", dir, Package(), err, out.String())
		}
	}
	build.bin = bin
	return bin, nil
}

// Server is a running victoria-logs.
type Server struct {
	// URL is where it answers: http://127.0.0.1:PORT.
	URL string
	// Addr is its HOST:PORT.
	Addr string
	// Dir is its data directory.
	Dir string

	cmd    *exec.Cmd
	out    *localproc.LockedBuffer
	exited chan struct{}
	once   sync.Once
}

// Start runs one VictoriaLogs node on loopback with its data in a
// temporary directory, and stops it when t ends. args are more flags
// (-storageNode=... makes it a cluster's front).
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	s, err := start(t.TempDir(), args...)
	if err != nil {
		t.Fatalf("VictoriaLogs: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Flags are the flags every server runs with: events of any age are kept
// (tests log with times of their own), and a line may be as long as the
// API server writes one (two copies of a large object).
var Flags = []string{"-retentionPeriod=100y", "-futureRetention=100y", "-insert.maxLineSizeBytes=16MiB", "-loggerLevel=WARN"}

func start(dir string, args ...string) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	// A port picked free may be taken by another before the server
	// listens on it: try again on a new one.
	var last error
	for try := 0; try < 3; try++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		s := &Server{URL: "http://" + addr, Addr: addr, Dir: dir, out: &localproc.LockedBuffer{}, exited: make(chan struct{})}
		flags := append([]string{"-storageDataPath=" + filepath.Join(dir, "data"), "-httpListenAddr=" + addr}, Flags...)
		s.cmd = exec.Command(bin, append(flags, args...)...)
		s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
		s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
		if err := s.cmd.Start(); err != nil {
			return nil, fmt.Errorf("starting %s: %w", bin, err)
		}
		go func() { _ = s.cmd.Wait(); close(s.exited) }()
		if last = s.waitHealthy(); last == nil {
			return s, nil
		}
		s.Stop()
	}
	return nil, last
}

// waitHealthy polls the server's /health until it answers OK, or fails
// with what it wrote when it exits first or is not up in time.
func (s *Server) waitHealthy() error {
	exited := false
	ok := testwait.Until(readyTimeout, func() bool {
		select {
		case <-s.exited:
			exited = true
			return true
		default:
		}
		resp, err := http.Get(s.URL + "/health")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	switch {
	case exited:
		return fmt.Errorf("victoria-logs on %s exited before it was up: %s\n%s", s.Addr, s.cmd.ProcessState, s.out)
	case !ok:
		return fmt.Errorf("victoria-logs on %s: /health not OK after %s\n%s", s.Addr, readyTimeout, s.out)
	}
	return nil
}

// Stop ends the server (SIGTERM, then SIGKILL after 15 s) and returns once
// it has exited; it is safe to call more than once.
func (s *Server) Stop() {
	s.once.Do(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
		}
	})
	<-s.exited
}

// Output is what the server wrote so far (its warnings and errors).
func (s *Server) Output() string { return s.out.String() }

// Insert sends lines (JSON, one event a line) to /insert/jsonline with
// params (_time_field, _msg_field, _stream_fields, preserve_json_keys ...),
// and makes them visible to queries (Flush).
func (s *Server) Insert(t testing.TB, lines []byte, params url.Values) {
	t.Helper()
	if err := s.insert(lines, params); err != nil {
		t.Fatal(err)
	}
	s.Flush(t)
}

// InsertTenant is Insert into tenant ACCOUNT:PROJECT (VictoriaLogs'
// AccountID and ProjectID).
func (s *Server) InsertTenant(t testing.TB, tenant string, lines []byte, params url.Values) {
	t.Helper()
	if err := s.insertTenant(tenant, lines, params); err != nil {
		t.Fatal(err)
	}
	s.Flush(t)
}

func (s *Server) insert(lines []byte, params url.Values) error {
	return s.insertTenant("", lines, params)
}

func (s *Server) insertTenant(tenant string, lines []byte, params url.Values) error {
	req, err := http.NewRequest(http.MethodPost, s.URL+"/insert/jsonline?"+params.Encode(), bytes.NewReader(lines))
	if err != nil {
		return err
	}
	if account, project, ok := strings.Cut(tenant, ":"); ok {
		req.Header.Set("AccountID", account)
		req.Header.Set("ProjectID", project)
	}
	// Not a form: VictoriaLogs would read the body as one.
	req.Header.Set("Content-Type", "application/stream+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("inserting into VictoriaLogs: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("inserting into VictoriaLogs: %s: %s", resp.Status, body)
	}
	return nil
}

// Flush makes what was inserted visible to queries at once
// (/internal/force_flush), as it otherwise is within a second or so.
func (s *Server) Flush(t testing.TB) {
	t.Helper()
	resp, err := http.Get(s.URL + "/internal/force_flush")
	if err != nil {
		t.Fatalf("flushing VictoriaLogs: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("flushing VictoriaLogs: %s", resp.Status)
	}
}

// Cluster is VictoriaLogs as a cluster: two storage nodes and a front
// node that inserts into and queries both.
type Cluster struct {
	// Front is where events are inserted and queries asked.
	Front *Server
	// Storage are the nodes that hold the events.
	Storage []*Server
}

// StartCluster runs the same victoria-logs binary three times: two
// storage nodes, and a front with -storageNode naming both. All stop when
// t ends.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	c := &Cluster{}
	var nodes []string
	for range 2 {
		s := Start(t)
		c.Storage = append(c.Storage, s)
		nodes = append(nodes, s.Addr)
	}
	c.Front = Start(t, "-storageNode="+strings.Join(nodes, ","))
	return c
}

// Insert sends lines through the front and returns once queries through
// it count them: the front sends what it is given on to the storage nodes
// in batches of its own, a moment later.
func (c *Cluster) Insert(t testing.TB, lines []byte, params url.Values) {
	t.Helper()
	before := c.Front.Rows(t)
	if err := c.Front.insert(lines, params); err != nil {
		t.Fatal(err)
	}
	want := before + bytes.Count(bytes.TrimSpace(lines), []byte("\n")) + 1
	got := before
	if !testwait.Until(readyTimeout, func() bool {
		c.Flush(t)
		got = c.Front.Rows(t)
		return got >= want
	}) {
		t.Fatalf("the cluster counts %s after %d were inserted into %d\n%s", words.Count(got, "event"), want-before, before, c.Front.Output())
	}
}

// Flush makes what the storage nodes hold visible to queries.
func (c *Cluster) Flush(t testing.TB) {
	t.Helper()
	for _, s := range c.Storage {
		s.Flush(t)
	}
}

// Rows counts the events a node holds (a query of its own, not through
// the front).
func (s *Server) Rows(t testing.TB) int {
	t.Helper()
	resp, err := http.PostForm(s.URL+"/select/logsql/query", url.Values{"query": {"* | count() as n"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var n struct {
		N string `json:"n"`
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("counting rows: %s: %s", resp.Status, body)
	}
	if err := json.Unmarshal(bytes.TrimSpace(body), &n); err != nil {
		t.Fatalf("counting rows: %v: %s", err, body)
	}
	c, err := strconv.Atoi(n.N)
	if err != nil {
		t.Fatalf("counting rows: %q", n.N)
	}
	return c
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
