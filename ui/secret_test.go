package ui

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

var dbSecretRef = model.ObjectRef{
	Context:  "kind-dev",
	Resource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"},
	Kind:     "Secret", Namespace: "default", Name: "db",
}

// The plaintexts the tests look for on screen: none may show before R.
const (
	testPassword = "hunter2-plaintext"
	pemFirst     = "MIIBpemFIRSTLINEplaintext"
	pemLast      = "BAMCpemLASTLINEplaintext"
)

// testPEM is a certificate's shape: its first and last lines far enough
// apart for a line merge.
var testPEM = "-----BEGIN CERTIFICATE-----\n" + pemFirst + "\n" +
	"BAMCMC8xLTArBgNVBAMMJGtlZGl0LXRlc3QtY2EtZG8tbm90LXVzZS1pbi1wcm9k\n" +
	"MB4XDTI2MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFowLzEtMCsGA1UEAwwka2Vk\n" +
	"aXQtdGVzdC1jYS1kby1ub3QtdXNlLWluLXByb2QwWTATBgcqhkjOPQIBBggqhkjO\n" +
	"PQMBBwNCAAT0lzGGsGdz2VdKxSBTZ0i9rDT5ulf7Q4MbhdSZr3GXzfOOd3jJ7MUw\n" +
	pemLast + "\n-----END CERTIFICATE-----\n"

// secretValues are db's values, plain.
func secretValues() map[string]string {
	return map[string]string{"password": testPassword + "\n", "tls.crt": testPEM, "keystore": "\x00\x01\xfe\xff"}
}

// secretAt builds Secret default/db at rv holding values (plain), encoded
// as the API server holds them, last written by manager.
func secretAt(rv string, values map[string]string, manager string) *unstructured.Unstructured {
	data := map[string]any{}
	fields := map[string]any{}
	for k, v := range values {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
		fields["f:"+k] = map[string]any{}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
		"metadata": map[string]any{
			"name": "db", "namespace": "default", "resourceVersion": rv, "uid": "u-2",
			"managedFields": []any{map[string]any{
				"manager": manager, "operation": "Update", "apiVersion": "v1", "time": t0.Format(time.RFC3339),
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": fields},
			}},
		},
		"data": data,
	}}
}

// newSecretApp opens Secret db at rv 812 in an app of the given size.
func newSecretApp(t *testing.T, w, h int, runner *fakeRunner) App {
	t.Helper()
	sess := model.NewSession(dbSecretRef)
	base := secretAt("812", secretValues(), "kubectl-create")
	if _, _, err := sess.Handle(model.Opened{Object: base, At: t0}); err != nil {
		t.Fatal(err)
	}
	if runner != nil && runner.server == nil {
		runner.server = base.DeepCopy()
	}
	cfg := Config{Object: &Object{Session: sess}}
	if runner != nil {
		cfg.Object.Runner = runner
	}
	return drive(t, New(cfg), tea.WindowSizeMsg{Width: w, Height: h})
}

// theirsSecretWrite changes db on the server (values given plain) as
// kubectl would, and lets the watch report it.
func theirsSecretWrite(t *testing.T, m App, r *fakeRunner, values map[string]string) App {
	t.Helper()
	rv, _ := strconv.Atoi(r.server.GetResourceVersion())
	obj := secretAt(strconv.Itoa(rv+3), values, "kubectl-patch")
	r.server = obj
	return drive(t, m, shownWatchEvent(kube.WatchEvent{Type: kube.ObjectModified, Object: obj.DeepCopy(), ResourceVersion: obj.GetResourceVersion()}))
}

// secretConflict: mine changes the PEM's first line and the password,
// theirs the PEM's first line and its last: the first line collides, the
// last merges, the password is mine's alone.
func secretConflict(t *testing.T, w, h int) App {
	t.Helper()
	r := &fakeRunner{}
	m := edit(t, newSecretApp(t, w, h, r), pemFirst, "MINEfirstline")
	m = edit(t, m, testPassword, "mine-password")
	theirs := secretValues()
	theirs["tls.crt"] = strings.NewReplacer(pemFirst, "THEIRSfirstline", pemLast, "THEIRSlastline").Replace(testPEM)
	m = theirsSecretWrite(t, m, r, theirs)
	return drive(t, m, keys("s")...)
}

