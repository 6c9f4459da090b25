package history

import (
	"strings"
	"time"
)

// A command's own read is not its user's read. Most kubectl commands that
// write GET the object a moment before they write: kubectl patch, label,
// annotate, scale, set, rollout, taint and a client-side kubectl apply
// always do, and kubectl replace does when its file has no
// resourceVersion (it then sends the one it read). What they send comes
// from their command line or a file their user made earlier, not from
// that GET, so the GET says nothing of what the user saw. kubectl edit's
// GET is the user's read: the editor shows it. kubectl apply
// --server-side and kedit read nothing first.
//
// The log does not say which process made a request. A command is known
// by the field manager its write names (kubectl-patch ...) or, for
// kubectl scale, which names none, by its user agent and the scale
// subresource; its own read is its client's last get of the object before
// the write. For kubectl replace, whose GET depends on the file, the get
// counts as its own only when it was answered less than ownReplaceGap
// before the write was received: kubectl sends the PUT at once after its
// GET (1 to 10 ms here), while a get by another command (kubectl get
// piped into kubectl replace) comes a process start and a schema
// validation earlier (80 ms at the least here, more on a loaded machine).
// A get taken for the command's own when it was its user's can only make
// an older read the base (a finding that was not); one taken for its
// user's when it was the command's hides a lost update, the worse error,
// so the bound leans long.

// readFirst says whether a write's command reads the object itself first.
type readFirst int

const (
	// readsNothing: the command sends what its user made, reading nothing
	// first (or is not known to).
	readsNothing readFirst = iota
	// readsAlways: the command GETs the object right before each write.
	readsAlways
	// readsWithoutRV: kubectl replace, which GETs the object right before
	// its write when its file has no resourceVersion, and sends the one it
	// read.
	readsWithoutRV
)

// ownReplaceGap bounds the time between kubectl replace's own GET and its
// PUT; ownReadGap, the time between any other kubectl command's GET and
// its write (a client-side apply computes its patch in between: over 100
// ms here, seconds on a loaded machine).
const (
	ownReplaceGap = 60 * time.Millisecond
	ownReadGap    = 10 * time.Second
)

// readsFirst are the kubectl field managers whose commands GET the object
// before they write.
var readsFirst = map[string]readFirst{
	"kubectl-client-side-apply": readsAlways,
	"kubectl-patch":             readsAlways,
	"kubectl-label":             readsAlways,
	"kubectl-annotate":          readsAlways,
	"kubectl-set":               readsAlways,
	"kubectl-rollout":           readsAlways,
	"kubectl-taint":             readsAlways,
	"kubectl-replace":           readsWithoutRV,
}

// readsFirstOf says whether the command that made a write reads the
// object itself first, by the field manager its request named ("" for
// none) or, for kubectl scale, which names none, by its user agent and
// subresource.
func readsFirstOf(manager, subresource, userAgent string) readFirst {
	if manager == "" {
		if subresource == "scale" && strings.HasPrefix(userAgent, "kubectl/") {
			return readsAlways
		}
		return readsNothing
	}
	return readsFirst[manager]
}

// Command names the command that made a write, for the report's words:
// kubectl's field managers as their command (kubectl-patch is kubectl
// patch), kubectl scale by its subresource; else the field manager, else
// the verb.
func (v *Version) Command() string {
	switch {
	case strings.HasPrefix(v.Manager, "kubectl-") && v.managerNamed:
		return "kubectl " + strings.TrimPrefix(v.Manager, "kubectl-")
	case v.Subresource == "scale" && strings.HasPrefix(v.Client.UserAgent, "kubectl/") && !v.managerNamed:
		return "kubectl scale"
	case v.Manager != "":
		return v.Manager
	}
	return v.Verb
}

// NamedManager is the field manager the write's request named; "" when
// it named none (Manager is then the one managedFields credit).
func (v *Version) NamedManager() string {
	if v.managerNamed {
		return v.Manager
	}
	return ""
}
