package model

import "time"

func (s *Session) discard() ([]Effect, error) {
	if s.state == StateSaving {
		return nil, &StateError{Event: "discard the draft", State: s.state, Reason: "a save is in flight"}
	}
	s.draft, s.rebase, s.failure, s.retries, s.unsure = nil, nil, nil, 0, nil
	if !s.liveDeleted {
		s.base = s.live
	}
	s.state = StateViewing
	return []Effect{s.deleteDraft()}, nil
}

// recover takes a stored draft back. Its base must be known: either it is
// the current version, or the store kept the object itself.
func (s *Session) recover(sd StoredDraft) ([]Effect, error) {
	if s.draft != nil || s.rebase != nil || s.state == StateSaving {
		return nil, &StateError{Event: "recover a draft", State: s.state, Reason: "a draft is already open"}
	}
	// The draft opens in the format it was written in.
	s.SetFormat(sd.Format)
	if MadeOnEarlierObject(sd.UID, uidOf(s.base.Object)) {
		// Made on an object of this name that was deleted since: its base
		// is another object's, and a merge from it would be meaningless.
		// The text is taken as it stands, over the object as it is now;
		// the UI warned before asking.
		return s.takeDraft(sd.Text, nil, false, "", "")
	}
	rv := sd.BaseResourceVersion
	if sd.Base != nil && sd.Base.GetResourceVersion() != "" {
		rv = sd.Base.GetResourceVersion()
	}
	switch {
	case rv == s.base.ResourceVersion:
	case sd.Base != nil:
		// The object moved on since the draft was made: keep the draft's
		// own base, so that the save conflicts and the rebase merges the
		// changes in between instead of undoing them.
		s.base = NewVersion(sd.Base, time.Time{})
	default:
		return nil, &StaleDraftError{DraftBase: sd.BaseResourceVersion, Current: s.base.ResourceVersion}
	}
	// The store's base, not the text's: the store kept the draft's base.
	return s.takeDraft(sd.Text, nil, false, "", "")
}
