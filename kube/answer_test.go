package kube

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestEngineApplyOfAnUndeclaredFieldIsARefusal: with --strategy apply, a
// custom resource draft with a field its schema does not declare is
// answered 500 by the API server ("failed to create typed patch object
// ... field not declared in schema"). That is an answer: a final refusal
// naming the field, never retried, the draft kept, the object unchanged.
// Being the server's own 500, the write may have been done, so the next
// save reads the object back first; it finds nothing written and sends
// the fixed draft.
func TestEngineApplyOfAnUndeclaredFieldIsARefusal(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, kubetest.WidgetCRDs, kubetest.Widget("w", "a=1"))
	e := newEngineFor(t, ns, "widgets.kedit.example.com", "w", StrategyApply)
	before := readBase(t, e.runner.Target).GetResourceVersion()
	text, _ := e.session.DraftText()
	e.editDraftText(strings.Replace(text, "spec:\n", "spec:\n  bogus: 1\n", 1))
	draft := e.session.Draft().Text

	e.handle(model.SaveRequested{})
	f := e.session.Failure()
	if e.session.State() != model.StateFailed || f == nil || f.Kind != model.ErrorRefused {
		t.Fatalf("state %s, failure %+v: want a refusal", e.session.State(), f)
	}
	if f.Attempt != 0 || f.Kind.Retryable() || e.session.RetryWaiting() {
		t.Errorf("failure %+v: an answer is waiting for a retry", f)
	}
	if len(f.Causes) != 1 || f.Causes[0].Field != ".spec.bogus" || !strings.Contains(f.Causes[0].Message, "field not declared in schema") {
		t.Errorf("causes %+v, want .spec.bogus: field not declared in schema", f.Causes)
	}
	var refused *RefusedError
	if !errors.As(f.Err, &refused) || refused.Code != http.StatusInternalServerError {
		t.Errorf("err %T %v, want a *RefusedError of 500", f.Err, f.Err)
	}
	t.Logf("the user reads: %v", f.Err)
	if e.session.Draft().Text != draft {
		t.Fatal("the refusal changed the draft")
	}
	if now := readBase(t, e.runner.Target); now.GetResourceVersion() != before {
		t.Errorf("the object moved from rv %s to %s on a refusal", before, now.GetResourceVersion())
	}
	if !e.session.SaveUncertain() {
		t.Error("the server's own 500: the next save should read the object back first")
	}

	// Fixed, the draft is saved, after the object read back shows the
	// refused save wrote nothing.
	e.editDraftText(strings.Replace(strings.Replace(e.session.Draft().Text, "  bogus: 1\n", "", 1), "  - name: a\n    size: 1\n", "  - name: a\n    size: 1\n  - name: b\n    size: 2\n", 1))
	e.handle(model.SaveRequested{})
	if e.session.State() != model.StateSaved {
		t.Fatalf("state %s after the fix, failure %+v", e.session.State(), e.session.Failure())
	}
	if r := e.session.LastSave(); r == nil || r.Verified {
		t.Errorf("report %+v: the refused save reported as landed", r)
	}
}

// TestFaultAnswersAreFinal: the API server's own answers, given through
// the proxy before anything is forwarded. A 400 and a 500 are final: no
// retry, the draft kept, nothing written, and nothing sent again until
// the user asks. A 429 with retryAfterSeconds is no answer: retried, not
// sooner than the server asked, and sent again directly (the server took
// nothing, so nothing is read back).
func TestFaultAnswersAreFinal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault     faultAction
		kind      model.ErrorKind
		field     string
		uncertain bool
		after     time.Duration
	}{
		{refused400Before, model.ErrorRefused, "", false, 0},
		{failed500Before, model.ErrorRefused, ".data.bogus", true, 0},
		{busy429Before, model.ErrorUnavailable, "", false, 3 * time.Second},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			cfg := kubetest.RESTConfig(t)
			var mu sync.Mutex
			faulted := false
			p := newFaultProxy(t, cfg, func(r *http.Request) faultAction {
				mu.Lock()
				defer mu.Unlock()
				if r.Method == http.MethodPut && !faulted {
					faulted = true
					return tc.fault
				}
				return pass
			})
			e := newEngineAt(t, sharedCluster(t), ns, "configmap", "testmap", engineOptions{client: p.clientConfig(cfg, 0)})
			e.editDraft(`foo: "1"`, `foo: mine`)
			draft := e.session.Draft().Text
			before := readBase(t, e.runner.Target).GetResourceVersion()

			e.handle(model.SaveRequested{})
			f := e.session.Failure()
			if f == nil || f.Kind != tc.kind {
				t.Fatalf("failure %+v, want %s\nproxy:\n%s", f, tc.kind, p.describe())
			}
			t.Logf("the user reads: %v", f.Err)
			if f.Kind.Retryable() != (tc.kind == model.ErrorUnavailable) || e.session.RetryWaiting() != f.Kind.Retryable() {
				t.Errorf("failure %+v: retryable %v", f, f.Kind.Retryable())
			}
			if tc.field != "" && (len(f.Causes) != 1 || f.Causes[0].Field != tc.field) {
				t.Errorf("causes %+v, want the field %s named", f.Causes, tc.field)
			}
			if got := model.RetryAfterOf(f.Err); got != tc.after {
				t.Errorf("Retry-After %s, want %s", got, tc.after)
			}
			if e.session.SaveUncertain() != tc.uncertain {
				t.Errorf("uncertain %v, want %v", e.session.SaveUncertain(), tc.uncertain)
			}
			if e.session.Draft().Text != draft {
				t.Fatal("the answer changed the draft")
			}
			if now := readBase(t, e.runner.Target); now.GetResourceVersion() != before {
				t.Fatalf("the object moved on a refusal")
			}
			// The server being back (a watch reconnecting) sends a waiting
			// save, never a refused one.
			e.handle(model.Reconnected{})
			if !f.Kind.Retryable() {
				if st := e.session.State(); st != model.StateFailed || e.session.Failure().Kind != f.Kind || p.reached(http.MethodPut) != 0 {
					t.Fatalf("state %s after Reconnected: a final answer was sent again", st)
				}
				// The user asks: sent again (read back first after a 500).
				e.handle(model.SaveRequested{})
			}
			if st := e.session.State(); st != model.StateSaved {
				t.Fatalf("state %s, failure %+v\nproxy:\n%s", st, e.session.Failure(), p.describe())
			}
			if r := e.session.LastSave(); r.Verified {
				t.Error("a refused save reported as landed")
			}
			if n := p.reached(http.MethodPut); n != 1 {
				t.Errorf("%d saves reached the server, want 1\nproxy:\n%s", n, p.describe())
			}
			if v, _, _ := unstructured.NestedString(readBase(t, e.runner.Target).Object, "data", "foo"); v != "mine" {
				t.Errorf("foo = %q on the server", v)
			}
		})
	}
}
