// Package cluster is the app's ui.Cluster: it opens objects for the UI
// (the GET before the session opens, the server's schemas for the merge,
// the object's share of the draft store, the watch), opens a set's
// objects each as one object is opened, starts the browser's live list,
// and reads an object's history from audit logs for its timeline.
//
// It holds what kedit keeps per opened object until the app lets go of
// it, and stores every latest draft when kedit ends (Opener.CloseAll).
// The commands in package main build an Opener from their flags and hand
// it to the app; the UI never imports this package.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/drafts"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui"
)

// StartFunc runs once an object is opened, before the UI shows it (kedit
// demo starts its second writer there, which the app's W drives); the
// returned stop runs when the object is let go of.
type StartFunc func(ctx context.Context, client dynamic.Interface, target *kube.Target) (stop func(), demo ui.DemoWriter, err error)

// Options are the settings every object an Opener opens shares: the
// command line's.
type Options struct {
	// Flags are the connection flags the cluster was reached with; they
	// resolve subresources and read the server's schemas.
	Flags *kube.ConnFlags
	// Store is the draft store each object gets its share of.
	Store *drafts.Store
	// Strategy is how every save is sent (--strategy).
	Strategy kube.Strategy
	// Logger is where what cannot be said on the screen is logged
	// (--debug).
	Logger logr.Logger
	// Started, when set, runs for each object opened alone.
	Started StartFunc
	// Format is the text objects are edited in (-o), Subresource the part
	// of each object edited (--subresource), FieldManager the manager of
	// every write (--field-manager).
	Format       model.Format
	Subresource  kube.Subresource
	FieldManager string
	// Validation is what the server does with an unknown or duplicate
	// field in every write (--validate).
	Validation kube.Validation
	// AuditLogs are --audit-log's files and log engines' URLs: each
	// object's timeline starts with its history from them.
	AuditLogs []string
	// AuditToken is --audit-token, a log engine's bearer token (empty:
	// $KEDIT_AUDIT_TOKEN).
	AuditToken string
	// TimelineOut is --timeline-out's file, where each version observed
	// is appended; empty for none.
	TimelineOut string
}

// Opener is the app's ui.Cluster: it lists for the browser through
// kube.Cluster and opens objects, the one named on the command line,
// those picked in the browser and a set's alike, so the rules of opening
// one live here once. It keeps every
// object it opened until the app lets go of it, and CloseAll stores their
// latest drafts when kedit ends.
type Opener struct {
	*kube.Cluster
	flags    *kube.ConnFlags
	store    *drafts.Store
	strategy kube.Strategy
	logger   logr.Logger
	// timeline is --timeline-out's file, shared by every object (each line
	// names its object); nil without the flag.
	timeline *kube.TimelineLog
	// The rest are Options' fields, as New was given them.
	started      StartFunc
	format       model.Format
	subresource  kube.Subresource
	fieldManager string
	validation   kube.Validation
	auditLogs    []string
	auditToken   string

	mu      sync.Mutex
	objects map[*openObject]bool
	// setWatches are the watches of the sets opened, stopped at the end.
	setWatches []*kube.SetWatch
	// builtinSchemas starts parsing client-go's schemas once an object is
	// opened; the browser alone never needs them.
	builtinSchemas sync.Once
	// gvSchemas are the server's schemas read so far, by group-version.
	schemasMu sync.Mutex
	gvSchemas map[schema.GroupVersion]schemaResult
	// kindChecks are the schemas of the kinds checked so far
	// (schemacheck), read when a draft of the kind is first checked.
	checksMu   sync.Mutex
	kindChecks map[schema.GroupVersionKind]checkResult
}

// openObject is what the Opener keeps of one object it opened.
type openObject struct {
	target *kube.Target
	sess   *model.Session
	runner *kube.Runner
	drafts *drafts.Object
	// watch is the object's latest watch, which a save's conflict reads
	// theirs from (Runner.Cached).
	watch atomic.Pointer[kube.Watch]
	// stopStarted stops what started ran for it.
	stopStarted func()
}

// New is an Opener of objects on c, with opts; it opens --timeline-out's
// file, the one error it may return.
func New(c *kube.Cluster, opts Options) (*Opener, error) {
	o := &Opener{Cluster: c, flags: opts.Flags, store: opts.Store, strategy: opts.Strategy, logger: opts.Logger, started: opts.Started,
		format: opts.Format, subresource: opts.Subresource, fieldManager: opts.FieldManager, validation: opts.Validation, auditLogs: opts.AuditLogs,
		auditToken: opts.AuditToken}
	if opts.TimelineOut != "" {
		tl, err := kube.OpenTimelineLog(opts.TimelineOut)
		if err != nil {
			return nil, err
		}
		o.timeline = tl
	}
	return o, nil
}

