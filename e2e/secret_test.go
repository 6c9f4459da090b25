package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kedit/kedit/internal/fsutil"
	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// End to end: a Secret through the real binary in tmux against
// localcluster, edited decoded, merged decoded, and nowhere in plain text
// that the user did not ask for.

// The Secret's values: a certificate (multi-line text), a binary keystore
// and a password, each with text that must never show until R.
const (
	e2ePEMFirst  = "MIIBe2eFIRSTpemLINEplaintextAAAA"
	e2ePEMLast   = "e2eLASTpemLINEplaintextZZZZ"
	e2ePassword  = "e2e-hunter2-plaintext"
	e2eUserFirst = "admin"
)

var (
	e2ePEM = "-----BEGIN CERTIFICATE-----\n" + e2ePEMFirst + "\n" +
		"BAMCMC8xLTArBgNVBAMMJGtlZGl0LXRlc3QtY2EtZG8tbm90LXVzZS1pbi1wcm9k\n" +
		"MB4XDTI2MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFowLzEtMCsGA1UEAwwka2Vk\n" +
		"aXQtdGVzdC1jYS1kby1ub3QtdXNlLWluLXByb2QwWTATBgcqhkjOPQIBBggqhkjO\n" +
		"PQMBBwNCAAT0lzGGsGdz2VdKxSBTZ0i9rDT5ulf7Q4MbhdSZr3GXzfOOd3jJ7MUw\n" +
		e2ePEMLast + "\n-----END CERTIFICATE-----\n"
	e2eKeystore = []byte{0x00, 0x01, 0xfe, 0xff, 'k', 'e', 'y', 0x80}
)

// createSecret creates Secret name in ns with the test's values.
func createSecret(t *testing.T, ns, name string) {
	t.Helper()
	_, err := kubetest.Clientset(t).CoreV1().Secrets(ns).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data: map[string][]byte{
			"tls.crt": []byte(e2ePEM), "keystore.jks": e2eKeystore,
			"password": []byte(e2ePassword + "\n"), "user": []byte(e2eUserFirst),
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

func getSecret(t *testing.T, ns, name string) *corev1.Secret {
	t.Helper()
	s, err := kubetest.Clientset(t).CoreV1().Secrets(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plaintexts are the forms of the Secret's values that must not show
// until R: decoded (their distinctive lines) and encoded.
func plaintexts(extra ...string) []string {
	out := append([]string{e2ePEMFirst, e2ePEMLast, e2ePassword}, extra...)
	for _, v := range [][]byte{[]byte(e2ePEM), e2eKeystore, []byte(e2ePassword + "\n")} {
		enc := base64.StdEncoding.EncodeToString(v)
		out = append(out, enc[:min(16, len(enc))])
	}
	return out
}

// holding returns the first of texts that b holds, or "".
func holding(b []byte, texts []string) string {
	for _, s := range texts {
		if bytes.Contains(b, []byte(s)) {
			return s
		}
	}
	return ""
}

// screenGuard captures the terminal's screen and title every 50 ms, from
// now until stop, and fails the test for every capture that holds one of
// texts: the values must not show before R, not even for one frame.
func screenGuard(t *testing.T, term *terminal, texts []string) (stop func()) {
	t.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var seen []string
	captures := 0
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
			screen, _ := exec.Command("tmux", "-L", term.socket, "capture-pane", "-p", "-t", term.name).Output()
			title, _ := exec.Command("tmux", "-L", term.socket, "display", "-p", "-t", term.name, "#{pane_title}").Output()
			mu.Lock()
			captures++
			if s := holding(append(screen, title...), texts); s != "" && len(seen) < 3 {
				seen = append(seen, s+" in:\n"+string(screen)+"\ntitle: "+string(title))
			}
			mu.Unlock()
		}
	})
	return func() {
		t.Helper()
		close(done)
		wg.Wait()
		for _, s := range seen {
			t.Errorf("a screen shows a Secret's value before R: %s", s)
		}
		if captures == 0 {
			t.Error("no screen was captured")
		}
	}
}

// noFileHolds fails the test for each file under dirs that holds one of
// texts.
func noFileHolds(t *testing.T, texts []string, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, _ := os.ReadFile(path)
			if s := holding(b, texts); s != "" {
				t.Errorf("%s holds %q", path, s)
			}
			return nil
		})
	}
}

