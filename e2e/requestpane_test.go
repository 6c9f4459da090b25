package e2e

import (
	"encoding/base64"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ERequestPaneShowsTheConflict: a save that meets kubectl's change
// of the same field; L shows the watch's event of kubectl's version (by
// its field manager), then the PUT refused 409 with both
// resourceVersions, the version the server held and the one the write was
// based on; once the conflict is resolved and resubmitted, the PUT based
// on theirs and its 200 with the version saved.
func TestE2ERequestPaneShowsTheConflict(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
	_, base := configMapData(t, ns, "testmap")
	term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 200, 50)

	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--field-manager=demo-writer", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
	_, theirs := configMapData(t, ns, "testmap")
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "conflict: base rv", "1 conflict,")

	term.send("L")
	conflict := "the server holds rv " + theirs + "; this write was based on " + base
	screen := term.waitFor(screenWait, "requests kedit sent and watch events it read", "MODIFIED rv "+theirs+" by demo-writer", "409 Conflict", conflict)
	event, refused := strings.Index(screen, "MODIFIED rv "+theirs), strings.Index(screen, conflict)
	if event > refused {
		t.Errorf("the watch's event is not before the 409:\n%s", screen)
	}
	if !regexp.MustCompile(`PUT +\S+ +` + base + ` +409 Conflict`).MatchString(screen) {
		t.Errorf("the 409's row does not say the PUT carried rv %s:\n%s", base, screen)
	}

	term.send("Escape")
	term.waitGone(screenWait, "requests kedit sent")
	term.send("m")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	data, saved := configMapData(t, ns, "testmap")
	if data["foo"] != "mine" {
		t.Fatalf("foo = %q on the server, want mine", data["foo"])
	}
	term.send("L")
	resubmit := regexp.MustCompile(`PUT +\S+ +` + theirs + ` +200 +` + saved + ` `)
	screen, _ = term.waitUntil(screenWait, "the resubmit's 200", resubmit.MatchString)
	if strings.Index(screen, conflict) > resubmit.FindStringIndex(screen)[0] {
		t.Errorf("the 200 is not after the 409:\n%s", screen)
	}
	term.send("Escape")
	term.waitGone(screenWait, "requests kedit sent")
}

// TestE2ERequestPaneMasksSecrets: a Secret saved, then the pane's rows
// and the bodies of the last three (the PUT, its answer, the watch's
// event), shown one after another: the values show as ••••, and nothing
// kedit wrote to the terminal holds them, as the object holds them
// (base64) or decoded.
func TestE2ERequestPaneMasksSecrets(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	old, mine := "old-s3cr3t-"+randomSuffix(), "new-s3cr3t-"+randomSuffix()
	kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "vault", "--from-literal=token="+old)
	env := newKeditEnv(t, editorScript(t, `sed -i 's/`+old+`/`+mine+`/' "$1"`))
	term, raw := env.runRaw(t, 200, 50, "-n", ns, "secret/vault")
	term.waitFor(screenWait, "Secret/vault")
	term.editAndWait()
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	if got := secretValue(t, ns); got != mine {
		t.Fatalf("the Secret holds %q after the save", got)
	}
	term.send("L")
	term.waitFor(screenWait, "requests kedit sent", "PUT")
	masked := false
	for range 3 {
		term.send("Enter")
		screen := term.waitFor(screenWait, "request body", "answer's body")
		masked = masked || strings.Contains(screen, `"token": "••••"`)
		term.send("Escape")
		term.waitGone(screenWait, "answer's body")
		term.send("k")
	}
	if !masked {
		t.Error("no body showed the Secret's value masked")
	}
	term.send("q")
	term.waitFor(screenWait, "EXIT=0")
	b, err := os.ReadFile(raw)
	if err != nil || len(b) == 0 {
		t.Fatalf("nothing was captured from the terminal (%v)", err)
	}
	for _, s := range []string{old, mine, base64.StdEncoding.EncodeToString([]byte(old)), base64.StdEncoding.EncodeToString([]byte(mine))} {
		if strings.Contains(string(b), s) {
			t.Errorf("%q reached the terminal", s)
		}
	}
}

