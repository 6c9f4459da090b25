package victorialogs

import (
	"strconv"
	"strings"

	"github.com/kedit/kedit/kube/auditlog"
)

// The queries are LogsQL filters on the fields VictoriaLogs makes of an
// audit event: objectRef.name and the like, by their dotted names. An
// empty value is no field to VictoriaLogs, and `field:=""` matches an
// event without it (the core group's apiGroup, a cluster-wide list's
// namespace). Ingest may have made any one field _msg (_msg_field), so
// each filter takes _msg too. Nothing in them decides what is kept: the
// collector does, as for a file; they only leave out what cannot be the
// object's.

// objectQuery asks for every event that names the object: its writes,
// its gets, whatever their stage.
func objectQuery(filter string, m auditlog.Match) string {
	return joinFilters(filter, resourceFilter(m), field("objectRef.name", m.Name), namespaceFilter(m))
}

// readsQuery asks for the lists and watches of the object's collection,
// in its namespace or all of them, by users (each the user or the
// impersonated user), without their bodies, which a read's judging
// never needs.
func readsQuery(filter string, m auditlog.Match, users []string) string {
	return joinFilters(filter, resourceFilter(m), field("objectRef.name", ""), in("verb", []string{"list", "watch"}),
		in("objectRef.namespace", []string{m.Namespace, ""}),
		"("+in("user.username", users)+" or "+in("impersonatedUser.username", users)+")") +
		" | delete requestObject, responseObject, requestObject.*, responseObject.*"
}

// resourceFilter matches the object's resource and group.
func resourceFilter(m auditlog.Match) string {
	f := in("objectRef.resource", m.Resources)
	if !m.AnyGroup {
		f += " " + field("objectRef.apiGroup", m.Group)
	}
	return f
}

// namespaceFilter matches the object's namespace: its own when its type
// is known to be namespaced, none when known to be cluster-scoped, else
// either (as the collector takes a cluster-scoped object's events when
// the type's scope is not known).
func namespaceFilter(m auditlog.Match) string {
	switch {
	case m.Scoped && m.Namespaced:
		return field("objectRef.namespace", m.Namespace)
	case m.Scoped:
		return field("objectRef.namespace", "")
	}
	return in("objectRef.namespace", []string{m.Namespace, ""})
}

// joinFilters ANDs filters, the user's filter first in parentheses.
func joinFilters(user string, fs ...string) string {
	if user != "" {
		fs = append([]string{"(" + user + ")"}, fs...)
	}
	return strings.Join(fs, " ")
}

// field is an exact match of a field (or of _msg, which it may be).
func field(name, value string) string {
	return in(name, []string{value})
}

// in matches a field (or _msg, which it may be) equal to any of values.
func in(name string, values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	vs := strings.Join(q, ",")
	return "(" + strconv.Quote(name) + ":in(" + vs + ") or _msg:in(" + vs + "))"
}
