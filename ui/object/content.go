package object

import (
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// What the object view draws: the app builds a Content from the session
// after every event (ui/views.go, objectContent).

// Content is what the object view draws, read from the session by the
// app: values the view only reads.
type Content struct {
	Ref model.ObjectRef
	// TextForm is how the objects are rendered as text.
	TextForm common.TextForm
	// Live is the object as the server has it, Deleted once it is gone.
	Live    model.Version
	Deleted bool
	// Base is the version the draft was made from; Draft the draft, nil
	// for none.
	Base  model.Version
	Draft *model.Draft
	// Change is how the object changed on the server under the draft,
	// when Changed.
	Change  model.ServerChange
	Changed bool
	// Rebasing is set while a rebase is under way.
	Rebasing bool
	// Causes are the field causes of the last refused save (a 422);
	// CanUpdate is set when server-side apply could not remove a field
	// and u may send the save as an update.
	Causes    []model.FieldCause
	CanUpdate bool
	// Fights are the fights among the versions kedit observed.
	Fights []model.Fight
}

// SetContent copies what the view shows. The app calls it after every
// event the session handled, so the view never draws a session that moved
// on.
func (m *Model) SetContent(c Content) {
	m.shown = shown{ref: c.Ref, secret: c.Ref.IsSecret(),
		liveRV: escape.Safe(c.Live.ResourceVersion), liveBy: escape.Safe(c.Live.Manager), live: c.Live.Object, deleted: c.Deleted,
		base: c.Base.Object, baseRV: escape.Safe(c.Base.ResourceVersion), draft: c.Draft,
		rebasing: c.Rebasing, causes: c.Causes, canUpdate: c.CanUpdate, fight: fightText(c.Fights, m.tourWriter)}
	m.renders.TF = c.TextForm
	if c.Changed {
		m.shown.banner = common.BannerText(c.Change)
	}
	if o, ok := model.GitOpsOwnerOf(c.Live.Object); ok {
		m.shown.gitOps = escape.Safe(o.Description())
	}
	if c.Draft == nil {
		m.showDiff = false
	}
	m.layout()
}

// SetSource sets the line naming the object's source manifests (which
// file and which kustomization produce it, or why none); "" draws none.
func (m *Model) SetSource(line escape.Text) {
	if m.source != line {
		m.source = line
		m.layout()
	}
}
