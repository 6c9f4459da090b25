package effect

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/source"
	"github.com/kedit/kedit/ui/internal/sourceplan"
)

// The source's commands: the drafts' edits planned in their manifests,
// and the files written.

type (
	// SourcePlanned is the planned edits of the drafts of the objects Of
	// in their sources, one for each object whose edit could be planned,
	// and why the others' could not; Set: they are a set's objects.
	SourcePlanned struct {
		Of     []ID
		Set    bool
		Plans  []sourceplan.Plan
		Failed []sourceplan.Failure
	}
	// SourceWritten says Files files were written, or committed on
	// Branch.
	SourceWritten struct {
		Files  int
		Branch string
		Err    error
	}
)

// PlanSource plans the edits of drafts, of the objects ids, in their
// sources under dir (sourceplan.PlanAll).
func PlanSource(ctx context.Context, dir string, drafts []sourceplan.Draft, ids []ID, set bool) tea.Cmd {
	return func() tea.Msg {
		plans, failed := sourceplan.PlanAll(ctx, dir, drafts)
		return SourcePlanned{Of: ids, Set: set, Plans: plans, Failed: failed}
	}
}

// WriteSource writes the edits as one: every file is checked before any
// is written (a set's edits are planned one on another). commit commits
// them on a new branch instead, the checkout left as it is.
func WriteSource(edits []*source.Edit, refs []source.Ref, commit bool) tea.Cmd {
	return func() tea.Msg {
		var out SourceWritten
		all, err := source.Combine(edits)
		switch {
		case err != nil:
		case commit:
			out.Branch, err = source.CommitAll(edits, refs)
		default:
			err = all.Write()
		}
		if err != nil {
			out.Err = err
			return out
		}
		out.Files = len(all.Files)
		return out
	}
}
