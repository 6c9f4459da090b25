package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/say"
	"github.com/kedit/kedit/ui/statusbar"
	"github.com/kedit/kedit/ui/timeline"
)

// objectState is what the app holds for one object: its session, what
// performs its effects, and where its draft is. Each open object has one,
// held by pointer wherever the object is (shown, in a set, or left for the
// browser with a draft and taken up again when opened again), so that no
// copy of it can fall behind the other.
type objectState struct {
	// id names it for the outcomes of its commands (objectstate.go).
	id     effect.ID
	sess   *model.Session
	runner Performer
	drafts Drafts
	// target names the object (nil for an Object without one, which only
	// tests make), opened the Cluster's handle on it.
	target *kube.Target
	opened *Object
	// events is the watch's channel, watch the watch the app started.
	events <-chan kube.WatchEvent
	watch  Watcher
	// conn is how the watch's link to the server stands, once connKnown:
	// the object's own watch's, or the set's.
	conn      kube.Connection
	connKnown bool
	// inflight counts the commands whose outcome has not come back
	// (effects, moves of stored drafts): an object let go of is closing
	// until they are (objectstate.go).
	inflight int

	// stored are the drafts earlier runs left, offered until answered.
	stored []*drafts.Draft
	// newObjectSave is the save that waits for the yes to saving a draft
	// made on an earlier object onto the new one (newObjectQuestion).
	newObjectSave model.Event
	// editingMerged is set while the in-app editor holds the rebase's
	// merged text rather than the draft.
	editingMerged bool
	// editorFrom is the text the in-app editor was opened on
	// (model.DraftEdited.From).
	editorFrom string

	// Where the draft is: draftPath on disk, unless memoryOnly (a Secret
	// without --allow-secret-drafts, or no store) or the last write failed
	// (diskFailed; said once, diskWarned).
	draftPath              string
	memoryOnly, diskFailed bool
	diskWarned, secretSaid bool
	// storeSeq is the Seq of the newest draft write whose outcome came back.
	storeSeq uint64

	// demo is kedit demo's second writer on this object, which w makes
	// write at once; nil outside the demo.
	demo DemoWriter
	// history reads the object's history from the audit logs, for the
	// timeline; nil without one.
	history timeline.HistoryReader
	// oncall is what the on-call keys keep for this object: a GitOps
	// owner's save confirmed once is confirmed for this object only.
	oncall oncallState
	// access is whether the user may save this object (objectintents.go).
	access accessState
	// srcLine is what the object view says of its source (sourcewrite.go).
	srcLine sourceLineState
	// diag is the schema's and the server's word on the draft
	// (diagnostics.go); server what the app keeps of the server's checks
	// (servercheck.go).
	diag   diagState
	server serverState
	// fieldSchema is the schema the in-app editor completes from, once
	// read (docs.go); schemaReading while it is read, schemaErr why it
	// could not be.
	fieldSchema   editor.Schema
	schemaReading bool
	schemaErr     error
	// note is what an outcome said of the object while not shown, on its
	// row in the set until its state changes (noteOf is the state it was
	// said in).
	note   notice
	noteOf model.MemberState
}

// take makes st the object shown, on fresh views. For an object just
// opened (fresh), it says where its draft goes; drafts earlier runs left
// are offered whenever they wait for an answer (an object of the set is
// taken up again with them).
func (m *App) take(st *objectState, fresh bool) {
	if fresh {
		for _, n := range st.init(m.cfg) {
			n.say(&m.status)
		}
	}
	m.objectState = st
	m.goTo(screenObject)
	m.views.renew(m.objectKeys(), m.styles, m.canLeave())
	m.views.object.SetDemo(m.demo != nil)
	m.showConnection()
	if m.demo != nil && m.cfg.Tour {
		m.views.object.SetTour(demo.WriterManager)
	}
	if m.set != nil {
		m.views.conflict.SetObject(objectName(keyOf(m.target)))
	}
	if len(m.stored) > 0 {
		m.ask(confirmRecover)
	}
	m.refresh()
}

// handled is what an event did to an object: its session's state before
// and after, the commands performing the effects, why the session refused
// the event, and what there is to say of it wherever the object is.
type handled struct {
	before, after model.State
	cmds          []tea.Cmd
	err           error
	// notices say what the object's state does not show: when a failed
	// save is tried again, and what a rebase --auto-rebase resubmitted at
	// once merged (the announcement's one home, for an object shown or
	// not alike).
	notices []notice
}

// handle hands ev to o's session and runs its effects: the one way an
// event reaches an object, shown or not (App.apply says what it did).
func (o *objectState) handle(ctx context.Context, ev model.Event) handled {
	h := handled{before: o.sess.State()}
	prev, _ := o.sess.AutoRebased()
	var effects []model.Effect
	h.after, effects, h.err = o.sess.Handle(ev)
	if a, ok := o.sess.AutoRebased(); ok && a != prev {
		h.notices = append(h.notices, notice{say.AutoRebased(a), noticeInfo})
	}
	for _, eff := range effects {
		if r, ok := eff.(model.RetrySave); ok {
			h.notices = append(h.notices, notice{say.Retry(o.sess.Failure(), r.Delay), noticeFailure})
		}
	}
	h.cmds = o.run(ctx, effects...)
	return h
}

