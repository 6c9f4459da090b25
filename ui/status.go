package ui

import "github.com/kedit/kedit/ui/statusbar"

// statusState sums up the app's state for the status bar.
func (m App) statusState() statusbar.State {
	st := statusbar.State{Browsing: m.screen == screenBrowser, List: m.browser.List()}
	if m.sess != nil {
		// No session is a nil Object, never a nil *model.Session in one:
		// states compare with ==.
		st.Object = m.sess
		st.Phase, st.Draft = m.sess.State(), m.sess.DraftRevision()
		if r := m.sess.Rebase(); r != nil {
			st.Merge = r.Merge
		}
		_, st.Behind = m.sess.ServerChange()
	}
	return st
}
