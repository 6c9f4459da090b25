package kube

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestFieldManagerNamesEveryWrite: with --field-manager, update, merge
// patch and server-side apply each write under that name, and kedit's own
// never appears in managedFields; the session's report tells its own
// fields by the same name.
func TestFieldManagerNamesEveryWrite(t *testing.T) {
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "configmap", "testmap", "--from-literal=foo=1")
			e := newEngineFor(t, ns, "cm", "testmap", strategy)
			e.runner.FieldManager = "ops-team"
			e.session.SetFieldManager("ops-team")
			e.editDraft(`foo: "1"`, "foo: mine\n  bar: added")
			e.handle(model.SaveRequested{})
			if strategy == StrategyApply {
				// kubectl create owns foo: the apply's ownership
				// conflict, taken by the user, resubmits forced.
				if e.session.State() != model.StateResolving {
					t.Fatalf("apply: state %v, want the ownership conflict", e.session.State())
				}
				e.handle(model.ResolveAll{Choice: diff.TakeMine})
				e.handle(model.Resubmit{})
			}
			if e.session.State() != model.StateSaved {
				t.Fatalf("state %v, failure %+v", e.session.State(), e.session.Failure())
			}
			out := kubetest.MustKubectl(t, "-n", ns, "get", "cm", "testmap", "-o", "yaml", "--show-managed-fields")
			wantOp := "operation: Update"
			if strategy == StrategyApply {
				wantOp = "operation: Apply"
			}
			if !strings.Contains(out, "manager: ops-team\n    "+wantOp) {
				t.Errorf("managedFields has no ops-team %s:\n%s", wantOp, out)
			}
			if strings.Contains(out, "manager: kedit") {
				t.Errorf("kedit still writes under its own name:\n%s", out)
			}
			if r := e.session.LastSave(); r == nil || len(r.NotStored) > 0 {
				t.Errorf("the report says %+v", r)
			}
		})
	}
}

// TestWriteRecordMasksSecrets: --output-patch's record keeps each save's
// request (method, path with the field manager, body) and, for a Secret,
// masks every value, whichever strategy sent it; dry runs are left out.
func TestWriteRecordMasksSecrets(t *testing.T) {
	const value = "hunter2-very-secret"
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
			ns := kubetest.Namespace(t)
			kubetest.MustKubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=old-value")
			rec := &WriteRecord{}
			dc, err := dynamic.NewForConfig(RecordWrites(kubetest.RESTConfig(t), rec))
			if err != nil {
				t.Fatal(err)
			}
			flags := &ConnFlags{KubeConfig: kubetest.Kubeconfig(t), Namespace: ns, CacheDir: t.TempDir()}
			target, err := Resolve(flags, "secret", "creds")
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			base, err := Get(ctx, dc, target)
			if err != nil {
				t.Fatal(err)
			}
			mine := withData(base, "password", base64.StdEncoding.EncodeToString([]byte(value)))
			opts := SaveOptions{FieldManager: "ops-team", Force: strategy == StrategyApply}
			if _, err := Save(ctx, dc, target, strategy, base, mine, SaveOptions{DryRun: true, Force: opts.Force}); err != nil {
				t.Fatalf("dry run: %v", err)
			}
			if _, err := Save(ctx, dc, target, strategy, base, mine, opts); err != nil {
				t.Fatalf("save: %v", err)
			}
			reqs := rec.Requests()
			if len(reqs) == 0 {
				t.Fatal("nothing recorded")
			}
			last := reqs[len(reqs)-1]
			if !strings.Contains(last.Path, "/api/v1/namespaces/"+ns+"/secrets/creds") || !strings.Contains(last.Path, "fieldManager=ops-team") ||
				last.Status != 200 {
				t.Errorf("recorded %s %s -> %d", last.Method, last.Path, last.Status)
			}
			var all strings.Builder
			if _, err := rec.WriteTo(&all); err != nil {
				t.Fatal(err)
			}
			for _, leak := range []string{value, base64.StdEncoding.EncodeToString([]byte(value)), "old-value", base64.StdEncoding.EncodeToString([]byte("old-value"))} {
				if strings.Contains(all.String(), leak) {
					t.Errorf("the record holds a Secret's value %q:\n%s", leak, all.String())
				}
			}
			if !strings.Contains(last.Body, `"password":"••••"`) || strings.Contains(all.String(), "dryRun") {
				t.Errorf("the record is not the masked save alone:\n%s", all.String())
			}
		})
	}
}
