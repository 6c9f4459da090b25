package effect

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/editfile"
)

// A draft's commands: $EDITOR on it, and the server's dry run of it.

type (
	// EditorFinished is what $EDITOR left in the file (editfile.Result).
	EditorFinished editfile.Result
	// ServerChecked is the server's word on Text, the draft of the object
	// Of: the in-app editor's at Version of Opening (InEditor), or one
	// back from $EDITOR. Err: the server did not judge it.
	ServerChecked struct {
		Of               ID
		InEditor         bool
		Opening, Version uint64
		Text             string
		Found            []schemacheck.Diagnostic
		Err              error
	}
)

// ServerCheck asks the API server whether it would take draft, read from
// text, as the next version of base, with the save's own request sent
// with dryRun=All (kube.Runner.ServerCheck): each reason of a refusal a
// diagnostic marked Server on its line of text; an error when the server
// did not judge (a *kube.ConflictError, a *kube.ForbiddenError, a
// *kube.UnavailableError, another failure).
type ServerCheck func(ctx context.Context, base, draft *unstructured.Unstructured, text string) ([]schemacheck.Diagnostic, error)

// ServerCheckTimeout bounds one dry run: the editor asks no more while
// one is out, so a request that hangs must not hold the next for ever.
const ServerCheckTimeout = 15 * time.Second

// Edit runs $EDITOR on text with head at the file's top; what it left
// comes back as an EditorFinished.
func Edit(head editfile.Head, text string, merged bool, format model.Format) tea.Cmd {
	return editfile.Cmd(head, text, merged, format, func(r editfile.Result) tea.Msg { return EditorFinished(r) })
}

// AskServer asks check of msg.Text (obj parsed; nil to parse it here,
// off the UI's goroutine, in format) as the next version of base, and
// answers with msg.
func AskServer(ctx context.Context, check ServerCheck, format model.Format, base, obj *unstructured.Unstructured, msg ServerChecked) tea.Cmd {
	return func() tea.Msg {
		if obj == nil {
			if obj = format.ParseDraft(msg.Text).Object(); obj == nil {
				// Not a draft: its own note says why; nothing to ask.
				return msg
			}
		}
		ctx, cancel := context.WithTimeout(ctx, ServerCheckTimeout)
		defer cancel()
		msg.Found, msg.Err = check(ctx, base, obj, msg.Text)
		return msg
	}
}