// run turns effects of o's session into commands, for an object shown or
// not alike: each effect performed by o's runner and counted in flight
// (an object let go of is closed once it is back), a retry's delay as a timer.
func (o *objectState) run(ctx context.Context, effects ...model.Effect) []tea.Cmd {
	var cmds []tea.Cmd
	for _, eff := range effects {
		if r, ok := eff.(model.RetrySave); ok {
			cmds = append(cmds, effect.Retry(o.id, r))
			continue
		}
		if o.runner != nil {
			o.inflight++
			cmds = append(cmds, effect.Perform(ctx, o.id, o.runner, eff))
		}
	}
	return cmds
}

// key names the object: the zero key for an Object without a target.
func (o *objectState) key() DraftKey {
	if o.target == nil {
		return DraftKey{}
	}
	return keyOf(o.target)
}

// notice is something to say of an object: in the status bar when it is
// shown, on its row in a set, with its name when it is left for the
// browser (App.notify).
type notice struct {
	text escape.Text
	kind noticeKind
}

// noticeKind is how a notice is said: news, a success, or a failure.
type noticeKind int

const (
	noticeInfo noticeKind = iota
	noticeOK
	noticeFailure
)

// say says n in the status bar.
func (n notice) say(sb *statusbar.Model) {
	switch n.kind {
	case noticeFailure:
		sb.Error(n.text)
	case noticeOK:
		sb.OK(n.text)
	default:
		sb.Info(n.text)
	}
}

// notify says n where the object st is, the one place that decides it: in
// the status bar when st is shown, on its row when it is a set's, and
// with its name on the status line when it is left for the browser (or
// closing).
func (m *App) notify(st *objectState, n notice) {
	if st == m.objectState {
		n.say(&m.status)
		return
	}
	if i, ok := m.memberOf(st); ok {
		m.noteMember(i, n)
		return
	}
	n.text = objectName(st.key()) + ": " + n.text
	n.say(&m.status)
}

// init takes what an object just opened needs from its share of the
// draft store: where its draft goes, whether only in memory, the drafts
// earlier runs left. It returns what there is to say of it. Its session
// resubmits clean rebases at once with --auto-rebase (cfg.AutoRebase).
func (o *objectState) init(cfg Config) []notice {
	o.memoryOnly = true
	o.oncall = oncallState{}
	if o.sess != nil {
		o.sess.SetAutoRebase(cfg.AutoRebase)
		if cfg.YesGitOps {
			o.sess.ConfirmGitOps()
		}
	}
	d := o.drafts
	if d == nil {
		return nil
	}
	var out []notice
	o.draftPath, o.memoryOnly = d.Path(), d.MemoryOnly()
	if w := d.Warnings(); len(w) > 0 {
		// A file at a draft's name that kedit did not write: left alone.
		out = append(out, notice{common.ErrorText(w[0]) + "; kedit leaves it alone", noticeFailure})
	}
	if others := d.Others(); len(others) > 0 {
		out = append(out, notice{escape.Textf("another kedit (pid %d) is editing this object; this one stores its draft in %s", others[0].PID, o.draftPath), noticeInfo})
	}
	if err := d.Problem(); err != nil {
		o.diskFailed, o.diskWarned = true, true
		out = append(out, notice{"drafts exist only in memory: " + common.ErrorText(err), noticeFailure})
	}
	o.stored = d.Stored()
	return out
}

// One home for each open object. The registry holds every object the app
// has open (the one shown, a set's objects, those left for the browser with
// a draft) by its key, each an *objectState held by pointer and never
// copied. The set's order and the shelf's objects are views of it. The
// commands of an object carry its effect.ID, so that each outcome finds its
// object, shown or not, and the outcome of an object let go of finds none.

// registry is the app's open objects.
type registry struct {
	open map[DraftKey]*objectState
	// closing are objects let go of whose commands' outcomes are not all
	// back (a draft's deletion), kept until they are: each outcome finds
	// its object, and what waits for them (the store's drafts listed
	// again, the object's handle closed) comes after.
	closing map[effect.ID]*objectState
	opened  uint64
}

func newRegistry() registry {
	return registry{open: map[DraftKey]*objectState{}, closing: map[effect.ID]*objectState{}}
}

// add makes st an open object, and returns it.
func (r *registry) add(st *objectState) *objectState {
	r.opened++
	st.id = effect.ID{Key: st.key(), N: r.opened}
	r.open[st.id.Key] = st
	return st
}

// find returns the object id names, if it is still open or closing.
func (r registry) find(id effect.ID) (*objectState, bool) {
	if st, ok := r.open[id.Key]; ok && st.id == id {
		return st, true
	}
	st, ok := r.closing[id]
	return st, ok
}

// release lets go of st. It reports whether st is closed: else outcomes
// of its commands are still to come, and st is closing until they are
// back (closed).
func (r *registry) release(st *objectState) bool {
	if cur, ok := r.open[st.id.Key]; ok && cur == st {
		delete(r.open, st.id.Key)
	}
	if st.inflight > 0 {
		r.closing[st.id] = st
		return false
	}
	return true
}

// closed reports whether st, closing, has all its outcomes back, and lets
// go of it if so.
func (r *registry) closed(st *objectState) bool {
	if _, ok := r.closing[st.id]; !ok || st.inflight > 0 {
		return false
	}
	delete(r.closing, st.id)
	return true
}

// whose finds the open object an outcome of id is of, and reports whether
// it is the one shown; nil for an object let go of meanwhile.
func (m App) whose(id effect.ID) (st *objectState, shown bool) {
	st, ok := m.objects.find(id)
	if !ok {
		return nil, false
	}
	return st, st == m.objectState
}
