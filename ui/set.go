package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/say"
	"github.com/kedit/kedit/ui/objectset"
)

// The set (kedit cm/a cm/b, -l, -f), wired into the app: the set view
// lists the objects; enter shows one in the object view as kedit shows a
// single object, esc comes back; e edits them in one $EDITOR file, s saves
// every draft, n shows the conflicts one after the other. Every object's
// session, share of the draft store and commands are its own, as for one
// object: each object's state has one home, the set's states, and the
// object shown is the app's objectState by pointer, never a copy; the app
// routes each command's outcome to the object it is of, shown or not.

// setState is the set the app was started on.
type setState struct {
	model *model.Set
	// states are the objects' states, each its object's one home; the
	// one shown (shown, -1 for none) is the app's objectState as well.
	states []*objectState
	shown  int
	// events are the set's watch's (kedit stops the watch as it ends).
	events <-chan kube.SetEvent
	conn   kube.Connection
	// edit is the edit of several objects $EDITOR has; editLeft says
	// which objects it left out and why, said again when $EDITOR is back
	// (the status bar is hidden while it runs).
	edit     *model.SetEdit
	editLeft escape.Text
	// round are the objects the last s sent, for its summary once they
	// are all back (roundSaid).
	round     []int
	roundSaid bool
	// merges are the objects of round whose merges it resubmits, and
	// cleanMerges says that none had a conflict.
	merges      []int
	cleanMerges bool
	// declined are the objects the last s left out, as the user answered
	// the GitOps question.
	declined []int
	// viaNext: the object shown was opened by n, and goes back to the set
	// once its resubmit is saved.
	viaNext bool
	// gitOps are the objects a GitOps tool reconciles that s waits to
	// save, for the question.
	gitOps []int
}

// startSet shows set s and starts its watch.
func (m *App) startSet(s *Set) tea.Cmd {
	st := &setState{shown: -1}
	var sessions []*model.Session
	waiting := 0
	for _, o := range s.Objects {
		ost := m.objects.add(&objectState{sess: o.Session, runner: o.Runner, drafts: o.Drafts, target: o.Target, opened: o})
		if ns := ost.init(m.cfg); len(ns) > 0 {
			ost.note, ost.noteOf = ns[0], model.MemberLive
		}
		// Each object's connection is the set's watch's.
		ost.connKnown = true
		if len(ost.stored) > 0 {
			waiting++
		}
		st.states = append(st.states, ost)
		sessions = append(sessions, o.Session)
	}
	st.model = model.NewSet(sessions)
	st.model.SetFormat(s.Format)
	m.set = st
	m.setView = objectset.New(m.keys.Set, m.styles)
	m.setView.SetTitle(s.Title)
	m.setView.SetConnection(say.Connection(st.conn))
	m.goTo(screenSet)
	if waiting > 0 {
		m.ask(confirmSetRecover)
	}
	m.refreshSet()
	if s.Watch == nil {
		return nil
	}
	w, err := s.Watch(m.ctx)
	if err != nil {
		m.status.Error("the objects are not watched: " + common.ErrorText(err))
		return nil
	}
	st.events = w.Events()
	return effect.WatchSet(st.events)
}

// member returns object i's state, shown or not.
func (m *App) member(i int) *objectState {
	return m.set.states[i]
}

// setOutcome takes an outcome of the set's commands: its watch and the
// edit of several objects in $EDITOR; false for any other message. (The
// outcomes of each object's commands find it by their effect.ID.)
func (m App) setOutcome(msg tea.Msg) (App, tea.Cmd, bool) {
	if m.set == nil {
		return m, nil, false
	}
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case effect.SetWatched:
		if msg.Ch == m.set.events {
			cmd = m.setWatched(msg.Event)
			cmd = tea.Batch(cmd, effect.WatchSet(m.set.events))
		}
	case effect.SetWatchClosed:
		cmd = m.setConnection(effect.Watched{Closed: true}, kube.Connection{State: kube.Stopped})
	case effect.EditorFinished:
		if m.set.edit == nil {
			return m, nil, false // the object shown's
		}
		m.life.editorOpen = false
		m, cmd = m.setEditorFinished(msg)
		if m.life.terminating != nil {
			cmd = tea.Batch(cmd, tea.Quit)
		}
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// setIntent acts on what the set view asked for; false for any other
// message.
func (m App) setIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case objectset.OpenMemberMsg:
		m.enterMember(msg.Member)
	case objectset.NextConflictMsg:
		i, ok := m.set.model.NextConflict()
		if !ok {
			m.status.Info("no save of the set waits on a conflict")
			break
		}
		m.enterMember(i)
		m.set.viaNext = true
		m.goTo(screenConflict)
	case objectset.EditMsg:
		cmd = m.editSet(msg.Members)
	case objectset.SaveMsg:
		cmd = m.saveSet(false, nil)
	default:
		return m, nil, false
	}
	return m, cmd, true
}

// setWatched hands an event of the set's watch to its object, shown or
// not, as one object's watch's event; the set's connection state is each
// object's.
func (m *App) setWatched(ev kube.SetEvent) tea.Cmd {
	s := m.set
	if ev.Member < 0 {
		return m.setConnection(effect.Watched{Event: ev.Event}, ev.Event.Connection)
	}
	if ev.Member >= len(s.states) {
		return nil
	}
	id := s.states[ev.Member].id
	return m.outcome(id, effect.Watched{Of: id, Event: ev.Event})
}

