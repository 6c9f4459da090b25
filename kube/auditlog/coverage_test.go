package auditlog

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kedit/kedit/model/history"
)

// stageLine is an API server's audit event line of a request on
// configmap r1 at stage.
func stageLine(id, stage, verb string) string {
	return fmt.Sprintf(`{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"%s","stage":"%s","requestURI":"/api/v1/namespaces/default/configmaps/r1","verb":"%s","user":{"username":"alice"},"sourceIPs":["127.0.0.1"],"userAgent":"kubectl/v1.33.1","objectRef":{"resource":"configmaps","namespace":"default","name":"r1","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-07T09:00:00.000000Z","stageTimestamp":"2026-12-07T09:00:00.000000Z"}`+"\n",
		id, stage, verb)
}

// TestRequestsLoggedOnlyAsReceived: a log whose policy omits every stage
// but RequestReceived holds the object's requests, not their outcome: no
// error (the object is in it), but every one counted unfinished, and the
// history inconclusive. A request whose answer is in the log, read
// before or after it was received (rotated files in any order), is not.
func TestRequestsLoggedOnlyAsReceived(t *testing.T) {
	m, _ := MatchType("cm", "default", "r1")
	var text string
	for i, verb := range []string{"create", "get", "patch", "get", "update"} {
		text += stageLine(fmt.Sprint("id-", i), "RequestReceived", verb)
	}
	res, err := Read([]string{write(t, "received.log", text, false)}, nil, m)
	if err != nil {
		t.Fatalf("a log of requests only received: %v", err)
	}
	h := res.Analyze()
	if res.Unfinished != 5 || h.Coverage.Unfinished != 5 || h.Coverage.Judged() || len(h.Versions) != 0 {
		t.Fatalf("unfinished %d, coverage %+v", res.Unfinished, h.Coverage)
	}
	if lines := strings.Join(h.Coverage.Lines(), "\n"); !strings.Contains(lines, "5 requests of the object logged only as received (the RequestReceived stage, with no later one)") {
		t.Errorf("coverage lines %q", lines)
	}
	rep := h.Report(history.ReportObject{Resource: "configmaps", Namespace: "default", Name: "r1"})
	if text := rep.Text(); rep.Conclusive() || strings.Contains(text, "OK:") || !strings.HasPrefix(text, "INCONCLUSIVE: 5 requests") {
		t.Errorf("report:\n%s", text)
	}

	// Each stage logged, the answer in the newer file read first.
	older := write(t, "audit.log.1", stageLine("id-9", "RequestReceived", "get"), false)
	newer := write(t, "audit.log", stageLine("id-9", "ResponseComplete", "get"), false)
	res, err = Read([]string{newer, older}, nil, m)
	if err != nil || res.Unfinished != 0 {
		t.Errorf("a request answered, its files newest first: %v, unfinished %d", err, res.Unfinished)
	}
}

// TestEmptyLogSaysSo: an empty file says it is empty, not that it holds
// no event of the object; among others, it is named as empty.
func TestEmptyLogSaysSo(t *testing.T) {
	m, _ := MatchType("cm", "default", "r1")
	empty := write(t, "audit.log", "", false)
	emptyGz := write(t, "audit.log.gz", "", true)
	for _, f := range []string{empty, emptyGz} {
		_, err := Read([]string{f}, nil, m)
		var ne *NoEventsError
		if !errors.As(err, &ne) || err.Error() != f+" is empty: it holds no audit event" {
			t.Errorf("%s: %v", f, err)
		}
	}
	other := write(t, "other.log", strings.ReplaceAll(stageLine("id-1", "ResponseComplete", "get"), "r1", "r2"), false)
	_, err := Read([]string{other, empty}, nil, m)
	if err == nil || !strings.HasSuffix(err.Error(), "("+empty+" is empty)") {
		t.Errorf("an empty log among others: %v", err)
	}
}
