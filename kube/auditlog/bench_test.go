package auditlog

import (
	"os"
	"testing"
)

// BenchmarkRead reads $KEDIT_AUDIT_BENCH_LOG for the object
// $KEDIT_AUDIT_BENCH_OBJECT (NAMESPACE/NAME of a ConfigMap); scripts/bench-history.sh
// makes such a log.
func BenchmarkRead(b *testing.B) {
	log, obj := os.Getenv("KEDIT_AUDIT_BENCH_LOG"), os.Getenv("KEDIT_AUDIT_BENCH_OBJECT")
	if log == "" {
		b.Skip("KEDIT_AUDIT_BENCH_LOG names no log")
	}
	ns, name, _ := cut(obj)
	m, err := MatchType("cm", ns, name)
	if err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(log)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		if _, err := Read([]string{log}, nil, m); err != nil {
			b.Fatal(err)
		}
	}
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return "", s, false
}