// plaintexts are db's values as they must not show while masked, decoded
// and encoded.
func plaintexts() []string {
	out := []string{testPassword, pemFirst, pemLast, "mine-password", "MINEfirstline", "THEIRSfirstline", "THEIRSlastline", "AAH+/w=="}
	for _, s := range []string{testPassword, testPEM} {
		out = append(out, base64.StdEncoding.EncodeToString([]byte(s))[:12])
	}
	return out
}

func showsNone(t *testing.T, screen string, what string) {
	t.Helper()
	for _, p := range plaintexts() {
		if strings.Contains(screen, p) {
			t.Errorf("%s shows %q before R:\n%s", what, p, screen)
		}
	}
}

// TestSecretGolden draws a Secret's screens, masked and revealed.
func TestSecretGolden(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) App
	}{
		{"object", func(t *testing.T, w, h int) App { return newSecretApp(t, w, h, &fakeRunner{}) }},
		{"object_revealed", func(t *testing.T, w, h int) App {
			return drive(t, newSecretApp(t, w, h, &fakeRunner{}), keys("R")...)
		}},
		{"draft_diff", func(t *testing.T, w, h int) App {
			m := edit(t, newSecretApp(t, w, h, &fakeRunner{}), testPassword, "mine-password")
			return drive(t, m, keys("d")...)
		}},
		{"conflict", secretConflict},
		{"conflict_revealed", func(t *testing.T, w, h int) App {
			return drive(t, secretConflict(t, w, h), keys("R")...)
		}},
	}
	for _, c := range cases {
		for _, s := range sizes {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				m := c.build(t, s.w, s.h)
				out := plain(m)
				if n := strings.Count(out, "\n") + 1; n != s.h {
					t.Errorf("the screen has %d lines, want %d", n, s.h)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > s.w {
						t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, s.w, l)
					}
				}
				if !strings.HasSuffix(c.name, "_revealed") {
					showsNone(t, out, c.name)
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestSecretValuesShowOnlyOnR: the object view, its diff and the conflict
// view (list and columns) mask a Secret's values until R, and hide them
// again on R; the editors always show them decoded.
func TestSecretValuesShowOnlyOnR(t *testing.T) {
	m := newSecretApp(t, 120, 40, &fakeRunner{})
	showsNone(t, plain(m), "the object view")
	if !strings.Contains(plain(m), "values hidden (R reveals)") || !strings.Contains(plain(m), "password: "+common.SecretMask) {
		t.Errorf("the object view does not say the values are hidden:\n%s", plain(m))
	}
	m = drive(t, m, keys("R")...)
	if s := plain(m); !strings.Contains(s, testPassword) || !strings.Contains(s, pemFirst) || !strings.Contains(s, "keystore: AAH+/w== "+diff.BinaryComment) {
		t.Errorf("R does not reveal the values:\n%s", s)
	}
	m = drive(t, m, keys("R")...)
	showsNone(t, plain(m), "the object view after R twice")

	// The blame gutter beside the live object: masked alike.
	m = drive(t, m, keys("b")...)
	if !m.object.Blaming() {
		t.Fatal("b does not blame")
	}
	showsNone(t, plain(m), "the blame")
	m = drive(t, m, keys("R")...)
	if s := plain(m); !strings.Contains(s, testPassword) {
		t.Errorf("R does not reveal the values beside the blame:\n%s", s)
	}
	m = drive(t, m, keys("R", "b")...)

	// The editors show the values, decoded: editing needs them.
	text, err := m.Session().DraftText()
	if err != nil || !strings.Contains(text, "  password: |\n    "+testPassword+"\n") || !strings.Contains(text, "    "+pemFirst+"\n") {
		t.Errorf("the editor's text:\n%s", text)
	}
	m = drive(t, m, keys("i")...)
	if s := plain(m); !strings.Contains(s, testPassword) {
		t.Errorf("the in-app editor hides the value:\n%s", s)
	}
	m = drive(t, m, keys("esc")...)

	// The diff is masked line for line: the changed key shows, not its value.
	m = edit(t, m, testPassword, "mine-password")
	m = drive(t, m, keys("d")...)
	s := plain(m)
	showsNone(t, s, "the diff")
	if !strings.Contains(s, "-     "+common.SecretMask) || !strings.Contains(s, "+     "+common.SecretMask) {
		t.Errorf("the diff does not show the changed value's line masked:\n%s", s)
	}

	c := secretConflict(t, 120, 40)
	showsNone(t, plain(c), "the conflict view")
	if !strings.Contains(plain(c), ".data.tls.crt line 2") || !strings.Contains(plain(c), "a Secret: values hidden (R reveals)") {
		t.Errorf("the conflict view does not name the colliding line:\n%s", plain(c))
	}
	// Every entry, merged changes included.
	for range 4 {
		c = drive(t, c, keys("n")...)
		showsNone(t, plain(c), "the conflict view's entries")
	}
	c = drive(t, c, keys("g", "R")...)
	if s := plain(c); !strings.Contains(s, "MINEfirstline") || !strings.Contains(s, "THEIRSfirstline") {
		t.Errorf("R does not reveal the conflict's values:\n%s", s)
	}
	c = drive(t, c, keys("R")...)
	showsNone(t, plain(c), "the conflict view after R twice")
}

// TestSecretConflictMergesDecoded: the PEM's last line, changed on the
// server, and its first, changed in the draft, merge cleanly; the
// resubmit sends the merged PEM encoded once, with every other value as it
// was.
func TestSecretConflictMergesDecoded(t *testing.T) {
	r := &fakeRunner{}
	m := edit(t, newSecretApp(t, 120, 40, r), pemFirst, "MINEfirstline")
	theirs := secretValues()
	theirs["tls.crt"] = strings.Replace(testPEM, pemLast, "THEIRSlastline", 1)
	m = theirsSecretWrite(t, m, r, theirs)
	m = drive(t, m, keys("s")...)
	if s := plain(m); !strings.Contains(s, "clean rebase: 2 changes merged") || !strings.Contains(s, ".data.tls.crt line 2") || !strings.Contains(s, ".data.tls.crt line 7") {
		t.Fatalf("not a clean line merge:\n%s", s)
	}
	m = drive(t, m, keys("s")...)
	if m.Session().State() != model.StateSaved {
		t.Fatalf("state %s, status %q", m.Session().State(), m.status.Text())
	}
	want := strings.NewReplacer(pemFirst, "MINEfirstline", pemLast, "THEIRSlastline").Replace(testPEM)
	data := r.object().Object["data"].(map[string]any)
	for k, v := range map[string]string{"tls.crt": want, "password": testPassword + "\n", "keystore": "\x00\x01\xfe\xff"} {
		if data[k] != base64.StdEncoding.EncodeToString([]byte(v)) {
			raw, _ := base64.StdEncoding.DecodeString(data[k].(string))
			t.Errorf("%s saved as %q, want %q", k, raw, v)
		}
	}
}

// TestSecretStatusNeverSaysAValue: a save the server stored otherwise
// says which field, never the value; a refused draft says its line.
func TestSecretStatusNeverSaysAValue(t *testing.T) {
	r := &fakeRunner{stored: func(o *unstructured.Unstructured) {
		// Admission rewrote the password.
		_ = unstructured.SetNestedField(o.Object, base64.StdEncoding.EncodeToString([]byte("server-"+testPassword)), "data", "password")
	}}
	m := edit(t, newSecretApp(t, 120, 40, r), testPassword, "mine-password")
	m = drive(t, m, keys("s")...)
	s := m.status.Text()
	if !strings.Contains(s, ".data.password is otherwise on the server") {
		t.Errorf("status %q", s)
	}
	showsNone(t, s, "the status bar")
	if strings.Contains(s, "server-") {
		t.Errorf("status %q says the stored value", s)
	}

	m = newSecretApp(t, 120, 40, &fakeRunner{})
	m = edit(t, m, "  password: |\n    "+testPassword, "  password: \""+testPassword)
	if s := plain(m); !strings.Contains(s, "cannot be saved: ") {
		t.Errorf("no refusal:\n%s", s)
	}
	showsNone(t, plain(m)+m.status.Text(), "a refused draft")
}
