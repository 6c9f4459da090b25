package e2e

import (
	"encoding/json"
	"net"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/auditlog/vltest"
	"github.com/kedit/kedit/model/history"
)

// shipped sends a real API server's audit log to a real VictoriaLogs as
// the README's Fluent Bit and Vector configurations send it: each Event
// line to /insert/jsonline, stageTimestamp as _time, the bodies kept as
// JSON. It returns the engine's URL for --audit-log.
func shipped(t *testing.T, log string) string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	vl := vltest.Start(t)
	vl.Insert(t, data, url.Values{"_time_field": {"stageTimestamp"}, "preserve_json_keys": {"requestObject,responseObject"},
		"_stream_fields": {"objectRef.resource,objectRef.namespace"}})
	return "victorialogs://" + vl.Addr
}

// withoutReadCount is a report without the count of reads: the engine is
// asked only for the writers' reads of the collection, the file holds
// everyone's.
func withoutReadCount(r history.Report) history.Report {
	r.Coverage.Reads = 0
	return r
}

// TestHistoryFromVictoriaLogsAsFromTheFile: a real API server's audit
// log of kubectl races (alice's kubectl edit overwriting bob's patch: a
// lost update; then edits each made on the latest: nothing), shipped to a
// real VictoriaLogs, gives the real kedit binary the report of the file:
// the same versions, findings, coverage and exit status, in text and in
// --json; the file and the engine given together too; and the timeline
// of `kedit configmap/race --audit-log URL` in tmux. --debug says each
// query and how many events came back, and the token never; an engine
// that does not answer is exit 2 naming its URL.
func TestHistoryFromVictoriaLogsAsFromTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test: needs a real API server; not run with -short")
	}
	e := newAuditEnv(t)
	e.editRace("race")
	e.sequentialEdits("calm")
	wantRace, raceCode := e.history("cm/race", 3)
	wantCalm, calmCode := e.history("cm/calm", 4)
	if raceCode != 1 || calmCode != 0 {
		t.Fatalf("the file: race exit %d, calm exit %d; want 1 and 0", raceCode, calmCode)
	}
	engine := shipped(t, e.c.AuditLog())
	base := []string{"--kubeconfig", e.c.Kubeconfig()}
	for _, c := range []struct {
		obj  string
		want history.Report
		code int
	}{{"cm/race", wantRace, raceCode}, {"cm/calm", wantCalm, calmCode}} {
		for _, logs := range [][]string{{engine}, {e.c.AuditLog(), engine}} {
			var args []string
			for _, l := range logs {
				args = append(args, "--audit-log", l)
			}
			out, stderr, code := runBinary(t, "", append(append([]string{"history", c.obj, "--json"}, base...), args...)...)
			var got history.Report
			if err := json.Unmarshal([]byte(out), &got); err != nil || code != c.code {
				t.Fatalf("%s from %v: exit %d (the file's %d), %v\n%s\n%s", c.obj, logs, code, c.code, err, out, stderr)
			}
			if !reflect.DeepEqual(withoutReadCount(got), withoutReadCount(c.want)) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(c.want)
				t.Errorf("%s from %v:\n%s\nthe file:\n%s", c.obj, logs, g, w)
			}
			text, _, _ := runBinary(t, "", append(append([]string{"history", c.obj}, base...), args...)...)
			fileText, _, _ := runBinary(t, "", append([]string{"history", c.obj, "--audit-log", e.c.AuditLog()}, base...)...)
			if text != fileText {
				t.Errorf("%s from %v, the text:\n%s\nthe file's:\n%s", c.obj, logs, text, fileText)
			}
		}
	}

	// The timeline reads the same engine.
	env := newKeditEnv(t, "true")
	env.kubeconfig = e.c.Kubeconfig()
	term := env.run(t, 120, 30, "configmap/race", "--audit-log", engine)
	term.waitFor(screenWait, "ConfigMap/race", "foo: alice")
	term.send("t")
	term.waitFor(screenWait, "audit log: 1 lost update, 0 fights", "LOST", "from the audit log: .data.foo")

	_, stderr, code := runBinary(t, "", append([]string{"history", "cm/race", "--debug", "--audit-token", "t0ken-xyz", "--audit-log", engine}, base...)...)
	if code != 1 || !strings.Contains(stderr, engine+": the object's events: ") || !strings.Contains(stderr, engine+": the writers' reads: ") ||
		!strings.Contains(stderr, " bytes in ") || strings.Contains(stderr, "xyz") {
		t.Errorf("--debug: exit %d\n%s", code, stderr)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "victorialogs://ann:s3cret-xyz@" + l.Addr().String()
	l.Close()
	_, stderr, code = runBinary(t, "", append([]string{"history", "cm/race", "--audit-log", gone}, base...)...)
	if code != 2 || !strings.Contains(stderr, "kedit history: victorialogs://ann:xxxxx@"+l.Addr().String()+": cannot ask the log engine: ") || strings.Contains(stderr, "xyz") {
		t.Errorf("an engine that does not answer: exit %d, %s", code, stderr)
	}
}
