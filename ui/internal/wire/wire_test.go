package wire

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/kube"
)

// TestRowsAreInTheOrderSent: the request pane lists requests in the order
// they were sent, the time each row shows, though the log keeps them as
// their answers come: a request answered after a later one is still
// listed first.
func TestRowsAreInTheOrderSent(t *testing.T) {
	slowArrived, fastDone := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(slowArrived)
			<-fastDone // answered once /fast has been
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	log := kube.NewRequestLog(nil)
	client, err := rest.HTTPClientFor(kube.LogRequests(&rest.Config{Host: srv.URL}, log))
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Error(err)
			return
		}
		_ = resp.Body.Close()
	}
	var wg sync.WaitGroup
	wg.Go(func() { get("/slow") })
	<-slowArrived // /slow is sent, its row's time taken, before /fast is
	get("/fast")
	close(fastDone)
	wg.Wait()
	kept := log.Rows()
	if len(kept) != 2 || kept[0].Path != "/fast" {
		t.Fatalf("the log keeps %+v, want /fast's answer first", kept)
	}
	rows := Rows(log)
	if len(rows) != 2 || string(rows[0].Path) != "/slow" || string(rows[1].Path) != "/fast" {
		t.Errorf("the pane lists %+v, want /slow, sent first, first", rows)
	}
}
