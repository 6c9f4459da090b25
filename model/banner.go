package model

// ServerChange is what the banner says when the object changed on the
// server while a draft exists: from which version to which, who changed
// it and which fields.
type ServerChange struct {
	// FromRV is the version the draft (or the rebase) is based on.
	FromRV string
	// ToRV is live's version.
	ToRV string
	// Manager is the field manager that wrote live.
	Manager string
	// Changes are the fields that differ from FromRV to ToRV.
	Changes []FieldChange
	// By names the writer of each of Changes when several wrote them
	// (FieldWriters); nil when Manager wrote them all. Several: more
	// writers than one, too many changes to tell one by one.
	By      []string
	Several bool
	// Deleted is true when the object was deleted.
	Deleted bool
	// Recreated is true when live is another object of this name than the
	// one the draft was made on (deleted and created again since); UID is
	// then the new object's uid and Manager the field manager that wrote
	// live. Changes are not compared across objects.
	Recreated bool
	// UID is the new object's uid when Recreated.
	UID string
	// Err is set when the versions could not be compared.
	Err error
}

// updateChange recomputes the banner after every event: it shows while a
// draft or a rebase exists and live has moved past what it is based on.
func (s *Session) updateChange() {
	if !s.opened || (s.draft == nil && s.rebase == nil) {
		s.change = nil
		return
	}
	from := s.base
	if s.rebasing() {
		from = s.rebase.Theirs
	}
	if s.liveDeleted {
		s.change = &ServerChange{FromRV: from.ResourceVersion, ToRV: s.live.ResourceVersion, Deleted: true}
		return
	}
	if uid := uidOf(s.live.Object); MadeOnEarlierObject(uidOf(from.Object), uid) {
		// Another object of this name: what changed is not a question
		// across objects.
		s.change = &ServerChange{FromRV: from.ResourceVersion, ToRV: s.live.ResourceVersion, Manager: Writer(s.live.Object, nil).Manager,
			Recreated: true, UID: uid}
		return
	}
	if !newerRV(s.live.ResourceVersion, from.ResourceVersion) {
		s.change = nil
		return
	}
	if c := s.change; c != nil && c.FromRV == from.ResourceVersion && c.ToRV == s.live.ResourceVersion && !c.Deleted && !c.Recreated {
		return
	}
	ch, err := Changes(from.Object, s.live.Object, s.opts...)
	w := WriterSince(from.Object, s.live.Object, ch)
	by, several := FieldWriters(from.Object, s.live.Object, ch)
	s.change = &ServerChange{FromRV: from.ResourceVersion, ToRV: s.live.ResourceVersion, Manager: w.Manager, Changes: ch, By: by, Several: several, Err: err}
}
