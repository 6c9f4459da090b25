package cluster

import (
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/auditlog"
)

// TestAuditSources: --audit-log's files are one source, read in the order
// given, and each engine's URL one more; a URL of no engine kedit reads
// is refused naming it, its password masked.
func TestAuditSources(t *testing.T) {
	srcs, err := AuditSources([]string{"b.log", "victorialogs://logs:9428", "a.log.gz", "-"}, AuditOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 2 || srcs[0].Name() != "b.log, a.log.gz, -" || srcs[1].Name() != "victorialogs://logs:9428" {
		t.Errorf("sources %v", srcs)
	}
	if f, ok := srcs[0].(auditlog.Files); !ok || len(f.Names) != 3 {
		t.Errorf("the files: %#v", srcs[0])
	}
	for _, bad := range []string{"opensearch://ann:s3cret@logs:9200", "victorialogs://logs:9428?x=1"} {
		_, err := AuditSources([]string{bad}, AuditOptions{})
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "@logs:9") && !strings.Contains(err.Error(), "//logs:9") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if IsEngineURL("./a://b.log") || IsEngineURL("audit.log") || !IsEngineURL("opensearch://x") {
		t.Error("IsEngineURL")
	}
}
