package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kedit/kedit/kube/kubetest"
)

func getData(t *testing.T, ns, name string) (map[string]string, string) {
	t.Helper()
	cm, err := kubetest.Clientset(t).CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm.Data, cm.ResourceVersion
}

func TestSetAppliesWhenConditionHolds(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")

	stdout, stderr, code := runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=2", "--if", "/data/foo=1"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	data, rv := getData(t, ns, "testmap")
	if data["foo"] != "2" {
		t.Errorf("foo = %q, want 2", data["foo"])
	}
	if strings.TrimSpace(stdout) != rv {
		t.Errorf("printed %q, want the new resourceVersion %s", stdout, rv)
	}

	// TYPE NAME form, a short name, several values, a JSON value and an
	// escaped key, and --if-absent.
	_, stderr, code = runKedit(t, append([]string{"set", "cm", "testmap", `/metadata/annotations:={"example.com/team":"a"}`, "/data/bar=x",
		"--if-absent", "/data/bar", "--if", `/data/foo:="2"`}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runKedit(t, append([]string{"set", "configmaps/testmap", "/metadata/annotations/example.com~1team=b",
		"--if", "/metadata/annotations/example.com~1team=a"}, flags...)...)
	if code != 0 {
		t.Fatalf("escaped key: exit %d, stderr %q", code, stderr)
	}
	data, _ = getData(t, ns, "testmap")
	cm, err := kubetest.Clientset(t).CoreV1().ConfigMaps(ns).Get(context.Background(), "testmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cm.Annotations["example.com/team"] != "b" || data["bar"] != "x" {
		t.Errorf("annotations %v, data %v: want example.com/team=b and bar=x", cm.Annotations, data)
	}
}

func TestSetLosesRaceAgainstKubectl(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	// The user read foo=1; before kedit set runs, someone else writes 5.
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"5"}}`)
	_, before := getData(t, ns, "testmap")

	stdout, stderr, code := runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=2", "--if", "/data/foo=1"}, flags...)...)
	if code != 3 {
		t.Fatalf("exit %d (stderr %q), want 3: the condition no longer holds", code, stderr)
	}
	if strings.TrimSpace(stdout) != "5" {
		t.Errorf("printed %q, want the current value 5", stdout)
	}
	if !strings.Contains(stderr, `--if /data/foo="1" does not hold: /data/foo is "5"`) {
		t.Errorf("stderr %q does not explain the failed condition", stderr)
	}
	data, after := getData(t, ns, "testmap")
	if data["foo"] != "5" || after != before {
		t.Errorf("object changed: foo=%q rv %s -> %s", data["foo"], before, after)
	}

	_, _, code = runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=2", "--if-absent", "/data/foo"}, flags...)...)
	if code != 3 {
		t.Errorf("--if-absent on a present key: exit %d, want 3", code)
	}
}

// TestSetRacesAreAtomic runs kedit set and kubectl's own conditional patch
// at the same moment, both conditioned on foo=1: exactly one may win, and
// the object holds the winner's value.
func TestSetRacesAreAtomic(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	keditWins, kubectlWins := 0, 0
	for round := 0; round < 6; round++ {
		kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"foo":"1"}}`)
		var wg sync.WaitGroup
		var keditCode int
		var kubectlErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, _, keditCode = runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=kedit", "--if", "/data/foo=1"}, flags...)...)
		}()
		go func() {
			defer wg.Done()
			_, kubectlErr = kubetest.Kubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=json", "-p",
				`[{"op":"test","path":"/data/foo","value":"1"},{"op":"replace","path":"/data/foo","value":"kubectl"}]`)
		}()
		wg.Wait()
		data, _ := getData(t, ns, "testmap")
		switch {
		case keditCode == 0 && kubectlErr != nil && data["foo"] == "kedit":
			keditWins++
		case keditCode == 3 && kubectlErr == nil && data["foo"] == "kubectl":
			kubectlWins++
		default:
			t.Fatalf("round %d: kedit exit %d, kubectl err %v, foo=%q: want exactly one winner", round, keditCode, kubectlErr, data["foo"])
		}
	}
	t.Logf("kedit won %d rounds, kubectl %d", keditWins, kubectlWins)
}

