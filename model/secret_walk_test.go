package model

import (
	"encoding/base64"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/testseed"
)

// TestSecretValuesSurviveRandomWalks drives sessions on a Secret at random
// (edits of its decoded text, theirs' writes, saves, conflicts, their
// resolutions, merged texts edited by hand) and checks after every step
// that decode-then-encode returned the same bytes: every Save carries the
// values nobody changed byte for byte, and every value encoded exactly
// once (it decodes to a value some side wrote, never to base64 of one);
// and that the draft object renders to a text that parses back to itself.
func TestSecretValuesSurviveRandomWalks(t *testing.T) {
	untouched := map[string]string{
		"pem": testPEM, "binary": "\x00\x01\xfe\xff\n", "crlf": "a=1\r\nb=2\r\n", "spaces": "  x  ", "empty": "", "newlines": "x\n\n",
	}
	walks, steps := 120, 30
	if testing.Short() {
		walks = 40
	}
	// What the walks reached: they must save, resubmit merges and take
	// merged texts edited by hand, or they check less than they say.
	var saves, resubmits, mergedTaken int
	base := testseed.Fixed(t, 0)
	for w := range walks {
		r := rand.New(rand.NewPCG(base+uint64(w), 11))
		values := func(edit, theirs string) map[string]string {
			v := map[string]string{"edit": edit, "theirs": theirs}
			for k, x := range untouched {
				v[k] = x
			}
			return v
		}
		s := opened(t, secretRef, secretAt("1", values("e0\n", "t0")))
		rv := 1
		server := secretAt("1", values("e0\n", "t0"))
		written := map[string]bool{"e0\n": true, "t0": true}
		word := func(prefix string) string {
			v := prefix + strconv.Itoa(r.IntN(4))
			if r.IntN(2) == 0 {
				v += "\nline two\n" // a multi-line value, merged line by line
			}
			written[v] = true
			return v
		}
		theirsWrite := func() {
			rv++
			server = secretAt(strconv.Itoa(rv), values(word("theirs-e"), word("theirs-t")))
		}
		for step := range steps {
			where := "walk " + strconv.Itoa(w) + " step " + strconv.Itoa(step) + ": "
			var ev Event
			switch r.IntN(11) {
			case 0, 1:
				current, err := s.DraftText()
				if err != nil {
					t.Fatal(err)
				}
				obj, err := parseDraft(current)
				if err != nil {
					continue
				}
				// The user types a new value for edit, decoded.
				typed := word("mine")
				out := secretAt(obj.GetResourceVersion(), nil)
				out.Object["data"] = obj.Object["data"]
				out.Object["data"].(map[string]any)["edit"] = base64.StdEncoding.EncodeToString([]byte(typed))
				out.SetManagedFields(nil)
				ev = DraftEdited{Text: text(t, out)}
			case 2:
				ev = SaveRequested{}
			case 3:
				theirsWrite()
				ev = LiveChanged{Type: LiveModified, Object: server.DeepCopy()}
			case 4:
				ev = SaveFailed{Err: conflictErr()}
			case 5:
				ev = Conflicted{Theirs: server.DeepCopy()}
			case 6:
				ev = Resolve{Index: 0, Resolution: diff.Resolution{Choice: diff.Choice(1 + r.IntN(3))}}
			case 7:
				ev = Resubmit{}
			case 8:
				// The merged text handed back as it is: taken once no
				// block is left in it.
				text, err := s.MergedText()
				if err != nil {
					continue
				}
				ev = MergedEdited{Text: text}
			case 9:
				ev = RebaseRequested{}
			case 10:
				if p := s.pending; p != nil {
					rv++
					saved := p.object.DeepCopy()
					saved.SetResourceVersion(strconv.Itoa(rv))
					server = saved.DeepCopy()
					ev = Saved{Object: saved}
				} else {
					continue
				}
			}
			_, effects, err := s.Handle(ev)
			if _, ok := ev.(MergedEdited); ok && err == nil {
				mergedTaken++
			}
			for _, e := range effects {
				sv, ok := e.(Save)
				if !ok {
					continue
				}
				saves++
				if sv.Resubmit {
					resubmits++
				}
				data, _ := sv.Object.Object["data"].(map[string]any)
				for k, want := range untouched {
					if got, _ := data[k].(string); got != base64.StdEncoding.EncodeToString([]byte(want)) {
						t.Fatalf("%s%T saves %s as %q, want the bytes of %q", where, ev, k, got, want)
					}
				}
				for _, k := range []string{"edit", "theirs"} {
					raw, err := base64.StdEncoding.DecodeString(data[k].(string))
					if err != nil || !written[string(raw)] {
						t.Fatalf("%s%T saves %s as %q (%q): not a value any side wrote, encoded once", where, ev, k, data[k], raw)
					}
				}
			}
			if d := s.Draft(); d != nil && d.Object != nil {
				text, err := RenderYAML(d.Object)
				if err != nil {
					t.Fatal(err)
				}
				back, err := parseDraft(text)
				// RenderYAML leaves managedFields out (a resubmit's draft
				// has theirs').
				want := d.Object.DeepCopy()
				unstructured.RemoveNestedField(want.Object, "metadata", "managedFields")
				if err != nil || !reflect.DeepEqual(back.Object, want.Object) {
					t.Fatalf("%sthe draft object does not read back from its text (%v):\n%s", where, err, text)
				}
			}
		}
	}
	if saves == 0 || resubmits == 0 || mergedTaken == 0 {
		t.Errorf("the walks saved %d times, resubmitted %d and took %d merged texts", saves, resubmits, mergedTaken)
	}
	t.Logf("saves %d, resubmits %d, merged texts taken %d", saves, resubmits, mergedTaken)
}
