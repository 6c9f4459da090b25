package kube

import (
	"net/http"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kedit/kedit/internal/escape"
)

// LogRequests makes every request sent with c logged through logf, one
// line each when its answer's status is known: the method, the path and
// query (which name objects, never their content), the status and how long
// the answer took. Headers and bodies, where credentials and values are,
// are never logged. A watch is logged when it opens. kedit --debug uses it,
// and the benchmarks count start-up and idle requests from it.
func LogRequests(c *rest.Config, logf func(format string, args ...any)) *rest.Config {
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &requestLogger{next: rt, logf: logf} })
	return c
}

type requestLogger struct {
	next http.RoundTripper
	logf func(format string, args ...any)
}

func (l *requestLogger) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := l.next.RoundTrip(req)
	took := time.Since(start).Round(time.Microsecond)
	what := escape.String(req.URL.RequestURI())
	if err != nil {
		l.logf("request %s %s: %s after %v", req.Method, what, escape.String(err.Error()), took)
		return resp, err
	}
	l.logf("request %s %s %d in %v", req.Method, what, resp.StatusCode, took)
	return resp, nil
}
