package victorialogs

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// The URL schemes of a VictoriaLogs: plain HTTP, and HTTPS.
const (
	Scheme      = "victorialogs"
	SchemeHTTPS = "victorialogs+https"
)

// IsURL reports whether s names a VictoriaLogs rather than a file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, Scheme+"://") || strings.HasPrefix(s, SchemeHTTPS+"://")
}

// endpoint is where and how a VictoriaLogs is asked.
type endpoint struct {
	// base is the engine's HTTP URL, with a path prefix when it is served
	// under one, without credentials.
	base string
	// user is the basic auth in the URL; nil for none.
	user *url.Userinfo
	// filter is LogsQL added to every query; empty for none.
	filter string
	// account and project are the tenant asked (VictoriaLogs' AccountID
	// and ProjectID headers); empty for the engine's default, 0:0.
	account, project string
	// name is the URL as it is shown: its password masked, no filter.
	name string
}

// parseURL reads
// victorialogs://[USER:PASSWORD@]HOST:PORT[/PREFIX][?filter=LOGSQL][&tenant=ACCOUNT[:PROJECT]]
// (or victorialogs+https://).
func parseURL(raw string) (*endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url's error repeats the URL, credentials and all.
		return nil, fmt.Errorf("%s: not a URL", masked(raw))
	}
	ep := &endpoint{user: u.User}
	shown := *u
	shown.RawQuery, shown.Fragment = "", ""
	ep.name = shown.Redacted()
	switch u.Scheme {
	case Scheme:
		u.Scheme = "http"
	case SchemeHTTPS:
		u.Scheme = "https"
	default:
		return nil, fmt.Errorf("%s: a log engine's URL is %s://HOST:PORT or %s://HOST:PORT", ep.name, Scheme, SchemeHTTPS)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s: give the engine's HOST:PORT", ep.name)
	}
	q := u.Query()
	for k := range q {
		if k != "filter" && k != "tenant" {
			return nil, fmt.Errorf("%s: unknown parameter %q: the URL takes ?filter=LOGSQL and ?tenant=ACCOUNT:PROJECT", ep.name, k)
		}
	}
	ep.filter = strings.TrimSpace(q.Get("filter"))
	if t := q.Get("tenant"); t != "" {
		var ok bool
		ep.account, ep.project, ok = strings.Cut(t, ":")
		if !ok {
			ep.project = "0"
		}
		if !isUint(ep.account) || !isUint(ep.project) {
			return nil, fmt.Errorf("%s: tenant %q: give ACCOUNT:PROJECT, two numbers (VictoriaLogs' AccountID and ProjectID)", ep.name, t)
		}
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	ep.base = strings.TrimSuffix(u.String(), "/")
	return ep, nil
}

// masked is a string that failed to parse as a URL, with what may be a
// password between "://USER:" and "@" masked.
func masked(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return raw
	}
	user, _, hasPassword := strings.Cut(rest[:at], ":")
	if !hasPassword {
		return raw
	}
	return scheme + "://" + user + ":xxxxx" + rest[at:]
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}
