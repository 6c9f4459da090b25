package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model/history"
)

// metadataOnlyPolicy is localcluster's policy, except that everything in
// namespace metadata-only is logged at Metadata level (writes without
// their bodies, as a common policy logs them), and no read in namespace
// writes-only is logged (a policy that logs writes only).
const metadataOnlyPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
` + quietRules + `  - level: Metadata
    namespaces: ["metadata-only"]
  - level: None
    namespaces: ["writes-only"]
    verbs: ["get", "list", "watch"]
  - level: RequestResponse
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
  - level: Metadata
    verbs: ["get", "list", "watch"]
  - level: None
`

// quietRules are the first rules of the tests' audit policies, as of
// localcluster's: nothing of Events, Leases and the health checks.
const quietRules = `  - level: None
    resources:
      - group: ""
        resources: ["events"]
      - group: "coordination.k8s.io"
        resources: ["leases"]
  - level: None
    nonResourceURLs: ["/healthz", "/healthz/*", "/livez", "/livez/*", "/readyz", "/readyz/*"]
`

// historyRun runs kedit history on the log until its report holds at
// least versions versions of obj (the server logs a request as it ends),
// and returns the report, stderr and the exit status.
func historyRun(t *testing.T, e *auditEnv, obj string, versions int, args ...string) (history.Report, string, int) {
	t.Helper()
	var rep history.Report
	var out, stderr string
	var code int
	if !testwait.Until(30*time.Second, func() bool {
		out, stderr, code = runBinary(t, "", append([]string{"history", obj, "--kubeconfig", e.c.Kubeconfig(), "--json"}, args...)...)
		rep = history.Report{}
		return json.Unmarshal([]byte(out), &rep) == nil && len(rep.Versions) >= versions
	}) {
		t.Fatalf("kedit history %s: exit %d, %d versions after 30 s (want %d)\n%s\n%s", obj, code, len(rep.Versions), versions, out, stderr)
	}
	return rep, stderr, code
}

// TestHistoryCoverageOnARealLog plays the kubectl edit race twice on one
// real API server: in namespace metadata-only, whose writes its policy
// logs at Metadata level, and in default, logged whole. Through the real
// binary:
//   - the Metadata-level race is inconclusive (exit 3), the text says it
//     first (3 of 3 writes recorded without their bodies), --json has the
//     coverage, and the timeline's header in tmux says it cannot judge the
//     3 writes, never 0 lost updates;
//   - the whole race's first line names the loss, with the replacing and
//     the live value, and the table fits 80 columns; --since and --until
//     bound it; --help has examples and the audit levels needed;
//   - the same log cut short (gzip cut, last line cut) is read up to the
//     cut with a warning naming file and line, the result partial (exit 1
//     with the loss, 3 for an object with nothing found); corrupt within,
//     a line of text among the events, JSON over many lines are exit 2
//     naming file and line (the last with the jq -c hint); the object view
//     refuses the corrupt log before the UI starts, and its timeline says
//     a log cut short is partial.
func TestHistoryCoverageOnARealLog(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	c := kubetest.NewCluster(t, kubetest.WithAuditLog(), kubetest.WithAuditPolicy(metadataOnlyPolicy))
	c.MustKubectl(t, "create", "clusterrolebinding", "incident-writers", "--clusterrole=cluster-admin",
		"--user=alice", "--user=bob", "--user=carol")
	c.MustKubectl(t, "create", "namespace", "metadata-only")
	c.MustKubectl(t, "create", "namespace", "writes-only")
	whole := &auditEnv{t: t, c: c}
	metadata := &auditEnv{t: t, c: c, ns: "metadata-only"}
	writesOnly := &auditEnv{t: t, c: c, ns: "writes-only"}
	whole.editRace("race")
	whole.must("", "create", "configmap", "calm", "--from-literal=foo=1")
	whole.patchAfterRead("bob", "configmap", "calm", "-p", `{"data":{"foo":"bob"}}`)
	metadata.editRace("race")
	writesOnly.editRace("race")
	log := c.AuditLog()

	t.Run("Metadata-level writes are inconclusive", func(t *testing.T) {
		rep, _, code := historyRun(t, metadata, "cm/race", 3, "-n", "metadata-only", "--audit-log", log)
		cov := rep.Coverage
		if code != 3 || cov.Writes != 3 || cov.WithoutBodies != 3 || cov.Unjudged != 3 || cov.Level != "Metadata" || len(rep.LostUpdates) != 0 {
			t.Fatalf("exit %d, coverage %+v, lost %v; want exit 3 and 3 of 3 writes without their bodies", code, cov, lostPaths(rep.LostUpdates))
		}
		out, _, code := runBinary(t, "", "history", "cm/race", "-n", "metadata-only", "--kubeconfig", c.Kubeconfig(), "--audit-log", log)
		if code != 3 || !strings.HasPrefix(out, "INCONCLUSIVE: 3 of 3 writes recorded without their bodies: lost updates cannot be judged") ||
			strings.Contains(out, "LOST UPDATES: none\n") || strings.Contains(out, "OK:") {
			t.Errorf("exit %d:\n%s", code, out)
		}

		// kedit opens the object a second after its last write at the
		// least, so that the time kedit saw it is not the write's.
		written, err := time.Parse(time.RFC3339Nano, rep.Versions[2].Time)
		if err != nil {
			t.Fatal(err)
		}
		testwait.Until(3*time.Second, func() bool { return time.Now().Truncate(time.Second).After(written.Truncate(time.Second)) })
		env := newKeditEnv(t, "true")
		env.kubeconfig = c.Kubeconfig()
		term := env.run(t, 120, 30, "configmap/race", "-n", "metadata-only", "--audit-log", log)
		term.waitFor(screenWait, "ConfigMap/race", "foo: alice")
		term.send("t")
		// The version kedit opened is the log's last write, logged without
		// its body: one row, at the time of that write.
		screen := term.waitFor(screenWait, "audit log: cannot judge 3 writes (Metadata level)",
			"1 version since kedit opened it, 2 more from the audit log", written.Local().Format("15:04:05")+"  kubectl-edit")
		if strings.Contains(screen, "0 lost updates") {
			t.Errorf("the header says 0 lost updates:\n%s", screen)
		}
	})

	t.Run("writes whose reads are not logged are not judged", func(t *testing.T) {
		rep, _, code := historyRun(t, writesOnly, "cm/race", 3, "-n", "writes-only", "--audit-log", log)
		cov := rep.Coverage
		// bob's patch and alice's edit carried no resourceVersion, and
		// neither's read is in the log: what they saw is unknown. What
		// each replaced is a blind write: the answer is inconclusive.
		if code != 3 || cov.WithoutReads != 2 || cov.Reads != 0 || len(rep.LostUpdates) != 0 || len(rep.BlindWrites) == 0 {
			t.Fatalf("exit %d, coverage %+v, lost %v, blind %v", code, cov, lostPaths(rep.LostUpdates), lostPaths(rep.BlindWrites))
		}
		out, _, _ := runBinary(t, "", "history", "cm/race", "-n", "writes-only", "--kubeconfig", c.Kubeconfig(), "--audit-log", log)
		if !strings.HasPrefix(out, "BLIND .data.foo: ") || !strings.Contains(out,
			"\nINCONCLUSIVE: 2 of 3 writes carried no resourceVersion and the log has no read of the object by their client before them") ||
			!strings.Contains(out, "reads need Metadata level") {
			t.Errorf("text:\n%s", out)
		}
	})

	t.Run("the first line names the loss; the table fits 80 columns", func(t *testing.T) {
		rep, _, code := historyRun(t, whole, "cm/race", 3, "--audit-log", log)
		if code != 1 || len(rep.LostUpdates) != 1 || !rep.Coverage.Judged() {
			t.Fatalf("exit %d, lost %v, coverage %+v", code, lostPaths(rep.LostUpdates), rep.Coverage)
		}
		if l := rep.LostUpdates[0]; l.NewValue != "alice" || l.NowValue != "alice" || l.NowFrom != "live" {
			t.Errorf("lost update %+v; want the new value and the live one", l)
		}
		out, _, code := runBinary(t, "", "history", "cm/race", "--kubeconfig", c.Kubeconfig(), "--audit-log", log)
		first, rest, _ := strings.Cut(out, "\n")
		want := regexp.MustCompile(`^LOST \.data\.foo: bob's "bob" \(\d\d:\d\d:\d\d, kubectl-patch\) overwritten by alice's kubectl edit \(\d\d:\d\d:\d\d\) with "alice"; now "alice" \(live\)$`)
		if code != 1 || !want.MatchString(first) {
			t.Errorf("exit %d, first line %q", code, first)
		}
		_, table, _ := strings.Cut(rest, "\nRV ")
		table, _, _ = strings.Cut("RV "+table, "\n\n")
		if strings.Count(table, "\n") != 3 || strings.Contains(table, "kubectl/") {
			t.Errorf("table:\n%s", table)
		}
		for _, line := range strings.Split(table, "\n") {
			if utf8.RuneCountInString(line) > 80 {
				t.Errorf("a table line wider than 80 columns: %q", line)
			}
		}
		wide, _, _ := runBinary(t, "", "history", "cm/race", "--kubeconfig", c.Kubeconfig(), "--audit-log", log, "--wide")
		if !strings.Contains(wide, "USER AGENT") || !strings.Contains(wide, "kubectl/") {
			t.Errorf("--wide:\n%s", wide)
		}
		bounded, _, _ := runBinary(t, "", "history", "cm/race", "--kubeconfig", c.Kubeconfig(), "--audit-log", log,
			"--since", "2000-01-01T00:00:00Z", "--until", "2000-01-02T00:00:00Z")
		if !strings.Contains(bounded, "0 versions before --since and 3 after --until not shown") {
			t.Errorf("--since, --until:\n%s", bounded)
		}
		if _, stderr, code := runBinary(t, "", "history", "cm/race", "--kubeconfig", c.Kubeconfig(), "--audit-log", log, "--since", "yesterday"); code != 2 || !strings.Contains(stderr, "--since") {
			t.Errorf("--since yesterday: exit %d, %s", code, stderr)
		}
		help, _, _ := runBinary(t, "", "history", "--help")
		for _, want := range []string{"Examples:", "kedit history configmap/app-config", "Audit levels: writes (create, update, patch, delete) must be logged at\nRequestResponse",
			"3 inconclusive"} {
			if !strings.Contains(help, want) {
				t.Errorf("history --help lacks %q:\n%s", want, help)
			}
		}
	})

	t.Run("logs cut short or broken", func(t *testing.T) {
		historyRun(t, whole, "cm/calm", 2, "--audit-log", log)
		text, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		zw.Write(text)
		zw.Close()
		gz := zb.Bytes()

		cutGz := filepath.Join(dir, "audit-cut.log.gz")
		os.WriteFile(cutGz, gz[:len(gz)-300], 0o600)
		lines := strings.SplitAfter(strings.TrimSuffix(string(text), "\n"), "\n")
		last := lines[len(lines)-1]
		cutLine := filepath.Join(dir, "audit-being-written.log")
		os.WriteFile(cutLine, append(append([]byte(nil), text...), last[:len(last)/2]...), 0o600)
		cutAt := len(lines) + 1
		for _, f := range []string{cutGz, cutLine} {
			rep, stderr, code := historyRun(t, whole, "cm/race", 3, "--audit-log", f)
			if code != 1 || len(rep.LostUpdates) != 1 || len(rep.Coverage.Partial) != 1 || !strings.Contains(stderr, f+":") ||
				!strings.Contains(stderr, "the history is partial") {
				t.Errorf("%s, cm/race: exit %d, lost %v, partial %q, stderr %q; want exit 1, the loss and a warning", f, code,
					lostPaths(rep.LostUpdates), rep.Coverage.Partial, stderr)
			}
			rep, _, code = historyRun(t, whole, "cm/calm", 2, "--audit-log", f)
			if code != 3 || len(rep.Coverage.Partial) != 1 {
				t.Errorf("%s, cm/calm: exit %d, coverage %+v; want 3, partial", f, code, rep.Coverage)
			}
		}
		if _, stderr, _ := runBinary(t, "", "history", "cm/calm", "--kubeconfig", c.Kubeconfig(), "--audit-log", cutLine); !strings.Contains(stderr,
			cutLine+":"+itoa(cutAt)+": the last line is cut short") {
			t.Errorf("the cut line is not named at line %d: %s", cutAt, stderr)
		}
		// The object view reads a log cut short up to the cut, and says so.
		env := newKeditEnv(t, "true")
		env.kubeconfig = c.Kubeconfig()
		term := env.run(t, 120, 30, "configmap/race", "--audit-log", cutLine)
		term.waitFor(screenWait, "ConfigMap/race", "foo: alice")
		term.send("t")
		term.waitFor(screenWait, "audit log: the log ends early: partial; 1 lost update, 0 fights", "LOST")

		if out, _, code := runBinary(t, "", "history", "cm/calm", "--kubeconfig", c.Kubeconfig(), "--audit-log", log); code != 0 || !strings.HasPrefix(out, "OK: ") {
			t.Errorf("cm/calm on the whole log: exit %d\n%s", code, out)
		}

		corrupt := append([]byte(nil), gz...)
		for i := len(corrupt) / 2; i < len(corrupt)/2+32; i++ {
			corrupt[i] ^= 0x55
		}
		corruptGz := filepath.Join(dir, "audit-corrupt.log.gz")
		os.WriteFile(corruptGz, corrupt, 0o600)
		mixed := filepath.Join(dir, "audit-mixed.log")
		half := len(lines) / 2
		os.WriteFile(mixed, []byte(strings.Join(lines[:half], "")+"E1128 05:49:20.000000 server.go:42] not an event\n"+strings.Join(lines[half:], "")), 0o600)
		var events []any
		for _, l := range lines {
			var ev any
			json.Unmarshal([]byte(l), &ev)
			events = append(events, ev)
		}
		prettyJSON, _ := json.MarshalIndent(events, "", "  ")
		pretty := filepath.Join(dir, "gcloud.json")
		os.WriteFile(pretty, prettyJSON, 0o600)
		empty := filepath.Join(dir, "audit-empty.log")
		os.WriteFile(empty, nil, 0o600)
		for f, want := range map[string]string{corruptGz: corruptGz + ":", mixed: mixed + ":" + itoa(half+1) + ": not an audit log line",
			empty:  empty + " is empty: it holds no audit event",
			pretty: pretty + ":1: not an audit log line: a JSON document over many lines"} {
			_, stderr, code := runBinary(t, "", "history", "cm/calm", "--kubeconfig", c.Kubeconfig(), "--audit-log", f)
			if code != 2 || !strings.Contains(stderr, want) {
				t.Errorf("%s: exit %d, stderr %q; want 2 and %q", f, code, stderr, want)
			}
			if f == pretty && !strings.Contains(stderr, "one event a line: pipe it through jq -c") {
				t.Errorf("no jq -c hint: %s", stderr)
			}
			if f == corruptGz && (!strings.Contains(stderr, "the gzip stream is corrupt") || strings.Contains(stderr, "not an audit log line")) {
				t.Errorf("a corrupt gzip is not named as one: %s", stderr)
			}
		}
		_, stderr, code := runBinary(t, "", "--kubeconfig", c.Kubeconfig(), "configmap/calm", "--audit-log", corruptGz)
		if code != 1 || !strings.Contains(stderr, "--audit-log") || !strings.Contains(stderr, corruptGz+":") {
			t.Errorf("the object view with a corrupt log: exit %d, stderr %q", code, stderr)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
