package model

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kedit/kedit/diff"
)

// SaveReport is what a save the server took did, compared with what the
// draft asked for.
type SaveReport struct {
	// ResourceVersion is the version the server stored.
	ResourceVersion string
	// NotStored are the fields the draft set or removed that the server
	// stored otherwise: a removal server-side apply could not do (another
	// manager owns the field), a value the server changed or dropped.
	// Defaults and fields the server owns are not among them.
	NotStored []diff.Mismatch
	// Forced are the fields a server-side apply took from other field
	// managers with force, and from whom.
	Forced []OwnedField
	// AsUpdate is true when the save went as an update at the user's
	// request (SaveRequested{AsUpdate: true}).
	AsUpdate bool
	// Verified is true when the save's answer was lost and kedit learned
	// from the object read back that the server had taken it: nothing was
	// written again.
	Verified bool
	// ServerRebases counts the conflicts this save met with a theirs that
	// changed only what the server owns (status, resourceVersion ...):
	// each was rebased onto theirs and resubmitted at once.
	ServerRebases int
	// RebasedOnto is theirs' resourceVersion of the last of those.
	RebasedOnto string
	// RebasedAgain is what the rule for objects whose data keeps changing
	// did for this save: the rebases it resubmitted at once after the
	// user's resubmit (Rounds 0 when none).
	RebasedAgain RebaseAgain
	// AutoRebased is the last rebase --auto-rebase resubmitted on the way
	// to this save, if any.
	AutoRebased *AutoRebase
	// Unchanged is true when the server already held what was sent: it
	// wrote nothing and kept its resourceVersion, which is then another
	// writer's (a rebase resolved to theirs throughout, say).
	Unchanged bool
	// NewObject is the uid of the object this save took a draft made on an
	// earlier object of this name onto, after the user's yes; "" for any
	// other save.
	NewObject string
	// Warnings are the server's warnings in its answer to the save, in
	// its words: under --validate=warn, each field it dropped.
	Warnings []string
	// Err is set when the comparison could not be made.
	Err error
}

// report compares what the save in flight meant to store, made from base,
// with what the server stored.
func (s *Session) report(p *pendingSave, stored *unstructured.Unstructured) *SaveReport {
	r := &SaveReport{ResourceVersion: stored.GetResourceVersion(), Forced: p.forced, AsUpdate: p.update,
		Verified: p.verified, ServerRebases: s.serverRebases}
	if s.serverRebases > 0 {
		r.RebasedOnto = s.base.ResourceVersion
	}
	if a, ok := s.RebasedAgain(); ok {
		r.RebasedAgain = a
	}
	r.AutoRebased = s.autoRebased
	if p.newObject {
		r.NewObject = uidOf(stored)
	}
	if sent := p.object; sent != nil && sent.GetResourceVersion() != "" && sent.GetResourceVersion() == r.ResourceVersion {
		r.Unchanged = true
	}
	intended := p.intended
	if intended == nil {
		intended = p.object
	}
	if s.base.Object == nil || intended == nil {
		return r
	}
	ms, err := diff.NotStored(s.base.Object, intended, stored, s.opts...)
	if err != nil {
		r.Err = err
		return r
	}
	// Each field by itself, not the list or map it is in.
	for _, m := range diff.Narrow(ms) {
		if !m.Sent.Present && m.Stored.Present && !ownedByOthers(stored, m.Path, s.manager) {
			// A removed field back on the server that no other manager
			// owns is a default the server put back, not a removal
			// that did not happen.
			continue
		}
		r.NotStored = append(r.NotStored, m)
	}
	return r
}

// ownedByOthers says whether a field manager other than kedit's (self) owns path, or
// a field inside it, in obj's managedFields. Without managedFields it
// cannot tell, and says yes.
func ownedByOthers(obj *unstructured.Unstructured, path fieldpath.Path, self string) bool {
	mfs := obj.GetManagedFields()
	if len(mfs) == 0 {
		return true
	}
	want := path.String()
	for _, e := range mfs {
		if e.Manager == self {
			continue
		}
		owned, ok := OwnedFields(&e)
		if !ok {
			continue
		}
		found := false
		owned.Iterate(func(p fieldpath.Path) { found = found || within(p.String(), want) })
		if found {
			return true
		}
	}
	return false
}

// SetFieldManager names the field manager kedit's writes go under
// (--field-manager; FieldManager when empty): a save's report tells the
// fields it owns from other managers' by it.
func (s *Session) SetFieldManager(name string) {
	if name == "" {
		name = FieldManager
	}
	s.manager = name
}

// FieldManager returns the field manager kedit's writes go under.
func (s *Session) FieldManager() string { return s.manager }

// Dropped are the fields of NotStored that the server holds not at all
// where the save set them, or still holds where the save removed them:
// what the user wrote is nowhere on the server, so the draft keeps it
// (Session.KeptAfterSave). A value held in another form (a quantity made
// canonical, a webhook's change) is not among them: it is named, and the
// draft ends.
func (r *SaveReport) Dropped() []diff.Mismatch {
	var out []diff.Mismatch
	for _, m := range r.NotStored {
		if m.Sent.Present != m.Stored.Present {
			out = append(out, m)
		}
	}
	return out
}
