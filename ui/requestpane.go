package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/wire"
	"github.com/kedit/kedit/ui/requests"
	"github.com/kedit/kedit/ui/tour"
)

// The request pane (ui/requests) is over every view, as the help page is:
// L opens it (alt+l in the in-app editor, where L is typed), and while it
// shows it takes the keys. It is drawn from the request log's rows, read
// when it opens and when the log changes while it shows; closed, it costs
// nothing: no row is read, nothing drawn, and the log's change is not
// waited on.

// opensRequests says whether k opens the request pane over the active
// view: L, unless the view takes it as text (the browser's filter or
// prompt; the in-app editor, where alt+l opens it).
func (m App) opensRequests(k tea.KeyMsg) bool {
	switch {
	case m.screen == screenEditor:
		return key.Matches(k, m.keys.Requests.OpenInEditor)
	case m.screen == screenBrowser && m.browser.InputActive():
		return false
	}
	return key.Matches(k, m.keys.Requests.Open)
}

// openRequests shows the pane on the log's rows, the newest selected.
func (m App) openRequests() (App, tea.Cmd) {
	m.requestsOpen = true
	m.requestsGen++
	m.requests.SetRows(wire.Rows(m.cfg.Requests))
	m.requests.Reset()
	return m, effect.WaitRequests(m.cfg.Requests, m.requestsGen)
}

// requestsIntent acts on the pane's intents and the log's changes; false
// for any other message.
func (m App) requestsIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case effect.RequestsChanged:
		if !m.requestsOpen || msg.Gen != m.requestsGen {
			// Closed, or the wait of an earlier opening: the opening
			// that shows reads the log, and waits, itself.
			return m, nil, true
		}
		m.requests.SetRows(wire.Rows(m.cfg.Requests))
		return m, effect.WaitRequests(m.cfg.Requests, m.requestsGen), true
	case requests.ShowRequestMsg:
		if d, ok := wire.Detail(m.cfg.Requests, msg.Seq); ok {
			m.requests.ShowDetail(d)
		}
		return m, nil, true
	case requests.CloseMsg:
		m.requestsOpen = false
		return m, nil, true
	}
	return m, nil, false
}

// theirsReadCmd tells the request log, when ev was a save's conflict (or
// theirs read after one) and sess now rebases, the version of theirs it
// rebases onto: the version the server held, which the 409's row then
// says. Nothing is said of a version kedit did not take as theirs.
func (m App) theirsReadCmd(target *kube.Target, sess *model.Session, ev model.Event) tea.Cmd {
	log := m.cfg.Requests
	switch ev := ev.(type) {
	case model.SaveFailed:
		if model.KindOf(ev.Err) != model.ErrorConflict {
			return nil
		}
	case model.Conflicted:
	default:
		return nil
	}
	if log == nil || target == nil {
		return nil
	}
	var rv string
	switch r := sess.Rebase(); {
	case r != nil:
		rv = r.Theirs.ResourceVersion
	case sess.State() == model.StateSaving:
		// A rebase resubmitted at once (a hot object's status,
		// --auto-rebase): base is theirs now.
		rv = sess.Base().ResourceVersion
	}
	if rv == "" {
		return nil
	}
	path := target.APIPath()
	// --debug's log may get a line: a file's write, so in a command.
	return effect.Do(func() { log.TheirsRead(path, rv) })
}

// kedit demo --tour: the tour's line (ui/tour) over every view. After
// each event the app tells it the session's state and the writes sent;
// it moves on when a step is done, and the app then prepares the demo
// writer for the step that starts.

// tourWriter is the demo writer as the tour prepares it (*demo.Writer).
type tourWriter interface {
	NextWrites(mine bool)
	Reset()
}

// tourUpdate hands the tour the session's state, and prepares the demo
// writer when a step starts; nothing outside the tour.
func (m *App) tourUpdate() {
	if !m.cfg.Tour || m.sess == nil {
		return
	}
	if !m.tour.SetContent(m.tourContent()) {
		return
	}
	m.tourPrepare()
}

// tourContent is the session's state and the writes sent, for the tour.
func (m *App) tourContent() tour.Content {
	return tour.Content{Facts: m.tourFacts(), Requests: wire.TourRequests(m.cfg.Requests, m.target)}
}

