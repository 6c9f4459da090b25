package kube

import (
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/net/http2"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// An API server that shuts down cleanly stops accepting connections at
// once, but keeps the watch streams it serves open until it exits, which
// takes seconds (kube-apiserver drains for a while; localcluster exits
// after up to 8 s, longer on a loaded machine). All that time the watch
// looks healthy. What the server does say, at once, is HTTP/2's GOAWAY on
// every connection. Go's HTTP/2 client records it but tells no one, so the
// watch keeps its own record of its connections (connTracker) and looks at
// them locally: a connection that the server is closing, or that closed, is
// the moment to find out, with one request on a new connection, whether
// the server is still there (Watch.monitor). Nothing is sent while the
// connections are fine, so an idle watch still sends nothing but its watch.

// connTracker is an HTTP/2 connection pool that remembers the connections
// it hands out, so that their state can be read.
type connTracker struct {
	http2.ClientConnPool

	mu    sync.Mutex
	conns map[*http2.ClientConn]bool // true once seen closing
}

// GetClientConn implements http2.ClientConnPool.
func (p *connTracker) GetClientConn(req *http.Request, addr string) (*http2.ClientConn, error) {
	cc, err := p.ClientConnPool.GetClientConn(req, addr)
	if err == nil {
		p.mu.Lock()
		if _, ok := p.conns[cc]; !ok {
			p.conns[cc] = false
		}
		p.mu.Unlock()
	}
	return cc, err
}

// closing reports whether a connection began closing (the server sent
// GOAWAY, or the connection broke) since the last call, and forgets the
// connections that are closed.
func (p *connTracker) closing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	news := false
	for cc, seen := range p.conns {
		st := cc.State()
		if (st.Closing || st.Closed) && !seen {
			news = true
			p.conns[cc] = true
		}
		if st.Closed {
			delete(p.conns, cc)
		}
	}
	return news
}

// watchClient is a dynamic client for cfg whose HTTP/2 connections are
// tracked. It returns a nil tracker, with client-go's own client, where
// tracking cannot work: plain HTTP, HTTP/2 turned off (DISABLE_HTTP2, as
// client-go reads it), or TLS options client-go will not take beside a
// transport of kedit's (a credential plugin's client certificate).
func watchClient(cfg *rest.Config) (dynamic.Interface, *connTracker, error) {
	plain := func() (dynamic.Interface, *connTracker, error) {
		dc, err := dynamic.NewForConfig(cfg)
		return dc, nil, err
	}
	t1, tracker, ok := trackedTransport(cfg)
	if !ok {
		return plain()
	}
	c := rest.CopyConfig(cfg)
	// The TLS options are in t1 now; client-go refuses them beside it.
	c.TLSClientConfig = rest.TLSClientConfig{}
	c.Transport, c.Dial, c.Proxy = t1, nil, nil
	dc, err := dynamic.NewForConfig(c)
	if err != nil {
		return plain()
	}
	return dc, tracker, nil
}

// trackedTransport is the transport client-go builds for cfg, with its
// HTTP/2 connection pool tracked: client-go has no hook that hands out
// the pool (rest.Config's WrapTransport and Dial see neither GOAWAY nor
// the connections' state), so this is a copy. It follows, in client-go
// and apimachinery v0.37.2:
//
//   - k8s.io/client-go/transport: (*tlsTransportCache).get, the transport
//     for a TLS config: the dialer (30 s timeout and keep-alive), the proxy
//     rule, a 10 s TLS handshake, idleConnsPerHost (25) idle connections
//     per host, DisableCompression;
//   - k8s.io/apimachinery/pkg/util/net: SetTransportDefaults and
//     configureHTTP2Transport, HTTP/2 with its health check (a ping after
//     30 s without a frame, 15 s for the answer).
//
// It leaves out what kedit never needs from them: the cache of transports,
// reloading certificate and CA files, and the HTTP2_READ_IDLE_TIMEOUT_SECONDS
// and HTTP2_PING_TIMEOUT_SECONDS variables (the defaults above are used).
// TestTransportCopyFollowsClientGo fails when one of those functions
// changes upstream, and compares the transports the two build.
//
// ok is false where tracking cannot work (see watchClient).
func trackedTransport(cfg *rest.Config) (t1 *http.Transport, tracker *connTracker, ok bool) {
	if os.Getenv("DISABLE_HTTP2") != "" || cfg.Transport != nil {
		return nil, nil, false
	}
	tlsConfig, err := rest.TLSConfigFor(cfg)
	if err != nil || tlsConfig == nil {
		return nil, nil, false
	}
	dial := cfg.Dial
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	proxy := http.ProxyFromEnvironment
	if cfg.Proxy != nil {
		proxy = cfg.Proxy
	}
	t1 = utilnet.SetOldTransportDefaults(&http.Transport{
		Proxy:               proxy,
		TLSHandshakeTimeout: 10 * time.Second,
		TLSClientConfig:     tlsConfig,
		MaxIdleConnsPerHost: 25,
		DialContext:         dial,
		DisableCompression:  cfg.DisableCompression,
	})
	t2, err := http2.ConfigureTransports(t1)
	if err != nil {
		return nil, nil, false
	}
	t2.ReadIdleTimeout, t2.PingTimeout = 30*time.Second, 15*time.Second
	tracker = &connTracker{ClientConnPool: t2.ConnPool, conns: map[*http2.ClientConn]bool{}}
	t2.ConnPool = tracker
	return t1, tracker, true
}