// TestSetCounterLosesNoUpdate increments a counter from two writers with
// compare-and-set; every increment must count.
func TestSetCounterLosesNoUpdate(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "counter", "--from-literal=n=0")
	const writers, each = 2, 5
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < each; {
				data, _ := getData(t, ns, "counter")
				n, _ := strconv.Atoi(data["n"])
				_, stderr, code := runKedit(t, append([]string{"set", "cm/counter", fmt.Sprintf("/data/n=%d", n+1), "--if", fmt.Sprintf("/data/n=%d", n)}, flags...)...)
				switch code {
				case 0:
					done++
				case 3: // lost the race: read again
				default:
					t.Errorf("exit %d: %s", code, stderr)
					return
				}
			}
		}()
	}
	wg.Wait()
	if data, _ := getData(t, ns, "counter"); data["n"] != strconv.Itoa(writers*each) {
		t.Errorf("n = %s, want %d: an increment was lost", data["n"], writers*each)
	}
}

func TestSetSecretValueIsNeverPrinted(t *testing.T) {
	ns, flags := setEnv(t)
	const secret = "hunter2-top-secret"
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password="+secret)
	stdout, stderr, code := runKedit(t, append([]string{"set", "secret/creds", "/data/password=" + base64.StdEncoding.EncodeToString([]byte("new")),
		"--if", "/data/password=d3Jvbmc="}, flags...)...)
	if code != 3 {
		t.Fatalf("exit %d, want 3 (stderr %q)", code, stderr)
	}
	encoded := base64.StdEncoding.EncodeToString([]byte(secret))
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, secret) || strings.Contains(out, encoded) {
			t.Errorf("a Secret's value was printed: %q", out)
		}
	}
	if !strings.Contains(stdout, "hidden") {
		t.Errorf("stdout %q should say the value is hidden", stdout)
	}
}

func TestSetErrors(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	_, before := getData(t, ns, "testmap")
	viewer := []string{"--kubeconfig", kubetest.ViewerKubeconfig(t), "-n", ns}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown type", append([]string{"set", "confgmap/testmap", "/data/foo=2"}, flags...), `resource type "confgmap"; did you mean configmaps?`},
		{"missing object", append([]string{"set", "configmap/nope", "/data/foo=2"}, flags...), `configmaps/nope not found in namespace "` + ns + `"`},
		{"not a pointer", append([]string{"set", "configmap/testmap", "data/foo=2"}, flags...), `path "data/foo" is not a JSON pointer`},
		{"no value", append([]string{"set", "configmap/testmap"}, flags...), "nothing to set"},
		{"bad JSON", append([]string{"set", "configmap/testmap", "/data/foo:={"}, flags...), "not valid JSON"},
		{"missing name", append([]string{"set", "configmap"}, flags...), `missing the name after type "configmap"`},
		{"invalid label", append([]string{"set", "configmap/testmap", `/metadata/labels:={"a b":"c"}`}, flags...), `is invalid: metadata.labels: Invalid value: "a b"`},
		{"missing parent", append([]string{"set", "configmap/testmap", "/metadata/labels/x=y"}, flags...), `/metadata/labels does not exist; set it whole instead: /metadata/labels:='{"x":"y"}'`},
		{"missing annotations", append([]string{"set", "configmap/testmap", "/metadata/annotations/example.com~1team=a"}, flags...), `/metadata/annotations does not exist; set it whole instead: /metadata/annotations:='{"example.com/team":"a"}'`},
		{"string for an integer", append([]string{"set", "deploy/web", "/spec/replicas=3"}, flags...), `cannot set /spec/replicas on deployments.apps/web: it wants an integer, and /spec/replicas=3 sets the string "3"; write /spec/replicas:=3`},
		{"string for a boolean", append([]string{"set", "deploy/web", "/spec/paused=yes"}, flags...), `it wants a boolean (true or false), and /spec/paused=yes sets the string "yes"; write /spec/paused:=JSON`},
		{"forbidden", append([]string{"set", "configmap/testmap", "/data/foo=2"}, viewer...), `not allowed to patch configmaps/testmap`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runKedit(t, tc.args...)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tc.want)
			}
			// One line that says what is wrong, never the server's dump of
			// the object.
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 || len(stderr) > 400 {
				t.Errorf("stderr is %d bytes on %d lines:\n%s", len(stderr), strings.Count(stderr, "\n"), stderr)
			}
		})
	}
	// A usage error is said as cobra says it, with status 2
	// (docs/commands.md).
	for _, tc := range []struct{ args []string }{{[]string{"set"}}, {append([]string{"set", "--no-such-flag", "configmap/testmap", "/data/foo=2"}, flags...)}} {
		if _, stderr, code := runKedit(t, tc.args...); code != 2 || !strings.Contains(stderr, "kedit: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the message", tc.args, code, stderr)
		}
	}
	if data, after := getData(t, ns, "testmap"); data["foo"] != "1" || after != before {
		t.Errorf("a failed set changed the object: foo=%q rv %s -> %s", data["foo"], before, after)
	}
}