// tourPrepare prepares the demo writer for the step that starts: foo set
// back to "1" when the step starts from there, the field its next write
// changes.
func (m *App) tourPrepare() {
	i := m.tour.Step()
	if i >= len(tour.Steps) {
		return
	}
	w, ok := m.demo.(tourWriter)
	if !ok {
		return
	}
	if live, _ := m.sess.Live(); tour.Steps[i].Reset && dataFoo(live.Object) != tour.ResetFoo {
		// A step that starts where the one before left foo needs no
		// write: one would only say it found foo so already.
		w.Reset()
	}
	switch m.tour.Writes() {
	case tour.WritesMine:
		w.NextWrites(true)
	case tour.WritesOther:
		w.NextWrites(false)
	}
}

// tourFacts are the session's state as the tour's steps read it.
func (m *App) tourFacts() tour.Facts {
	s := m.sess
	base := s.Base()
	live, _ := s.Live()
	f := tour.Facts{BaseFoo: dataFoo(base.Object), BaseRV: escape.Safe(base.ResourceVersion), Timeline: m.screen == screenTimeline,
		Blame: m.screen == screenObject && m.object.Blaming(), Lost: m.screen == screenLost, LiveFoo: dataFoo(live.Object), Races: m.tourRaces}
	if d := s.Draft(); d != nil {
		f.Draft, f.DraftFoo = true, dataFoo(d.Object)
		f.Stale = live.ResourceVersion != "" && live.ResourceVersion != base.ResourceVersion
	}
	f.Object = m.screen == screenObject && !m.requestsOpen && !m.help.Shown()
	if r := s.Rebase(); r != nil && r.Merge != nil {
		f.Rebasing = true
		f.Conflicts, f.OpenConflicts, f.Merged = len(r.Merge.Conflicts), s.OpenConflicts(), len(r.Merge.Changes)
		f.TheirsRV = escape.Safe(r.Theirs.ResourceVersion)
	}
	if r := s.LastSave(); r != nil {
		f.SavedRV = r.ResourceVersion
	}
	return f
}

// dataFoo is the demo's field: .data.foo of obj, "" for none.
func dataFoo(obj *unstructured.Unstructured) string {
	if obj == nil {
		return ""
	}
	v, _, _ := unstructured.NestedString(obj.Object, "data", "foo")
	return v
}

// tourIntent acts on the tour's skip key: the next step starts, prepared
// as if the one under way were done; false for any other message.
func (m App) tourIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	if _, ok := msg.(tour.SkipMsg); !ok {
		return m, nil, false
	}
	if !m.cfg.Tour || m.sess == nil {
		return m, nil, true
	}
	skipped := m.tour.Step()
	if !m.tour.Skip(m.tourContent()) {
		return m, nil, true
	}
	var cmd tea.Cmd
	if foo := tour.Steps[skipped].SkipDraftFoo; foo != "" {
		cmd = m.tourDraft(foo)
	}
	m.tourPrepare()
	// The next step's first words read the state the skip left.
	m.tourUpdate()
	return m, cmd, true
}

// tourDraft makes the draft a skipped step would have made, foo changed
// to foo, as the timeline's y makes one (the session's DraftEdited,
// stored on disk, shown in the object view); nothing is sent. A draft
// that changes foo already, or a rebase, is left as it is.
func (m *App) tourDraft(foo string) tea.Cmd {
	if m.sess.Rebase() != nil {
		return nil
	}
	obj := m.sess.Base().Object
	if d := m.sess.Draft(); d != nil {
		if d.Object == nil || dataFoo(d.Object) != dataFoo(obj) {
			return nil
		}
		obj = d.Object
	}
	if obj == nil {
		return nil
	}
	obj = obj.DeepCopy()
	if err := unstructured.SetNestedField(obj.Object, foo, "data", "foo"); err != nil {
		return nil
	}
	text, err := m.sess.DraftTextOf(obj)
	if err != nil {
		m.status.Error(common.ErrorText(err))
		return nil
	}
	cmd := m.draftFromTimeline(text)
	if d := m.sess.Draft(); d != nil && dataFoo(d.Object) == foo {
		m.tour.SkippedWithDraft(m.tourContent())
	}
	return cmd
}

// tourTakes says whether key is the tour's, which it takes over every
// view while a step is under way.
func (m App) tourTakes(msg tea.KeyMsg) bool {
	return m.cfg.Tour && m.tour.Step() < len(tour.Steps) && m.tour.Takes(msg)
}
