package say

import (
	"errors"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
)

// Connection says how the link to the API server stands, for a
// header: the object view's and the browser's, in the same words.
func Connection(c kube.Connection) escape.Text {
	var forbidden *kube.ForbiddenError
	switch c.State {
	case kube.Connected:
		return "connected"
	case kube.Reconnecting:
		return escape.Textf("reconnecting since %s", c.Since.Local().Format("15:04:05"))
	case kube.Polling:
		what := "not allowed to watch"
		var forbiddenList *kube.ForbiddenListError
		switch {
		case errors.As(c.Err, &forbidden):
			what = forbidden.Short()
		case errors.As(c.Err, &forbiddenList):
			what = forbiddenList.Short()
		}
		return escape.Textf("%s: polling every %d s", what, int(kube.PollInterval/time.Second))
	case kube.Refused:
		if errors.As(c.Err, &forbidden) {
			return escape.Safe(forbidden.Short())
		}
		return "refused"
	case kube.Stopped:
		return "watch stopped"
	}
	return "connecting"
}