// TestE2ESecretEditedDecoded: e opens the Secret decoded (the PEM as a
// block, the keystore base64 and marked), an edit of another key saves,
// and the PEM, the keystore and the password are byte for byte as they
// were on the server. The screens, the terminal's title, the debug log and
// the draft directory never hold a value until R; R shows them.
func TestE2ESecretEditedDecoded(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createSecret(t, ns, "db")
	record := filepath.Join(t.TempDir(), "editor-file")
	env := newKeditEnv(t, editorScript(t, `cp "$1" `+record+`
sed -i 's/^  user: admin$/  user: root-e2e-user/' "$1"`))
	debug := filepath.Join(t.TempDir(), "debug.log")
	term := env.start(t, ns, "secret/db", "--debug="+debug)
	stop := screenGuard(t, term, plaintexts())

	term.waitFor(screenWait, "Secret/db", "values hidden (R reveals)", "password: ••••", "keystore.jks: •••• # binary, base64")
	term.editAndWait("user: ••••")
	term.send("d")
	term.waitFor(screenWait, "diff against base", "-   user: ••••", "+   user: ••••")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	stop()

	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# kedit shows the values of data decoded",
		"  tls.crt: |\n    -----BEGIN CERTIFICATE-----\n    " + e2ePEMFirst + "\n",
		"  keystore.jks: " + base64.StdEncoding.EncodeToString(e2eKeystore) + " # binary, base64\n",
		"  password: |\n    " + e2ePassword + "\n",
		"  user: admin\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("$EDITOR's file has no %q:\n%s", want, b)
		}
	}
	s := getSecret(t, ns, "db")
	if string(s.Data["tls.crt"]) != e2ePEM || !bytes.Equal(s.Data["keystore.jks"], e2eKeystore) ||
		string(s.Data["password"]) != e2ePassword+"\n" || string(s.Data["user"]) != "root-e2e-user" {
		t.Errorf("on the server: %q", s.Data)
	}

	// R shows the values, on purpose; R again hides them.
	term.send("R")
	term.waitFor(screenWait, "values shown (R hides)", e2ePassword, e2ePEMFirst, "keystore.jks: "+base64.StdEncoding.EncodeToString(e2eKeystore))
	term.send("R")
	term.waitFor(screenWait, "values hidden (R reveals)", "password: ••••")
	if s := holding([]byte(term.screen()), plaintexts()); s != "" {
		t.Errorf("R again leaves %q on the screen", s)
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")

	log, err := os.ReadFile(debug)
	if err != nil {
		t.Fatalf("no debug log: %v", err)
	}
	if len(log) == 0 {
		t.Error("the debug log is empty: its check would prove nothing")
	}
	if s := holding(log, plaintexts("root-e2e-user")); s != "" {
		t.Errorf("the debug log holds %q:\n%s", s, log)
	}
	noFileHolds(t, plaintexts("root-e2e-user"), env.state, env.runtime)
	if left := editorFiles(t, env.runtime); len(left) != 0 {
		t.Errorf("$EDITOR files left: %v", left)
	}
}