// withStoredDrafts adds to err, when the object is not found, where the
// drafts earlier kedits left of it are: kedit opens only an object that
// exists (its object view creates a deleted one again from the draft),
// so the file is how the user reaches the text.
func (o *Opener) withStoredDrafts(err error, t *kube.Target) error {
	var nf *kube.NotFoundError
	if !errors.As(err, &nf) || o.store == nil {
		return err
	}
	entries, lerr := o.store.DraftsOf(kube.DraftKey(t))
	switch {
	case lerr != nil || len(entries) == 0:
		return err
	case len(entries) == 1:
		return fmt.Errorf("%w; a draft of it that an earlier kedit left is stored in %s (kedit drafts lists it)", err, entries[0].Path)
	}
	return fmt.Errorf("%w; %s of it that earlier kedits left are stored, the newest in %s (kedit drafts lists them)", err, words.Count(len(entries), "draft"), entries[0].Path)
}

// Open reads t's object and opens it: its session, its runner, its drafts.
// The error of the GET says what the user needs to know (missing,
// forbidden ...), and where the drafts of a missing one are.
func (o *Opener) Open(ctx context.Context, t *kube.Target) (*ui.Object, error) {
	if t.Subresource != o.subresource {
		// An object picked in the browser: the subresource of its type,
		// which must have one.
		c := *t
		if err := kube.WithSubresource(o.flags, &c, o.subresource); err != nil {
			return nil, err
		}
		t = &c
	}
	obj, err := kube.Get(ctx, o.Dynamic, t)
	if err != nil {
		return nil, o.withStoredDrafts(err, t)
	}
	ob, opened, err := o.openRead(ctx, t, obj)
	if err != nil {
		return nil, err
	}
	if o.started != nil {
		stop, d, err := o.started(ctx, o.Dynamic, t)
		if err != nil {
			ob.close()
			return nil, err
		}
		ob.stopStarted, opened.Demo = stop, d
	}
	ob.runner.Cached = ob.cached
	opened.Watch = func(ctx context.Context) (ui.Watcher, error) { return o.watch(ctx, ob) }
	o.keep(ob)
	return opened, nil
}

// openRead opens t's object as read (obj): the rules of opening one object
// that an object opened alone and a set's objects share. The caller sets
// the runner's Cached and the Object's Watch, and keeps ob.
func (o *Opener) openRead(ctx context.Context, t *kube.Target, obj *unstructured.Unstructured) (*openObject, *ui.Object, error) {
	// The first conflict should not wait for client-go's schemas to parse.
	o.builtinSchemas.Do(func() { go diff.LoadBuiltinSchemas() })
	// Drafts of this object on this cluster; the other kedits editing it
	// keep theirs in files of their own.
	drafts := o.store.Open(kube.DraftKey(t), string(obj.GetUID()))

	// The server's schema of the object's group-version tells the merge
	// which lists of a custom resource merge item by item. It is read once
	// and kept on disk; without it the merge falls back to client-go's
	// schemas, then to treating every list as one value.
	// A built-in kind's schema is client-go's (diff's built-in schemas,
	// Go data): reading the server's would cost requests and parsing a
	// document of megabytes before the first frame, for the same lists.
	mergeOpts := t.MergeOptions()
	var notice string
	if o.format.For(t.Ref()) != o.format {
		notice = model.SecretStaysYAML
	}
	if !kube.BuiltinKind(t) {
		if schemas, err := o.schemas(t); err == nil {
			mergeOpts = append(mergeOpts, diff.WithSchemas(schemas))
		} else {
			o.logger.Info("no server schema", "err", err.Error())
			notice = joinNotice(notice, "could not read the server's schema ("+err.Error()+"): lists of custom resources merge as one value")
		}
	}

	ob := &openObject{target: t, drafts: drafts}
	ob.runner = &kube.Runner{Client: o.Dynamic, Target: t, Strategy: o.strategy, Drafts: drafts, MergeOptions: mergeOpts,
		Cached: ob.cached, FieldManager: o.fieldManager, Validation: o.validation}
	ob.sess = model.NewSession(t.Ref(), mergeOpts...)
	ob.sess.SetFormat(o.format)
	ob.sess.SetFieldManager(o.fieldManager)
	o.mu.Lock()
	timeline := o.timeline
	o.mu.Unlock()
	if timeline != nil {
		ob.runner.TimelineOut = timeline
		ob.sess.EmitTimeline()
	}
	_, effects, err := ob.sess.Handle(model.Opened{Object: obj, At: time.Now()})
	if err != nil {
		drafts.Close()
		return nil, nil, err
	}
	for _, eff := range effects {
		if _, err := ob.runner.Perform(ctx, eff); err != nil {
			drafts.Close()
			return nil, nil, err
		}
	}
	opened := &ui.Object{
		Target: t, Session: ob.sess, Runner: ob.runner, Drafts: drafts, Notice: notice,
		Read:    func(ctx context.Context) (*unstructured.Unstructured, error) { return kube.Get(ctx, o.Dynamic, t) },
		MaySave: func(ctx context.Context) error { return kube.MaySave(ctx, o.Dynamic, t, o.strategy) },
		// The save's own request with dryRun=All, as the user types.
		ServerCheck: ob.runner.ServerCheck,
		GitOpsPath: func(ctx context.Context, owner model.GitOpsOwner) (string, string, error) {
			return kube.GitOpsPath(ctx, o.Dynamic, owner)
		},
		Close: func() { o.release(ob) },
	}
	if t.Subresource == "" {
		// A subresource's text (a Scale, a status) is not of the kind.
		opened.Check = func(ctx context.Context, text string, obj, old *unstructured.Unstructured) ([]schemacheck.Diagnostic, error) {
			s, err := o.checkSchema(t)
			if err != nil {
				return nil, err
			}
			var oldObj map[string]any
			if old != nil {
				oldObj = old.Object
			}
			return underValidation(s.CheckUpdate(text, obj.Object, oldObj), o.validation), nil
		}
		opened.Schema = func() (*schemacheck.Schema, error) { return o.checkSchema(t) }
	}
	if len(o.auditLogs) > 0 {
		opened.History = newHistoryReader(o.auditLogs, AuditOptions{Token: o.auditToken, Debug: logLines{o.logger}}, t, mergeOpts).read
	}
	return ob, opened, nil
}

