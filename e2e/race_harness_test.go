package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// The race harness: two or three people write one object through the
// real verbs (kubectl get, edit, replace with and without the
// resourceVersion, client-side and server-side apply with and without
// --force-conflicts, patch of each type, label, annotate, scale, and kedit
// set --if) against a localcluster that writes an audit log. The harness
// knows, for each write, the version its person's body was made from:
// the version they last read (with kubectl get, or what their kubectl
// edit showed), the version before it when the write carried the
// resourceVersion they read or tested the field it set, or none. That is
// the ground truth kedit history is scored against (race_truth_test.go);
// it is never read back from the log.

// raceEnv is the cluster the races of one test run on, with its audit
// log, and users alice, bob and carol allowed to do anything.
type raceEnv struct {
	c     *kubetest.Cluster
	dyn   dynamic.Interface
	cache string
}

func newRaceEnv(t *testing.T) *raceEnv {
	t.Helper()
	c := kubetest.NewCluster(t, kubetest.WithAuditLog())
	c.MustKubectl(t, "create", "clusterrolebinding", "race-writers", "--clusterrole=cluster-admin",
		"--user=alice", "--user=bob", "--user=carol")
	dyn, err := dynamic.NewForConfig(c.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return &raceEnv{c: c, dyn: dyn, cache: t.TempDir()}
}

// racePerson is one person of a race and what they know.
type racePerson struct {
	name string
	// kedit: they write with kedit set --if; tuiUser: with kedit itself
	// (tui, once opened); else with kubectl.
	kedit, tuiUser bool
	tui            *raceTUI
	// known is the version they last read (an index in the run's
	// versions), -1 for none; knownObj that version as they read it.
	known    int
	knownObj map[string]any
	// values are the values a kedit user learned of each field (from a
	// set whose condition did not hold, which prints the value now).
	values map[string]string
	// editing is their kubectl edit waiting in its editor.
	editing *raceEdit
}

// raceVersion is one version of the object, as the harness's watch saw
// it, with what its write was made from.
type raceVersion struct {
	rv  string
	obj map[string]any
	// person wrote it ("" for the creation); command is how.
	person, command string
	// base is the version the write's body was made from: the one its
	// person last read, -1 for none. informed: the write carried the
	// resourceVersion its person had read, so the server took it only as
	// the latest. tested are the fields its JSON Patch tested.
	base     int
	informed bool
	tested   map[string]bool
}

// raceRun is one race: a seed's people writing one object in a namespace
// of its own.
type raceRun struct {
	t      *testing.T
	env    *raceEnv
	name   string
	ns     string
	kind   raceKind
	people []*racePerson
	dir    string
	// script is what was run, for a reader to replay it.
	script []string

	mu       sync.Mutex
	versions []raceVersion
	seen     []*unstructured.Unstructured // what the watch saw, in order
	stop     func()
}

// newRaceRun makes the run's namespace and starts the harness's watch of
// the object before it exists.
func newRaceRun(t *testing.T, env *raceEnv, name string, kind raceKind, people ...*racePerson) *raceRun {
	t.Helper()
	run := &raceRun{t: t, env: env, name: name, ns: name, kind: kind, people: people, dir: t.TempDir()}
	env.c.MustKubectl(t, "create", "namespace", run.ns)
	run.script = append(run.script, "kubectl create namespace "+run.ns)
	ctx, cancel := context.WithCancel(context.Background())
	run.stop = cancel
	w, err := env.dyn.Resource(kind.gvr).Namespace(run.ns).Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=obj"})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev := range w.ResultChan() {
			if o, ok := ev.Object.(*unstructured.Unstructured); ok && (ev.Type == watch.Added || ev.Type == watch.Modified) {
				run.mu.Lock()
				run.seen = append(run.seen, o)
				run.mu.Unlock()
			}
		}
	}()
	t.Cleanup(cancel)
	for _, p := range people {
		p.known, p.values = -1, map[string]string{}
	}
	return run
}

// create creates the object as the admin, from the kind's manifest.
func (run *raceRun) create() {
	run.t.Helper()
	f := run.file("manifest", run.kind.manifest(run.ns))
	out, err := run.kubectl("", nil, "create", "-f", f)
	if err != nil {
		run.t.Fatalf("creating the object: %v\n%s", err, out)
	}
	run.record(raceVersion{base: -1}, "kubectl create -f "+filepath.Base(f))
}