// TestE2ESecretPEMMergesLineByLine: the user changes the PEM's first line,
// someone else its last meanwhile: the save's conflict is a clean line
// merge, and the server ends with both changes and every other value as
// it was.
func TestE2ESecretPEMMergesLineByLine(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createSecret(t, ns, "tls")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/^    `+e2ePEMFirst+`$/    MINEfirstLINE/' "$1"`))
	term := env.start(t, ns, "secret/tls")
	stop := screenGuard(t, term, plaintexts("MINEfirstLINE", "THEIRSlastLINE"))

	term.editAndWait()
	theirs := getSecret(t, ns, "tls")
	theirs.Data["tls.crt"] = []byte(strings.Replace(e2ePEM, e2ePEMLast, "THEIRSlastLINE", 1))
	if _, err := kubetest.Clientset(t).CoreV1().Secrets(ns).Update(context.Background(), theirs, metav1.UpdateOptions{FieldManager: "rotator"}); err != nil {
		t.Fatal(err)
	}
	term.waitFor(screenWait, "changed on server", "by rotator", ".data.tls.crt")
	term.send("s")
	term.waitFor(screenWait, "clean rebase: 2 changes merged", ".data.tls.crt line 2", ".data.tls.crt line 7")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	stop()

	s := getSecret(t, ns, "tls")
	want := strings.NewReplacer(e2ePEMFirst, "MINEfirstLINE", e2ePEMLast, "THEIRSlastLINE").Replace(e2ePEM)
	if string(s.Data["tls.crt"]) != want || !bytes.Equal(s.Data["keystore.jks"], e2eKeystore) || string(s.Data["password"]) != e2ePassword+"\n" {
		t.Errorf("on the server: %q, want tls.crt %q", s.Data, want)
	}
}

// TestE2ESecretKilledDuringEditLeavesNothing: kill -9 while $EDITOR has
// the Secret's decoded values: the next kedit removes the file, and no
// file anywhere kedit writes holds a value.
func TestE2ESecretKilledDuringEditLeavesNothing(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createSecret(t, ns, "db")
	dir := t.TempDir()
	record, release := filepath.Join(dir, "opened"), filepath.Join(dir, "release")
	env := newKeditEnv(t, editorScript(t, `touch `+record+`
while [ ! -e `+release+` ]; do sleep 0.1; done`))
	term := env.start(t, ns, "secret/db")
	term.send("e")
	waitFile(t, record, func(b []byte) bool { return b != nil })
	// The editor has the file: decoded, in the private directory.
	// The file, and beside it the kind's JSON Schema its first line names.
	var left []string
	for _, f := range editorFiles(t, env.runtime) {
		if strings.HasSuffix(f, ".yaml") {
			left = append(left, f)
		}
	}
	if len(left) != 1 {
		t.Fatalf("$EDITOR files: %v", editorFiles(t, env.runtime))
	}
	if b, _ := os.ReadFile(filepath.Join(env.runtime, "kedit", left[0])); !bytes.Contains(b, []byte(e2ePassword)) {
		t.Fatalf("the editor's file does not hold the decoded value:\n%s", b)
	}
	term.signal("KILL")
	term.waitFor(screenWait, "EXIT=137")
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	next := env.start(t, ns, "secret/db")
	next.waitFor(screenWait, "values hidden (R reveals)")
	testwait.Until(screenWait, func() bool { return len(editorFiles(t, env.runtime)) == 0 })
	if left := editorFiles(t, env.runtime); len(left) != 0 {
		t.Errorf("the killed kedit's $EDITOR file is still there: %v", left)
	}
	noFileHolds(t, plaintexts(), env.state, env.runtime)
}