// setConnection takes the set's connection state c, which msg brings to
// each of its objects (a save waiting out its back-off goes once the
// server answers again).
func (m *App) setConnection(msg effect.Watched, c kube.Connection) tea.Cmd {
	s := m.set
	s.conn = c
	m.setView.SetConnection(say.Connection(c))
	var cmds []tea.Cmd
	for _, st := range s.states {
		msg.Of = st.id
		cmds = append(cmds, m.reach(st, msg))
	}
	m.refreshSet()
	return tea.Batch(cmds...)
}

// enterMember shows object i in the object view.
func (m *App) enterMember(i int) {
	s := m.set
	st := s.states[i]
	s.shown, s.viaNext = i, false
	m.take(st, false)
	m.status.Info("")
	if r := st.sess.Rebase(); r != nil {
		m.goTo(screenConflict)
	}
}

// backToSet goes from the object shown to the set view (esc), which needs
// no wait: the object's outcomes find it in the set.
func (m App) backToSet() (App, tea.Cmd) {
	s := m.set
	i := s.shown
	m.watch, m.events = nil, nil
	s.shown, s.viaNext = -1, false
	m.objectState = &objectState{}
	m.goTo(screenSet)
	m.help.Close()
	m.setView.Select(i)
	m.refreshSet()
	m.status.Info("")
	return m, nil
}

// shownSettled goes back to the set once the object n opened is saved,
// saying so and what conflicts are left.
func (m App) shownSettled(cmd tea.Cmd) (App, tea.Cmd) {
	s := m.set
	if s == nil || s.shown < 0 || !s.viaNext || m.sess.State() != model.StateSaved || m.screen != screenObject || m.confirm.kind != confirmNone {
		return m, cmd
	}
	name := objectName(keyOf(m.target))
	rv := m.sess.Base().ResourceVersion
	unchanged := m.sess.LastSave() != nil && m.sess.LastSave().Unchanged
	m, back := m.backToSet()
	text := "saved " + name + " rv " + escape.Safe(rv)
	if unchanged {
		text = name + ": nothing to write, rv " + escape.Safe(rv) + " already holds it"
	}
	if n := s.model.Conflicts(); n > 0 {
		text += escape.Textf("; %s left: n opens the next", model.Count(n, "conflict"))
	}
	m.status.OK(text)
	return m, tea.Batch(cmd, back)
}

// setNames names objects of the set for a sentence: the first three, and
// how many more.
func (m App) setNames(members []int) escape.Text {
	var names []escape.Text
	for k, i := range members {
		if k == 3 {
			names = append(names, escape.Textf("%d more", len(members)-3))
			break
		}
		names = append(names, objectName(keyOf(m.member(i).target)))
	}
	return escape.Join(names, ", ")
}

// objectKeys are the keys of the object's views: in a set, esc goes back
// to the set, and its help says so.
func (m App) objectKeys() KeyMap {
	k := m.keys
	if m.set != nil {
		k.Object.BackToList = common.StateHelp(k.Object.BackToList, "back to the set")
	}
	return k
}

// Set is the objects of a set, opened: kedit cm/a cm/b, -l, -f.
type Set struct {
	// Objects are the set's objects, in order, each opened as
	// Cluster.Open opens one, but without a watch of its own (Watch is
	// nil): the set watches them all.
	Objects []*Object
	// Title says how the set was named, for the header: `configmaps -l
	// app=web in namespace "web"`.
	Title string
	// Format is the format of the set's edit in $EDITOR (-o); "" is YAML.
	Format model.Format
	// Watch starts the watch of every object; the app stops it when it
	// ends.
	Watch func(ctx context.Context) (SetWatcher, error)
}

// SetWatcher is a started watch of a set's objects (*kube.SetWatch).
type SetWatcher interface {
	Events() <-chan kube.SetEvent
	Stop()
}

// Each object of the set, shown or not, is one object as any other: its
// outcomes find it by its effect.ID (App.outcome), and the save round goes
// on after each of its events (App.apply).

// pumpSet sends what the save round may send now.
func (m *App) pumpSet() tea.Cmd {
	if m.set == nil {
		return nil
	}
	cmd := m.runSetEffects(m.set.model.Pump())
	m.refreshSet()
	return cmd
}

// runSetEffects performs the set's effects, each with its object's runner.
func (m *App) runSetEffects(effects []model.SetEffect) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range effects {
		cmds = append(cmds, m.member(e.Member).run(m.ctx, e.Effect)...)
		if e.Member == m.set.shown {
			m.refresh()
		}
	}
	return tea.Batch(cmds...)
}

// memberOf finds the object st in the set, by its effect.ID.
func (m *App) memberOf(st *objectState) (int, bool) {
	if st == nil {
		return -1, false
	}
	return m.memberByID(st.id)
}

// memberByID finds the object id names in the set.
func (m *App) memberByID(id effect.ID) (int, bool) {
	if m.set == nil {
		return -1, false
	}
	for i, o := range m.set.states {
		if o.id == id {
			return i, true
		}
	}
	return -1, false
}

// noteMember says n on object i's row, until its state changes.
func (m *App) noteMember(i int, n notice) {
	st := m.set.states[i]
	st.note, st.noteOf = n, m.set.model.Status(i).State
}

// setMembers are the objects members of the set.
func (m *App) setMembers(members []int) []*objectState {
	out := make([]*objectState, len(members))
	for k, i := range members {
		out[k] = m.member(i)
	}
	return out
}
