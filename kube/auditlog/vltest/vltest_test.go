package vltest

import (
	"bytes"
	"fmt"
	"net/url"
	"testing"
	"time"
)

// TestClusterSpreadsAndCountsAll: events inserted through a cluster's
// front land on both storage nodes, and a query through the front counts
// them all, as each node's own count adds up to.
func TestClusterSpreadsAndCountsAll(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	c := StartCluster(t)
	const n = 1000
	var lines bytes.Buffer
	at := time.Now().Add(-time.Hour)
	for i := range n {
		// Streams are what the front spreads over the nodes.
		fmt.Fprintf(&lines, `{"_msg":"event %d","stream":"s%d","_time":%q}`+"\n", i, i%50, at.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano))
	}
	c.Insert(t, lines.Bytes(), url.Values{"_stream_fields": {"stream"}})
	a, b := c.Storage[0].Rows(t), c.Storage[1].Rows(t)
	if a == 0 || b == 0 || a+b != n {
		t.Errorf("storage nodes hold %d and %d events of %d", a, b, n)
	}
	if got := c.Front.Rows(t); got != n {
		t.Errorf("the front counts %d of %d events", got, n)
	}
}