// underValidation is found as the server judges it under v: an unknown
// or repeated field is refused when v is strict, and otherwise dropped
// from the object the server takes, which its diagnostic says.
func underValidation(found []schemacheck.Diagnostic, v kube.Validation) []schemacheck.Diagnostic {
	for i, d := range found {
		switch {
		case !d.Dropped:
		case v == kube.ValidationWarn || v == kube.ValidationIgnore:
			found[i].Message = kube.DropWords(d.Path, v)
		default:
			found[i].Dropped = false
		}
	}
	return found
}

// keep holds ob until the app lets go of it, or kedit ends.
func (o *Opener) keep(ob *openObject) {
	o.mu.Lock()
	if o.objects == nil {
		o.objects = map[*openObject]bool{}
	}
	o.objects[ob] = true
	o.mu.Unlock()
}

// joinNotice puts two notices in one status line.
func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// cached is the object as its watch last saw it.
func (ob *openObject) cached() (*unstructured.Unstructured, bool) {
	if w := ob.watch.Load(); w != nil {
		return w.Latest()
	}
	return nil, false
}

// watch starts a watch of ob's object; the app stops it.
func (o *Opener) watch(ctx context.Context, ob *openObject) (ui.Watcher, error) {
	// A client of the watch's own, whose connections it keeps an eye on:
	// a server that goes away is said at once.
	w, err := kube.NewWatchForConfig(o.Config, ob.target)
	if err != nil {
		return nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, err
	}
	ob.watch.Store(w)
	return w, nil
}

// release lets go of an object the app left without a draft.
func (o *Opener) release(ob *openObject) {
	o.mu.Lock()
	delete(o.objects, ob)
	o.mu.Unlock()
	ob.close()
}

func (ob *openObject) close() {
	if w := ob.watch.Load(); w != nil {
		w.Stop()
	}
	ob.drafts.Close()
	if ob.stopStarted != nil {
		ob.stopStarted()
	}
}

// CloseAll ends every object kedit still holds: each one's latest draft
// goes to the store first, as the last write may still have been on its
// way.
func (o *Opener) CloseAll(stderr io.Writer) {
	o.mu.Lock()
	objects, timeline, sets := o.objects, o.timeline, o.setWatches
	o.objects, o.timeline, o.setWatches = nil, nil, nil
	o.mu.Unlock()
	for _, sw := range sets {
		sw.Stop()
	}
	for ob := range objects {
		storeLatest(stderr, ob.runner, ob.sess)
		ob.close()
	}
	if timeline != nil {
		_ = timeline.Close()
	}
}

// storeLatest brings the draft store up to sess. A Secret's draft kept in
// memory stays there; any other failure is said on stderr, the terminal
// being the app's no more.
func storeLatest(stderr io.Writer, r *kube.Runner, sess *model.Session) {
	_, err := r.Perform(context.Background(), sess.StoreDraft())
	var secret *drafts.SecretError
	if err != nil && !errors.As(err, &secret) {
		fmt.Fprintln(stderr, "kedit:", escape.String(err.Error()))
	}
}