// TestE2ESecretDraftOnDiskIsEncoded: with --allow-secret-drafts the draft
// file is 0600 and holds the values base64-encoded as the API server
// does, and the next kedit offers it decoded.
func TestE2ESecretDraftOnDiskIsEncoded(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createSecret(t, ns, "db")
	env := newKeditEnv(t, editorScript(t, `sed -i 's/^    `+e2ePassword+`$/    e2e-new-password-plaintext/' "$1"`))
	term := env.start(t, ns, "secret/db", "--allow-secret-drafts")
	stop := screenGuard(t, term, plaintexts("e2e-new-password-plaintext"))
	term.editAndWait()
	path := env.draft(ns, "secrets", "db", 1)
	b := waitFile(t, path, holds(base64.StdEncoding.EncodeToString([]byte("e2e-new-password-plaintext\n"))))
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the draft file: %v %v", fi.Mode(), err)
	}
	if s := holding(b, []string{e2ePEMFirst, e2ePassword, "e2e-new-password-plaintext"}); s != "" {
		t.Errorf("the draft file holds %q in plain text:\n%s", s, b)
	}
	term.signal("TERM")
	term.waitFor(screenWait, "EXIT=143")
	stop()

	// Offered again, decoded: y recovers it, and the editor sees the
	// value as it was typed.
	record := filepath.Join(t.TempDir(), "editor-file")
	env.editor = editorScript(t, `cp "$1" `+record)
	next := env.start(t, ns, "secret/db", "--allow-secret-drafts")
	next.waitFor(screenWait, "recover it?")
	next.send("y")
	next.waitFor(screenWait, "unsaved draft")
	next.send("e")
	got := waitFile(t, record, func(b []byte) bool { return b != nil })
	if !bytes.Contains(got, []byte("  password: |\n    e2e-new-password-plaintext\n")) {
		t.Errorf("the recovered draft in $EDITOR:\n%s", got)
	}
}

// TestE2ESecretEditorFileInMemory: on a machine without XDG_RUNTIME_DIR
// (a container, CI, su), the $EDITOR file holding a Secret's decoded
// values is in /dev/shm when that is a tmpfs, so it never reaches a disk;
// the side files the editor leaves beside it (a vim swap file, a backup)
// go with it once it is read back.
func TestE2ESecretEditorFileInMemory(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	createSecret(t, ns, "db")
	record := filepath.Join(t.TempDir(), "editor-dir")
	// The editor says where its file is and on what file system, and leaves
	// what vim would beside it.
	env := newKeditEnv(t, editorScript(t, `d=$(dirname "$1"); b=$(basename "$1")
printf '%s\n%s\n%s\n' "$d" "$b" "$(stat -f -c %T "$d")" > `+record+`
cp "$1" "$d/.$b.swp"; cp "$1" "$1~"
sed -i 's/^  user: admin$/  user: root-e2e-user/' "$1"`))
	tmp := t.TempDir()
	env.extra = []string{"XDG_RUNTIME_DIR=", "TMPDIR=" + tmp}
	term := env.run(t, 300, 40, "-n", ns, "secret/db")
	term.waitFor(screenWait, "Secret/db", "values hidden (R reveals)")
	term.editAndWait()

	got := strings.Split(strings.TrimSpace(string(waitFile(t, record, func(b []byte) bool { return b != nil }))), "\n")
	if len(got) != 3 {
		t.Fatalf("the editor's record: %q", got)
	}
	dir, base, fstype := got[0], got[1], got[2]
	uid := "kedit-" + strconv.Itoa(os.Getuid())
	switch {
	case fsutil.IsTmpfs("/dev/shm"):
		if dir != filepath.Join("/dev/shm", uid) || fstype != "tmpfs" {
			t.Errorf("the decoded Secret was in %s (%s), want /dev/shm/%s on its tmpfs", dir, fstype, uid)
		}
	default: // no tmpfs to be had: the temporary directory, 0700
		if dir != filepath.Join(tmp, uid) {
			t.Errorf("the decoded Secret was in %s, want %s", dir, filepath.Join(tmp, uid))
		}
	}
	for _, name := range []string{base, "." + base + ".swp", base + "~"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s is left in %s after the file was read back", name, dir)
		}
	}
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if s := getSecret(t, ns, "db"); string(s.Data["user"]) != "root-e2e-user" || string(s.Data["password"]) != e2ePassword+"\n" {
		t.Errorf("on the server: %q", s.Data)
	}
}