func TestSetDryRun(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27")
	_, before := getData(t, ns, "testmap")

	// The server validates a dry run: ConfigMap data holds strings.
	_, stderr, code := runKedit(t, append([]string{"set", "--dry-run", "configmap/testmap", "/data/bar:=3"}, flags...)...)
	if code != 1 || !strings.Contains(stderr, "invalid") {
		t.Errorf("a number in ConfigMap data: exit %d, stderr %q; want 1 and the server's refusal", code, stderr)
	}
	stdout, stderr, code := runKedit(t, append([]string{"set", "--dry-run", "configmap/testmap", "/data/foo=2", "/data/bar=3", "--if", "/data/foo=1"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "2\n3\n" {
		t.Errorf("stdout %q, want the two values the server would store", stdout)
	}
	if !strings.Contains(stderr, "dry run against rv "+before+": nothing was changed") {
		t.Errorf("stderr %q does not say the dry run changed nothing", stderr)
	}
	if data, after := getData(t, ns, "testmap"); data["foo"] != "1" || data["bar"] != "" || after != before {
		t.Errorf("the dry run changed the object: %v, rv %s -> %s", data, before, after)
	}

	// What the server would store, defaults included: the port's protocol.
	stdout, stderr, code = runKedit(t, append([]string{"set", "--dry-run", "deployment/web",
		`/spec/template/spec/containers/0/ports:=[{"containerPort":80}]`}, flags...)...)
	if code != 0 {
		t.Fatalf("deployment: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, `"protocol":"TCP"`) {
		t.Errorf("stdout %q lacks the defaulted protocol", stdout)
	}

	// A condition that does not hold: exit 3 with the current value, as
	// without --dry-run.
	stdout, _, code = runKedit(t, append([]string{"set", "--dry-run", "configmap/testmap", "/data/foo=2", "--if", "/data/foo=9"}, flags...)...)
	if code != 3 || stdout != "1\n" {
		t.Errorf("failed condition: exit %d, stdout %q; want 3 and the current value", code, stdout)
	}
	if _, after := getData(t, ns, "testmap"); after != before {
		t.Errorf("rv %s -> %s after dry runs", before, after)
	}
}

func TestSetDryRunNeverPrintsSecretValues(t *testing.T) {
	ns, flags := setEnv(t)
	const secret = "hunter2-top-secret"
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=old")
	encoded := base64.StdEncoding.EncodeToString([]byte(secret))
	stdout, stderr, code := runKedit(t, append([]string{"set", "--dry-run", "secret/creds", "/data/password=" + encoded, "/stringData:={\"token\":\"" + secret + "\"}"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, secret) || strings.Contains(out, encoded) {
			t.Errorf("a Secret's value was printed: %q", out)
		}
	}
	// stringData is moved into data by the server: absent at its path.
	if stdout != "<hidden: Secret value>\n<absent>\n" {
		t.Errorf("stdout %q", stdout)
	}
}

// TestSetFieldManager: kedit set --field-manager writes the patch (and
// the dry run's) under the name given, kedit's own nowhere; a name the
// API server would refuse is refused before anything is sent.
func TestSetFieldManager(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, stderr, code := runKedit(t, append([]string{"set", "--field-manager", "set-ops", "configmap/testmap", "/data/foo=2", "--if", "/data/foo=1"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	out := kubetest.MustKubectl(t, "-n", ns, "get", "configmap", "testmap", "-o", "yaml", "--show-managed-fields")
	if !strings.Contains(out, "manager: set-ops") || strings.Contains(out, "manager: kedit") {
		t.Errorf("managedFields after kedit set --field-manager set-ops:\n%s", out)
	}
	_, before := getData(t, ns, "testmap")
	for _, bad := range []string{"", strings.Repeat("m", 129), "tab\there"} {
		_, stderr, code := runKedit(t, append([]string{"set", "--field-manager", bad, "configmap/testmap", "/data/foo=3"}, flags...)...)
		if code != 1 || !strings.Contains(stderr, "kedit set: --field-manager") {
			t.Errorf("--field-manager %q: exit %d, stderr %q; want 1 naming the flag", bad, code, stderr)
		}
	}
	if data, after := getData(t, ns, "testmap"); data["foo"] != "2" || after != before {
		t.Errorf("a refused manager changed the object: foo=%q rv %s -> %s", data["foo"], before, after)
	}
}

// TestSetOutputPatchAndDebug: --output-patch prints the JSON Patch sent
// and its answer on stderr, the winner's 200 and the loser's 422, a
// Secret's values masked; --debug writes each request with the
// resourceVersion it returned, as kedit's --debug does.
func TestSetOutputPatchAndDebug(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	debug := filepath.Join(t.TempDir(), "debug.log")
	stdout, stderr, code := runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=2", "--if", "/data/foo=1", "--output-patch", "--debug=" + debug}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	rv := strings.TrimSpace(stdout)
	path := "/api/v1/namespaces/" + ns + "/configmaps/testmap"
	for _, want := range []string{"PATCH " + path + "?fieldManager=kedit", "Content-Type: application/json-patch+json",
		`[{"op":"test","path":"/data/foo","value":"1"},{"op":"add","path":"/data/foo","value":"2"}]`, "-> 200 OK"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--output-patch's stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(debug)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`kedit .* request PATCH ` + regexp.QuoteMeta(path) + `\?\S+ 200 in \S+ \(rv sent none, returned ` + rv + `\)`).Match(b) {
		t.Errorf("--debug's log lacks the PATCH returning rv %s:\n%s", rv, b)
	}

	_, stderr, code = runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=3", "--if", "/data/foo=1", "--output-patch"}, flags...)...)
	if code != 3 || !strings.Contains(stderr, "-> 422 Unprocessable Entity") {
		t.Errorf("the loser: exit %d, stderr:\n%s", code, stderr)
	}

	const secret = "hunter2-top-secret"
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=old")
	encoded := base64.StdEncoding.EncodeToString([]byte(secret))
	_, stderr, code = runKedit(t, append([]string{"set", "secret/creds", "/data/password=" + encoded, "--output-patch", "--debug=" + debug}, flags...)...)
	if code != 0 {
		t.Fatalf("the Secret: exit %d, stderr %q", code, stderr)
	}
	b, _ = os.ReadFile(debug)
	if strings.Contains(stderr+string(b), encoded) || !strings.Contains(stderr, `"value":"••••"`) {
		t.Errorf("the Secret's patch: its value printed, or not masked:\n%s", stderr)
	}
}

// TestSetDebugSaysWhereDiscoveryCameFrom: --debug's log has discovery's
// requests when kubectl's discovery cache has nothing fresh, and says so;
// once the cache holds it, the log says that discovery is read from it
// and no discovery request is sent, and has none.
func TestSetDebugSaysWhereDiscoveryCameFrom(t *testing.T) {
	ns, flags := setEnv(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	cache := t.TempDir()
	for i, want := range []string{"holds none younger than 6 hours: discovery's requests are sent", "discovery: read from kubectl's cache "} {
		debug := filepath.Join(t.TempDir(), "debug.log")
		_, stderr, code := runKedit(t, append([]string{"set", "configmap/testmap", "/data/foo=" + strconv.Itoa(i+2), "--debug=" + debug, "--cache-dir", cache}, flags...)...)
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		b, _ := os.ReadFile(debug)
		discovered := regexp.MustCompile(`(?m) request GET /apis?\?\S* 200 `).Match(b)
		if !strings.Contains(string(b), want) || discovered != (i == 0) {
			t.Errorf("run %d: --debug's log does not say %q, or has discovery's requests (%v) when it says otherwise:\n%s", i+1, want, discovered, b)
		}
	}
}
