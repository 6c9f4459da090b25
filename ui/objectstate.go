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
	// id names it for the outcomes of its commands (registry.go).
	id     objectID
	sess   *model.Session
	runner Performer
	drafts Drafts
	// target names the object, opened the Cluster's handle on it; both
	// nil for an app started on Config.Session.
	target *kube.Target
	opened *Object
	// events is the watch's channel, watch the watch the app started.
	events <-chan kube.WatchEvent
	watch  Watcher
	// inflight counts the commands whose outcome has not come back
	// (effects, moves of stored drafts): an object let go of is closing
	// until they are (registry.go).
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
	// access is whether the user may save this object (access.go).
	access accessState
	// srcLine is what the object view says of its source (sourceline.go).
	srcLine sourceLineState
	// diag is the schema's word on the draft (diagnostics.go).
	diag diagState
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
	m.screen = screenObject
	m.views.renew(m.objectKeys(), m.styles, m.canLeave())
	m.views.object.SetDemo(m.demo != nil)
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
// the event, and what there is to say of it.
type handled struct {
	before, after model.State
	cmds          []tea.Cmd
	err           error
	// retry says when a failed save is tried again, if it is.
	retry escape.Text
	// autoRebased is what --auto-rebase resubmitted at once, if it did
	// so now.
	autoRebased *model.AutoRebase
}

// handle hands ev to o's session and runs its effects: the one way an
// event reaches an object, shown or not.
func (o *objectState) handle(ctx context.Context, ev model.Event) handled {
	h := handled{before: o.sess.State()}
	prev, _ := o.sess.AutoRebased()
	var effects []model.Effect
	h.after, effects, h.err = o.sess.Handle(ev)
	for _, eff := range effects {
		if r, ok := eff.(model.RetrySave); ok {
			h.retry = say.Retry(o.sess.Failure(), r.Delay)
		}
	}
	if a, ok := o.sess.AutoRebased(); ok && a != prev {
		h.autoRebased = &a
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
			cmds = append(cmds, retryCmd(o.id, r))
			continue
		}
		if o.runner != nil {
			o.inflight++
			cmds = append(cmds, performCmd(ctx, o.id, o.runner, eff))
		}
	}
	return cmds
}

// key names the object: the zero key for an app started on a session.
func (o *objectState) key() DraftKey {
	if o.target == nil {
		return DraftKey{}
	}
	return keyOf(o.target)
}

// notice is something to say of an object, in the status bar or on its
// row in the set.
type notice struct {
	text escape.Text
	err  bool
}

// say says n in the status bar.
func (n notice) say(sb *statusbar.Model) {
	if n.err {
		sb.Error(n.text)
	} else {
		sb.Info(n.text)
	}
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
		out = append(out, notice{common.ErrorText(w[0]) + "; kedit leaves it alone", true})
	}
	if others := d.Others(); len(others) > 0 {
		out = append(out, notice{escape.Textf("another kedit (pid %d) is editing this object; this one stores its draft in %s", others[0].PID, o.draftPath), false})
	}
	if err := d.Problem(); err != nil {
		o.diskFailed, o.diskWarned = true, true
		out = append(out, notice{"drafts exist only in memory: " + common.ErrorText(err), true})
	}
	o.stored = d.Stored()
	return out
}