// TestE2ERequestPaneAutoRebase: with --auto-rebase a save that meets
// kubectl's change of another key goes back at once; the pane's 409 still
// names the version the server held, which the resubmit was based on.
func TestE2ERequestPaneAutoRebase(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1", "--from-literal=bar=1")
	_, base := configMapData(t, ns, "testmap")
	term := openKeditOn(t, ns, "configmap/testmap", "ConfigMap/testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), 200, 50, "--auto-rebase")
	term.editAndWait()
	kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--type=merge", "-p", `{"data":{"bar":"theirs"}}`)
	_, theirs := configMapData(t, ns, "testmap")
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "saved rv")
	_, saved := configMapData(t, ns, "testmap")
	term.send("L")
	term.waitFor(screenWait, "409 Conflict", "the server holds rv "+theirs+"; this write was based on "+base)
	term.waitUntil(screenWait, "the resubmit's 200", regexp.MustCompile(`PUT +\S+ +`+theirs+` +200 +`+saved+` `).MatchString)
}

// TestE2ERequestPaneReadableOnAProjector: on a projector of 80×24 or
// 100×30, the 409's explanation, the watch event's writer and the time a
// request took are cut from the rows; the strip under them says the
// selected row whole, wrapped at words; l and → scroll the rows until the
// explanation ends in view, the time and the method in place; enter's
// bodies name the request body's type once, and a line wider than the
// pane ends in "…".
func TestE2ERequestPaneReadableOnAProjector(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{80, 24}, {100, 30}} {
		t.Run(itoa(size.w), func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			_, base := configMapData(t, ns, "testmap")
			term := openKedit(t, ns, "testmap", editorScript(t, `sed -i 's/foo: "1"/foo: mine/' "$1"`), size.w, size.h)
			term.editAndWait()
			kubetest.MustKubectl(t, "-n", ns, "patch", "configmap", "testmap", "--field-manager=demo-writer", "--type=merge", "-p", `{"data":{"foo":"theirs"}}`)
			_, theirs := configMapData(t, ns, "testmap")
			term.waitFor(screenWait, "changed on server")
			term.send("s")
			term.waitFor(screenWait, "conflict: base rv")

			term.send("L")
			explained := "the server holds rv " + theirs + "; this write was based on " + base
			screen, _ := term.waitUntil(screenWait, "the 409 in the strip", wordsOf("requests kedit sent", "PUT 409 Conflict: "+explained+"; rv sent "+base+"; took"))
			rows := strings.Split(screen, "\n")
			for _, l := range rows[:len(rows)-8] {
				if strings.Contains(l, explained) && size.w == 80 {
					t.Errorf("at 80 columns the 409's explanation fits a row, so this test tests nothing:\n%s", screen)
				}
			}
			// The watch's event of the other writer, a row or two up (the
			// GET of theirs may come between): k a row at a time.
			for strip := stripOf(screen); !wholeWords(strip, "WATCH MODIFIED rv "+theirs+" by demo-writer; at"); {
				if strings.HasPrefix(strip, "GET 200; rv sent none; took") && strings.HasSuffix(strip, "; /api") {
					t.Fatalf("no row of the watch's event in the strip up to the first row:\n%s", screen)
				}
				term.send("k")
				screen, _ = term.waitUntil(screenWait, "the strip of a row up", func(s string) bool { return stripOf(s) != strip })
				strip = stripOf(screen)
			}
			term.send("G")
			term.waitUntil(screenWait, "the 409 selected again", wordsOf(explained+";"))
			for range 4 {
				term.send("l")
			}
			term.waitUntil(screenWait, "the rows scrolled to the explanation", func(s string) bool {
				for _, l := range strings.Split(s, "\n") {
					if strings.Contains(l, " PUT    …") && strings.HasSuffix(strings.TrimSpace(l), explained) {
						return true
					}
				}
				return false
			})
			term.send("Right")
			term.send("h")
			term.send("Left")
			term.send("h")
			term.send("h")
			term.waitFor(screenWait, "TIME         METHOD PATH")

			term.send("Enter")
			screen = term.waitFor(screenWait, "request body (application/json)")
			if strings.Count(screen, "request body") != 1 {
				t.Errorf("the request body's heading is said twice:\n%s", screen)
			}
			// The answer's body, a Status, at the bottom.
			term.send("G")
			screen = term.waitFor(screenWait, "answer's body", `"message": `)
			for _, l := range strings.Split(screen, "\n") {
				if strings.Contains(l, `"message": `) && !strings.HasSuffix(strings.TrimSpace(l), "…") {
					t.Errorf("the message's line is cut without a …: %q", l)
				}
			}
			term.send("Escape")
			term.send("Escape")
			term.waitGone(screenWait, "requests kedit sent")
		})
	}
}

// stripOf is the request pane's strip on screen, its lines read as one.
func stripOf(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "───") {
			// Up to the footer, the screen's last line.
			return strings.Join(strings.Fields(strings.Join(lines[i+1:len(lines)-1], " ")), " ")
		}
	}
	return ""
}
