package conflict

import (
	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// What the conflict view draws: the app builds a Content from the session
// after every event (ui/views.go, conflictContent).

// Content is what the conflict view draws of the session's rebase, as
// the app builds it: its versions' resourceVersions, its conflicts with
// their resolutions, and the changes merged without conflict.
type Content struct {
	// Secret is set for a Secret, whose values are masked until R.
	Secret bool
	// Format is the session's: values that are not strings are shown in
	// it.
	Format model.Format
	// Open is how many conflicts are open.
	Open int
	// Rebasing is set while the session has a rebase; without one the
	// view lists nothing, and the rest of Content is not read.
	Rebasing bool
	// Waiting is set while theirs is read from the server.
	Waiting bool
	// BaseRV and TheirsRV are base's and theirs' resourceVersions;
	// CreatedAgain is the rebase's CreatedAgain: theirs is a new object
	// of this name, first seen at this resourceVersion.
	BaseRV, TheirsRV, CreatedAgain string
	// Ownership is set for an apply's conflict: the conflicts are fields
	// other field managers own.
	Ownership bool
	// Conflicts are the rebase's conflicts, in Session.Conflicts' order.
	Conflicts []Conflict
	// Merged are the changes merged without conflict.
	Merged []diff.Change
}

// Conflict is one of the rebase's conflicts, its resolution and the
// field manager behind theirs.
type Conflict struct {
	diff.Conflict
	// Resolution is the conflict's resolution so far; the zero Choice
	// while it is open.
	Resolution diff.Choice
	// Manager is the field manager that wrote theirs' value, or for an
	// apply's conflict the one that owns the field; empty when unknown.
	Manager string
}

// SetContent shows c's rebase, keeping the selection.
func (m *Model) SetContent(c Content) {
	m.rows, m.merged, m.open = nil, nil, c.Open
	m.secret = c.Secret
	m.format = c.Format
	if !c.Rebasing {
		return
	}
	m.baseRV = escape.Safe(c.BaseRV)
	m.theirsRV = escape.Safe(c.TheirsRV)
	m.createdAgain = escape.Safe(c.CreatedAgain)
	m.waiting = c.Waiting
	m.ownership = c.Ownership
	for _, k := range c.Conflicts {
		m.rows = append(m.rows, m.newConflictRow(k))
	}
	for _, ch := range c.Merged {
		row := newMergedRow(ch, m.styles, m.format)
		if m.secret && common.IsSecretValue(ch.Path) {
			row.secret = true
			row.before, row.after = secretValueText(ch.Base, m.styles), secretValueText(ch.Value, m.styles)
		}
		m.merged = append(m.merged, row)
	}
	m.selected = min(m.selected, max(0, m.entries()-1))
}
