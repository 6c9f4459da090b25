package say

import (
	"errors"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/common"
)

// ServerNotAsked says in one line why the server's own check of a draft
// (kube.Runner.ServerCheck, its dry run) was not had, for err, the
// check's error or the access review's (kube.Runner.MayServerCheck):
// the user may not update the object (then no dry run is sent, and the
// line says first that a draft can be made but not saved), the
// server could not be reached (offline: the diagnostics are the
// schema's alone), or another failure in the server's words. A 409 says
// nothing: the banner says that the object changed. The empty text for
// no error.
func ServerNotAsked(err error) escape.Text {
	var forbidden *kube.ForbiddenError
	var unavailable *kube.UnavailableError
	switch {
	case err == nil, kube.IsConflict(err):
		return ""
	case errors.As(err, &forbidden):
		// What the user can and cannot do first, as the access check
		// says it (a draft, no save); the checks are off for the same
		// reason.
		return escape.Textf("you may not %s %s: a draft can be made but not saved, and the server's checks of it are off (its dry run needs that right)", forbidden.Verb, forbidden.Target.Objects())
	case errors.As(err, &unavailable):
		return "the server was not asked (no connection): the schema's word alone"
	}
	return "the server could not check the draft: " + common.ErrorText(err)
}
