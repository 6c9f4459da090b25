package auditlog

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/model/history"
)

// TestGKEFixture reads the GKE fixture (built from Google's published
// format; see testdata/README.md) and finds alice's lost update of bob's
// change, the refused update left out.
func TestGKEFixture(t *testing.T) {
	m, err := MatchType("cm", "shop", "app-config")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read([]string{"testdata/gke-race.jsonl"}, nil, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resource != "configmaps" || res.Group != "" || res.Namespace != "shop" {
		t.Errorf("resource %q group %q namespace %q", res.Resource, res.Group, res.Namespace)
	}
	h := history.Analyze(res.Events)
	if len(h.Versions) != 3 {
		t.Fatalf("%d versions, want 3 (create, bob, alice)", len(h.Versions))
	}
	if len(h.LostUpdates) != 1 {
		t.Fatalf("lost updates %+v", h.LostUpdates)
	}
	l := h.LostUpdates[0]
	if l.Path.String() != ".data.foo" || l.Value.Value != "bob" || h.Versions[l.OverwrittenBy].Client.User != "alice@example.com" ||
		h.Versions[l.OverwrittenBy].Client.UserAgent != "kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0" {
		t.Errorf("lost update %+v", l)
	}
}

func write(t *testing.T, name, text string, gz bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	data := []byte(text)
	if gz {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
		data = b.Bytes()
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBadLogsSayFileAndLine checks that a file that is no audit log, and a
// line about the object that is not audit JSON, are errors naming the
// file and line, gzip or not; and that a missing file is an error.
func TestBadLogsSayFileAndLine(t *testing.T) {
	m, _ := MatchType("cm", "shop", "app-config")
	fixture, err := os.ReadFile("testdata/gke-race.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, gz := range []bool{false, true} {
		yaml := write(t, "notes.yaml", "apiVersion: v1\nkind: ConfigMap\n", gz)
		_, err := Read([]string{yaml}, nil, m)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.File != yaml || fe.Line != 1 || !strings.Contains(err.Error(), yaml+":1:") {
			t.Errorf("gzip %v: a YAML file: %v", gz, err)
		}
		// Check says it before anything is read, and takes a real log.
		if err := Check([]string{write(t, "good.jsonl", string(fixture), gz), yaml}); !errors.As(err, &fe) || fe.File != yaml {
			t.Errorf("gzip %v: Check of a YAML file after a log: %v", gz, err)
		}
		lines := strings.SplitAfter(string(fixture), "\n")
		broken := strings.Join(lines[:3], "") + `{"oops": "app-config"` + "\n" + strings.Join(lines[3:], "")
		p := write(t, "broken.jsonl", broken, gz)
		_, err = Read([]string{p}, nil, m)
		if !errors.As(err, &fe) || fe.Line != 4 {
			t.Errorf("gzip %v: a broken line 4: %v", gz, err)
		}
		other := write(t, "other.jsonl", strings.ReplaceAll(string(fixture), "app-config", "other"), gz)
		_, err = Read([]string{other}, nil, m)
		var ne *NoEventsError
		if !errors.As(err, &ne) || !strings.Contains(err.Error(), "no event of configmaps/app-config") {
			t.Errorf("gzip %v: a log of another object: %v", gz, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.log")
	if _, err := Read([]string{missing}, nil, m); err == nil || !strings.Contains(err.Error(), "missing.log") {
		t.Errorf("a missing file: %v", err)
	}
	if err := Check([]string{missing}); err == nil || !strings.Contains(err.Error(), "missing.log") {
		t.Errorf("Check of a missing file: %v", err)
	}
}

// TestRotatedFilesInAnyOrder splits the fixture into files, one of them
// gzip and one stdin, and reads them in reverse order: the same history.
func TestRotatedFilesInAnyOrder(t *testing.T) {
	m, _ := MatchType("configmaps", "shop", "app-config")
	fixture, _ := os.ReadFile("testdata/gke-race.jsonl")
	lines := strings.SplitAfter(string(fixture), "\n")
	a := write(t, "audit-1.log.gz", strings.Join(lines[:3], ""), true)
	b := strings.Join(lines[3:], "")
	res, err := Read([]string{Stdin, a}, strings.NewReader(b), m)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := Read([]string{"testdata/gke-race.jsonl"}, nil, m)
	h1, h2 := history.Analyze(res.Events), history.Analyze(whole.Events)
	if len(h1.Versions) != len(h2.Versions) || len(h1.LostUpdates) != 1 || len(h2.LostUpdates) != 1 {
		t.Errorf("split: %d versions %d lost; whole: %d versions %d lost", len(h1.Versions), len(h1.LostUpdates), len(h2.Versions), len(h2.LostUpdates))
	}
}

// TestScannerSkipsLinesOfOtherObjects checks the filter before decoding:
// lines naming neither the object nor a list or watch of its resource
// never reach the decoder, whatever they hold.
func TestScannerSkipsLinesOfOtherObjects(t *testing.T) {
	m, _ := MatchType("cm", "shop", "app-config")
	s := newScanner(m)
	text := `{"not":"an event"}` + "\n" +
		`{"verb":"get","objectRef":{"resource":"configmaps","name":"other"}}` + "\n" +
		`{"verb":"list","objectRef":{"resource":"configmaps"}}` + "\n" +
		`{"verb":"get","objectRef":{"resource":"configmaps","name":"app-config"}}` + "\n" +
		`{"verb":"watch","objectRef":{"resource":"secrets"}}` + "\n"
	var got []int64
	err := s.scan(strings.NewReader(text), func(line []byte, n int64) error {
		got = append(got, n)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != 3 || got[1] != 4 {
		t.Errorf("candidate lines %v, want [3 4]", got)
	}
}

func TestMatchType(t *testing.T) {
	for _, c := range []struct {
		typ, resources, group string
		any                   bool
	}{
		{"cm", "configmaps", "", false},
		{"deploy", "deployments", "apps", false},
		{"deployments.apps", "deployments", "apps", false},
		{"widget", "widget widgets", "", true},
		{"widgets.example.com", "widgets widgetss", "example.com", false},
		{"policy", "policies policy policys", "", true},
	} {
		m, err := MatchType(c.typ, "ns", "x")
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(m.Resources, " ")
		for _, r := range strings.Fields(c.resources) {
			if !strings.Contains(" "+got+" ", " "+r+" ") {
				t.Errorf("%s: resources %q lack %q", c.typ, got, r)
			}
		}
		if m.Group != c.group || m.AnyGroup != c.any {
			t.Errorf("%s: group %q any %v", c.typ, m.Group, m.AnyGroup)
		}
	}
}

// longLog is the fixture followed by n events of other ConfigMaps: a log
// long enough that cutting its end leaves the object's events whole.
func longLog(t *testing.T, n int) string {
	t.Helper()
	fixture, err := os.ReadFile("testdata/gke-race.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(fixture), "\n")
	var b strings.Builder
	b.Write(fixture)
	for i := range n {
		b.WriteString(strings.ReplaceAll(lines[i%3], "app-config", fmt.Sprintf("other-%d", i)))
	}
	return b.String()
}

// TestLogsThatEndEarlyOrBreak checks how a log's end and its lines are
// checked, on every line and not only those about the object: a gzip
// stream cut short and a last line cut mid-JSON are read up to the cut
// and reported in Result.Cut with the file and line; a gzip stream
// corrupt within, a line of text among events, and JSON printed over
// many lines (with the jq -c hint) are errors naming the file and line;
// Check says the same of the errors before anything is read.
func TestLogsThatEndEarlyOrBreak(t *testing.T) {
	m, _ := MatchType("cm", "shop", "app-config")
	text := longLog(t, 3000)
	whole := strings.Count(text, "\n")

	gz := write(t, "audit.log.gz", text, true)
	data, _ := os.ReadFile(gz)
	cutGz := filepath.Join(t.TempDir(), "cut.log.gz")
	os.WriteFile(cutGz, data[:len(data)-300], 0o600)
	res, err := Read([]string{cutGz}, nil, m)
	if err != nil {
		t.Fatalf("a gzip stream cut short: %v", err)
	}
	if len(res.Cut) != 1 || !res.Cut[0].Gzip || res.Cut[0].File != cutGz || res.Cut[0].Line < 8 || res.Cut[0].Line > int64(whole) ||
		!strings.Contains(res.Cut[0].Error(), "the gzip stream ends early") {
		t.Errorf("a gzip stream cut short: cut %v", res.Cut)
	}
	if h := history.Analyze(res.Events); len(h.LostUpdates) != 1 {
		t.Errorf("the lines before the cut were not all read: %d lost updates", len(h.LostUpdates))
	}
	if err := Check([]string{cutGz}); err != nil {
		t.Errorf("Check of a gzip stream cut short: %v", err)
	}

	corrupt := append([]byte(nil), data...)
	for i := len(corrupt) / 2; i < len(corrupt)/2+64; i++ {
		corrupt[i] ^= 0x55
	}
	bad := filepath.Join(t.TempDir(), "corrupt.log.gz")
	os.WriteFile(bad, corrupt, 0o600)
	var ce *CorruptError
	var fe *FormatError
	// Named as a corrupt gzip, whether the stream fails first or the
	// garbage it decompressed to does.
	for _, err := range []error{func() error { _, err := Read([]string{bad}, nil, m); return err }(), Check([]string{bad})} {
		if !errors.As(err, &ce) || ce.File != bad || ce.Line <= 1 || !ce.Gzip || !strings.Contains(err.Error(), "the gzip stream is corrupt") {
			t.Errorf("a gzip stream corrupt within: %v", err)
		}
	}

	cutLine := write(t, "audit.log", text+`{"insertId":"fixture-9","protoPayload":{"methodName":"io.k8s.core.v1.configmaps.up`, false)
	res, err = Read([]string{cutLine}, nil, m)
	if err != nil || len(res.Cut) != 1 || res.Cut[0].Gzip || res.Cut[0].Line != int64(whole+1) ||
		!strings.Contains(res.Cut[0].Error(), fmt.Sprintf("%s:%d: the last line is cut short", cutLine, whole+1)) {
		t.Errorf("a last line cut short: %v, cut %v", err, res.Cut)
	}
	noNewline := write(t, "audit.log", strings.TrimSuffix(text, "\n"), false)
	if res, err := Read([]string{noNewline}, nil, m); err != nil || len(res.Cut) != 0 {
		t.Errorf("a whole last line without a newline: %v, cut %v", err, res.Cut)
	}

	lines := strings.SplitAfter(text, "\n")
	mixed := write(t, "audit.log", strings.Join(lines[:2000], "")+"I1128 05:49:20 server started\n"+strings.Join(lines[2000:], ""), false)
	for _, err := range []error{func() error { _, err := Read([]string{mixed}, nil, m); return err }(), Check([]string{mixed})} {
		if !errors.As(err, &fe) || fe.File != mixed || fe.Line != 2001 {
			t.Errorf("a line of text among lines of other objects: %v", err)
		}
	}

	var events []any
	for _, l := range lines[:7] {
		var ev any
		json.Unmarshal([]byte(l), &ev)
		events = append(events, ev)
	}
	pretty, _ := json.MarshalIndent(events, "", "  ")
	pp := write(t, "gcloud.json", string(pretty), false)
	_, err = Read([]string{pp}, nil, m)
	if !errors.As(err, &fe) || fe.Line != 1 || !strings.Contains(err.Error(), "one event a line: pipe it through jq -c") {
		t.Errorf("JSON over many lines: %v", err)
	}
}

// TestJSONPatchTestsAreRead: a JSON Patch's test operations (kedit set
// --if) are the paths its event tested, and a test of
// /metadata/resourceVersion is a precondition like one in the object.
func TestJSONPatchTestsAreRead(t *testing.T) {
	line := func(id, verb, body, rv string) string {
		return `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"` + id + `","stage":"ResponseComplete",` +
			`"requestURI":"/api/v1/namespaces/shop/configmaps/app?fieldManager=kedit","verb":"` + verb + `","user":{"username":"alice"},"userAgent":"kedit",` +
			`"objectRef":{"resource":"configmaps","namespace":"shop","name":"app","apiVersion":"v1"},"responseStatus":{"code":200},` +
			`"requestObject":` + body + `,"responseObject":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"app","namespace":"shop","uid":"u1","resourceVersion":"` + rv + `"},"data":{"foo":"2"}},` +
			`"requestReceivedTimestamp":"2025-03-01T10:00:0` + id + `.000000Z","stageTimestamp":"2025-03-01T10:00:0` + id + `.100000Z"}` + "\n"
	}
	log := write(t, "audit.log", line("1", "patch", `[{"op":"test","path":"/data/foo","value":"1"},{"op":"add","path":"/data/foo","value":"2"}]`, "5")+
		line("2", "patch", `[{"op":"test","path":"/metadata/resourceVersion","value":"5"},{"op":"add","path":"/data/bar","value":"x"}]`, "6")+
		line("3", "patch", `{"data":{"foo":"3"}}`, "7"), false)
	m, err := MatchType("cm", "shop", "app")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read([]string{log}, nil, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 3 {
		t.Fatalf("%d events, want 3", len(res.Events))
	}
	got := [][2]string{}
	for _, ev := range res.Events {
		got = append(got, [2]string{strings.Join(ev.Tests, ","), ev.RequestRV})
	}
	want := [][2]string{{"/data/foo", ""}, {"/metadata/resourceVersion", "5"}, {"", ""}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: tests and resourceVersion %q, want %q", i+1, got[i], want[i])
		}
	}
}