// file writes o as a manifest of the run's, and records it in the
// script.
func (run *raceRun) file(name string, o map[string]any) string {
	run.t.Helper()
	b, err := yaml.Marshal(o)
	if err != nil {
		run.t.Fatal(err)
	}
	p := filepath.Join(run.dir, fmt.Sprintf("%s-%d.yaml", name, len(run.script)))
	if err := os.WriteFile(p, b, 0o600); err != nil {
		run.t.Fatal(err)
	}
	run.script = append(run.script, fmt.Sprintf("cat > %s <<'EOF'\n%sEOF", filepath.Base(p), b))
	return p
}

// kubectl runs kubectl as user ("" for the admin) in the run's
// namespace, with env.
func (run *raceRun) kubectl(user string, env []string, args ...string) (string, error) {
	cmd := run.kubectlCmd(user, env, args...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (run *raceRun) kubectlCmd(user string, env []string, args ...string) *exec.Cmd {
	full := []string{"--kubeconfig", run.env.c.Kubeconfig(), "-n", run.ns}
	line := []string{"kubectl"}
	if user != "" {
		full = append(full, "--as", user)
		line = append(line, "--as", user)
	}
	full = append(full, args...)
	line = append(line, "-n", run.ns)
	line = append(line, args...)
	run.script = append(run.script, strings.TrimSpace(strings.Join(env, " ")+" "+strings.ReplaceAll(shellJoin(line), run.dir+"/", "")))
	cmd := exec.Command("kubectl", full...)
	cmd.Env = append(append(os.Environ(), "KUBECACHEDIR="+run.env.cache), env...)
	return cmd
}

// record takes the versions the watch saw since the last record as the
// write of the command just run (none when it stored nothing new), made
// from what v says. It waits for the watch to reach the version the
// server holds now.
func (run *raceRun) record(v raceVersion, command string) {
	run.t.Helper()
	cur, err := run.env.dyn.Resource(run.kind.gvr).Namespace(run.ns).Get(context.Background(), "obj", metav1.GetOptions{})
	if err != nil {
		run.t.Fatalf("the harness's read of the object: %v", err)
	}
	rv := cur.GetResourceVersion()
	var fresh []*unstructured.Unstructured
	if !testwait.Until(30*time.Second, func() bool {
		run.mu.Lock()
		defer run.mu.Unlock()
		for i, o := range run.seen {
			if o.GetResourceVersion() == rv {
				if i >= len(run.versions) {
					fresh = append([]*unstructured.Unstructured(nil), run.seen[len(run.versions):i+1]...)
				}
				return true
			}
		}
		return false
	}) {
		run.t.Fatalf("the harness's watch did not see resourceVersion %s within 30 s", rv)
	}
	for _, o := range fresh {
		nv := v
		nv.rv, nv.obj, nv.command = o.GetResourceVersion(), o.Object, command
		run.versions = append(run.versions, nv)
	}
}

// latest is the index of the newest version.
func (run *raceRun) latest() int { return len(run.versions) - 1 }

// read is a person's kubectl get: what they know from now on.
func (run *raceRun) read(p *racePerson) {
	run.t.Helper()
	out, err := run.kubectl(p.name, nil, "get", run.kind.typ, "obj", "-o", "json")
	if err != nil {
		run.t.Fatalf("kubectl get as %s: %v\n%s", p.name, err, out)
	}
	var o map[string]any
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		run.t.Fatalf("kubectl get -o json printed no JSON: %v\n%s", err, out)
	}
	run.learn(p, o)
}

// learn makes o, a version the person was shown, what they know.
func (run *raceRun) learn(p *racePerson, o map[string]any) {
	run.t.Helper()
	rv := (&unstructured.Unstructured{Object: o}).GetResourceVersion()
	for i := range run.versions {
		if run.versions[i].rv == rv {
			p.known, p.knownObj = i, o
			return
		}
	}
	run.t.Fatalf("%s was shown resourceVersion %s, which the harness's watch did not see", p.name, rv)
}

// body is what a person's file holds: the version they last read, else
// the repository's manifest, with field set to value. server keeps what
// the server added (for kubectl replace); without it, the file is a
// manifest as one keeps in a repository (for kubectl apply).
func (run *raceRun) body(p *racePerson, f raceField, value string, server bool) map[string]any {
	o := run.kind.manifest(run.ns)
	if p.knownObj != nil {
		o = deepCopy(p.knownObj)
	}
	meta := o["metadata"].(map[string]any)
	delete(meta, "managedFields")
	if ann, ok := meta["annotations"].(map[string]any); ok {
		delete(ann, "kubectl.kubernetes.io/last-applied-configuration")
	}
	if !server {
		for _, k := range []string{"resourceVersion", "uid", "creationTimestamp", "generation"} {
			delete(meta, k)
		}
		delete(o, "status")
	}
	f.set(o, value)
	return o
}

func deepCopy(o map[string]any) map[string]any {
	return (&unstructured.Unstructured{Object: o}).DeepCopy().Object
}

// raceEdit is a kubectl edit waiting in its editor.
type raceEdit struct {
	cmd        *exec.Cmd
	out        *bytes.Buffer
	done       chan error
	seen, gate string
	edited     string
	base       int
}

// startEdit starts the person's kubectl edit: it reads the object, and
// its editor waits with what it showed until finishEdit.
func (run *raceRun) startEdit(p *racePerson) {
	run.t.Helper()
	dir := filepath.Join(run.dir, fmt.Sprintf("edit-%d", len(run.script)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		run.t.Fatal(err)
	}
	e := &raceEdit{seen: filepath.Join(dir, "seen"), gate: filepath.Join(dir, "go"), edited: filepath.Join(dir, "edited"),
		out: &bytes.Buffer{}, done: make(chan error, 1)}
	script := filepath.Join(dir, "editor.sh")
	body := fmt.Sprintf("#!/bin/sh\ncp \"$1\" %q.tmp && mv %q.tmp %q\nwhile [ ! -f %q ]; do sleep 0.02; done\ncp %q \"$1\"\n",
		e.seen, e.seen, e.seen, e.gate, e.edited)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		run.t.Fatal(err)
	}
	e.cmd = run.kubectlCmd(p.name, []string{"KUBE_EDITOR=" + script}, "edit", run.kind.typ, "obj")
	e.cmd.Stdout, e.cmd.Stderr = e.out, e.out
	if err := e.cmd.Start(); err != nil {
		run.t.Fatal(err)
	}
	go func() { e.done <- e.cmd.Wait() }()
	var shown []byte
	if !testwait.Until(time.Minute, func() bool {
		select {
		case err := <-e.done:
			run.t.Fatalf("kubectl edit ended before its editor started: %v\n%s", err, e.out)
		default:
		}
		b, err := os.ReadFile(e.seen)
		shown = b
		return err == nil
	}) {
		run.t.Fatalf("kubectl edit's editor did not start within a minute\n%s", e.out)
	}
	var o map[string]any
	if err := yaml.Unmarshal(shown, &o); err != nil {
		run.t.Fatalf("kubectl edit showed no YAML: %v\n%s", err, shown)
	}
	run.learn(p, o)
	e.base = p.known
	p.editing = e
}

// finishEdit has the person's editor set field to value and save; kubectl
// edit then patches the object.
func (run *raceRun) finishEdit(p *racePerson, f raceField, value string) {
	run.t.Helper()
	e := p.editing
	p.editing = nil
	o := deepCopy(p.knownObj)
	f.set(o, value)
	b, err := yaml.Marshal(o)
	if err != nil {
		run.t.Fatal(err)
	}
	if err := os.WriteFile(e.edited, b, 0o600); err != nil {
		run.t.Fatal(err)
	}
	run.script = append(run.script, fmt.Sprintf("# %s's editor sets %s to %s and saves", p.name, f.name, value))
	if err := os.WriteFile(e.gate, nil, 0o600); err != nil {
		run.t.Fatal(err)
	}
	select {
	case err := <-e.done:
		if err != nil {
			run.t.Fatalf("kubectl edit as %s: %v\n%s", p.name, err, e.out)
		}
	case <-time.After(time.Minute):
		_ = e.cmd.Process.Kill()
		run.t.Fatalf("kubectl edit as %s did not end\n%s", p.name, e.out)
	}
	run.record(raceVersion{person: p.name, base: e.base}, "kubectl edit")
}
