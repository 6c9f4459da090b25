package model

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
	if !newerRV(s.live.ResourceVersion, from.ResourceVersion) {
		s.change = nil
		return
	}
	if c := s.change; c != nil && c.FromRV == from.ResourceVersion && c.ToRV == s.live.ResourceVersion && !c.Deleted {
		return
	}
	ch, err := Changes(from.Object, s.live.Object, s.opts...)
	w := WriterSince(from.Object, s.live.Object, ch)
	s.change = &ServerChange{FromRV: from.ResourceVersion, ToRV: s.live.ResourceVersion, Manager: w.Manager, Changes: ch, Err: err}
}
