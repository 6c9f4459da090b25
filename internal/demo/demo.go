// Package demo is `kedit demo`: a real API server of its own (localcluster,
// through internal/localproc) in a fresh temporary directory, the objects
// to edit, and a second writer (Writer) to conflict with. Everything it
// starts, it stops.
package demo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/localproc"
)

// Namespace is where the demo's objects live: the kubeconfig's
// default.
const Namespace = "default"

// demoDirPrefix names the demo's temporary directories, so that one left
// behind by a demo that was killed can be recognised and removed.
const demoDirPrefix = "kedit-demo-"

// ownerFile in a demo directory holds the pid of the kedit that made it.
const ownerFile = "kedit.pid"

// ClusterPIDFile in a demo directory holds the pid of its localcluster.
const ClusterPIDFile = "localcluster.pid"

// LocalClusterMissingError says that no localcluster binary was found.
type LocalClusterMissingError struct {
	// Looked lists where kedit looked.
	Looked []string
}

func (e *LocalClusterMissingError) Error() string {
	return "kedit demo needs the localcluster binary (a real API server), on PATH or next to kedit; looked in " +
		strings.Join(e.Looked, ", ") + ". Build it with `make localcluster` (bin/localcluster), or run `make demo`"
}

// FindLocalCluster finds the localcluster binary: next to the running
// kedit first (make builds both into bin/), then on PATH.
func FindLocalCluster() (string, error) {
	var looked []string
	if self, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(self); err == nil {
			self = resolved
		}
		p := filepath.Join(filepath.Dir(self), "localcluster")
		if isExecutable(p) {
			return p, nil
		}
		looked = append(looked, filepath.Dir(self))
	}
	if p, err := exec.LookPath("localcluster"); err == nil {
		return p, nil
	}
	return "", &LocalClusterMissingError{Looked: append(looked, "$PATH")}
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Demo is a running demo cluster with its objects.
type Demo struct {
	// Dir is the demo's directory: the cluster's data, its kubeconfig,
	// and anything else of the demo's; Close removes it unless Kept.
	Dir string
	// Kubeconfig is the cluster's admin kubeconfig.
	Kubeconfig string
	// AuditLog is the cluster's audit log (localcluster's default policy),
	// for kedit history and the timeline's history from the log.
	AuditLog string
	// Kept: Close keeps Dir (Options.Keep, Options.Dir).
	Kept bool

	cluster *localproc.Process
	// lock is Dir's lock while a kept demo runs on it.
	lock *os.File
}

