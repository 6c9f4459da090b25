package e2e

import (
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kedit/kedit/kube/kubetest"
)

// Secrets and credentials through the real binary: what the
// debug log, the timeline export, the draft directory and the terminal
// hold after a Secret is edited, and what a kubeconfig's credentials
// become when the server is not there.

// TestE2ESecretsAndCredentialsNeverPrinted edits a Secret with --debug and
// --timeline-out, through $EDITOR, and opens the timeline and the save's
// diff: neither the Secret's values (as the object holds them, base64, nor
// decoded) nor the kubeconfig's token are in the debug log, the timeline
// export, the draft directory (a Secret's draft lives in memory without
// --allow-secret-drafts) or anything kedit wrote to the terminal (its
// values are masked until R); no $EDITOR file is left behind. A kubeconfig whose server is not there, holding a token and a client key,
// prints neither.
func TestE2ESecretsAndCredentialsNeverPrinted(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	old, mine := "old-s3cr3t-"+randomSuffix(), "new-s3cr3t-"+randomSuffix()
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "vault", "--from-literal=token="+old)
	oldB64, mineB64 := base64.StdEncoding.EncodeToString([]byte(old)), base64.StdEncoding.EncodeToString([]byte(mine))
	// $EDITOR gets the Secret decoded.
	editor := editorScript(t, `sed -i 's/`+old+`/`+mine+`/' "$1"`)
	env := newKeditEnv(t, editor)
	logs := t.TempDir()
	debug, timeline := filepath.Join(logs, "debug.log"), filepath.Join(logs, "timeline.jsonl")
	term, raw := env.runRaw(t, 200, 40, "-n", ns,
		"--debug="+debug, "--timeline-out="+timeline, "secret/vault")
	term.waitFor(screenWait, "Secret/vault")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	// The timeline, and the diff of the save: the value masked.
	term.send("t")
	term.waitFor(screenWait, "timeline of Secret/vault")
	term.send("Enter")
	term.waitFor(screenWait, "changed: .data.token", "a Secret: its values are shown as ••••")
	term.send("Escape")
	term.waitGone(screenWait, "changed: .data.token")
	term.send("t")
	term.waitFor(screenWait, "; e edits a draft")
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	if got := secretValue(t, ns); got != mine {
		t.Fatalf("the Secret holds %q after the save", got)
	}
	token := kubeconfigToken(t, env.kubeconfig)
	secrets := []string{old, mine, oldB64, mineB64}
	for _, f := range []string{debug, timeline} {
		b, err := os.ReadFile(f)
		if err != nil || len(b) == 0 {
			t.Fatalf("%s is empty or missing (%v): nothing was checked", f, err)
		}
		for _, s := range append(secrets, token) {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds %q", filepath.Base(f), s)
			}
		}
	}
	_ = filepath.Walk(env.state, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			for _, s := range secrets {
				if bytes.Contains(b, []byte(s)) {
					t.Errorf("the draft directory's %s holds the Secret's value", p)
				}
			}
		}
		return nil
	})
	if entries, _ := os.ReadDir(filepath.Join(env.runtime, "kedit")); len(entries) != 0 {
		t.Errorf("$EDITOR's files left behind: %v", entries)
	}
	// The object view masks a Secret's values until R, which was never
	// pressed: nothing kedit wrote to the terminal holds them, nor the
	// token.
	if b, _ := os.ReadFile(raw); len(b) == 0 {
		t.Error("nothing was captured from the terminal")
	} else {
		for _, s := range append(secrets, token) {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%q reached the terminal", s)
			}
		}
	}

	// A kubeconfig that points nowhere, with credentials of its own.
	cfg, err := clientcmd.LoadFromFile(kubetest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	fakeToken, fakeKey := "tok-"+randomSuffix()+randomSuffix(), "KEY"+randomSuffix()+randomSuffix()
	for _, c := range cfg.Clusters {
		c.Server = "https://127.0.0.1:1"
	}
	for _, a := range cfg.AuthInfos {
		a.Token = fakeToken
	}
	nowhere := filepath.Join(t.TempDir(), "nowhere.kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, nowhere); err != nil {
		t.Fatal(err)
	}
	withKey := filepath.Join(t.TempDir(), "key.kubeconfig")
	for _, a := range cfg.AuthInfos {
		a.Token = ""
		a.ClientCertificateData = []byte("-----BEGIN CERTIFICATE-----\n" + fakeKey + "\n-----END CERTIFICATE-----\n")
		a.ClientKeyData = []byte("-----BEGIN PRIVATE KEY-----\n" + fakeKey + "\n-----END PRIVATE KEY-----\n")
	}
	if err := clientcmd.WriteToFile(*cfg, withKey); err != nil {
		t.Fatal(err)
	}
	for _, kc := range []string{nowhere, withKey} {
		dbg := filepath.Join(t.TempDir(), "debug.log")
		cmd := exec.Command(keditBinary(t), "--kubeconfig", kc, "--debug="+dbg, "-n", ns, "secret/vault")
		cmd.Env = append(os.Environ(), "KUBECACHEDIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		out, _ := cmd.CombinedOutput()
		logged, _ := os.ReadFile(dbg)
		for _, s := range []string{fakeToken, fakeKey} {
			if bytes.Contains(out, []byte(s)) || bytes.Contains(logged, []byte(s)) {
				t.Errorf("kedit printed or logged a credential of %s: %q", filepath.Base(kc), out)
			}
		}
		if len(out) == 0 {
			t.Errorf("kedit said nothing with %s", filepath.Base(kc))
		}
	}
}

// secretValue is the Secret vault's token, decoded.
func secretValue(t *testing.T, ns string) string {
	t.Helper()
	out := kubetest.MustKubectl(t, "-n", ns, "get", "secret", "vault", "-o", "jsonpath={.data.token}")
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(out))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// kubeconfigToken is the bearer token of kubeconfig's current user.
func kubeconfigToken(t *testing.T, kubeconfig string) string {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil || cfg.BearerToken == "" {
		t.Fatalf("no token in %s: %v", kubeconfig, err)
	}
	return cfg.BearerToken
}