// Open starts the demo where o says: in a fresh directory under
// o.Parent (os.TempDir() when empty), or in a directory to keep (o.Keep),
// or again on a kept one (o.Dir), whose objects and audit log are as the
// last demo left them; it starts the localcluster bin there and creates
// the demo's objects. Directories of earlier demos whose kedit is gone
// (killed before it could clean up) are removed first. A directory that is not a kept demo, or that another demo runs
// on, is an error (NotKeptError, NotEmptyError, InUseError) before
// anything starts. On failure everything started is stopped, and a
// temporary directory removed.
func Open(ctx context.Context, bin string, o Options) (_ *Demo, err error) {
	dir, err := keptDir(o)
	if err != nil {
		return nil, err
	}
	d := &Demo{Dir: dir, Kept: dir != ""}
	if d.Kept {
		if d.lock, err = lock(dir); err != nil {
			return nil, err
		}
	} else {
		parent := o.Parent
		if parent == "" {
			parent = os.TempDir()
		}
		removeAbandonedDemos(parent)
		if d.Dir, err = os.MkdirTemp(parent, demoDirPrefix); err != nil {
			return nil, fmt.Errorf("making the demo's directory: %w", err)
		}
	}
	dir, d.AuditLog = d.Dir, filepath.Join(d.Dir, "audit.log")
	defer func() {
		if err != nil {
			_ = d.Close()
		}
	}()
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return nil, err
	}
	if d.cluster, err = localproc.Start(ctx, bin, filepath.Join(dir, "cluster"), 0, "--audit-log", d.AuditLog); err != nil {
		return nil, err
	}
	d.Kubeconfig = d.cluster.Kubeconfig
	if err := os.WriteFile(filepath.Join(dir, ClusterPIDFile), []byte(strconv.Itoa(d.cluster.Pid())), 0o600); err != nil {
		return nil, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", d.Kubeconfig)
	if err != nil {
		return nil, err
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := CreateObjects(ctx, dc, Namespace); err != nil {
		return nil, err
	}
	if err := GrantEdit(ctx, dc, Namespace); err != nil {
		return nil, err
	}
	return d, nil
}

// Close stops the cluster and removes the directory, unless it is kept.
// It is safe to call more than once.
func (d *Demo) Close() error {
	if d.cluster != nil {
		d.cluster.Stop()
	}
	if d.Kept {
		if d.lock != nil {
			d.lock.Close() // the lock goes with it
			d.lock = nil
		}
		return nil
	}
	if err := os.RemoveAll(d.Dir); err != nil {
		return fmt.Errorf("removing the demo's directory: %w", err)
	}
	return nil
}

// removeAbandonedDemos removes the demo directories in parent whose kedit
// no longer runs. Their cluster stopped with that kedit (see
// localproc.Start); only the directory was left.
func removeAbandonedDemos(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, demoDirPrefix+"*"))
	for _, dir := range dirs {
		if isKept(dir) {
			continue // kept on purpose (--keep), whatever its name
		}
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not ours, or not finished being made
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || fsutil.ProcessAlive(pid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

var configMapsResource = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// demoFieldManager creates the demo's objects, so that the timeline's
// first version names the demo rather than kedit.
const demoFieldManager = "kedit-demo"

// CreateObjects creates the demo's objects in namespace ns: ConfigMap
// testmap with foo: "1", and ConfigMap nginx-conf holding an nginx.conf
// under one key. Objects that already exist are left as they are.
func CreateObjects(ctx context.Context, dc dynamic.Interface, ns string) error {
	nsObj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns},
	}}
	_, err := dc.Resource(corev1.SchemeGroupVersion.WithResource("namespaces")).Create(ctx, nsObj, metav1.CreateOptions{FieldManager: demoFieldManager})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", ns, err)
	}
	for name, data := range map[string]map[string]any{
		"testmap":    {"foo": "1"},
		"nginx-conf": {"nginx.conf": NginxConf},
	} {
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": ns},
			"data":     data,
		}}
		_, err := dc.Resource(configMapsResource).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{FieldManager: demoFieldManager})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating configmap %s: %w", name, err)
		}
	}
	return nil
}

// NginxConf is the demo's config file: a realistic nginx.conf of 60 lines,
// with worker_connections (the line the demo writer and the user both
// change) far enough from keepalive_timeout (the line only the writer
// changes) for a line merge to take both.
const NginxConf = `user nginx;
worker_processes auto;
error_log /var/log/nginx/error.log notice;
pid /run/nginx.pid;

events {
    worker_connections 1024;
    multi_accept on;
}

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;

    log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" '
                    '"$http_user_agent" "$http_x_forwarded_for"';
    access_log /var/log/nginx/access.log main;

    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    types_hash_max_size 2048;

    gzip on;
    gzip_comp_level 5;
    gzip_min_length 256;
    gzip_types text/plain text/css application/json application/javascript;

    upstream app {
        server app-0.app.default.svc.cluster.local:8080 max_fails=3;
        server app-1.app.default.svc.cluster.local:8080 max_fails=3;
        keepalive 32;
    }

    server {
        listen 80 default_server;
        server_name _;
        client_max_body_size 10m;

        location / {
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_read_timeout 30s;
        }

        location /healthz {
            access_log off;
            return 200 "ok\n";
        }

        location = /favicon.ico {
            log_not_found off;
        }
    }
}
`
