package model

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Effect is something the session asks its caller to do. The session never
// does I/O itself: kube/ performs each effect and reports the outcome back
// as an Event.
type Effect interface {
	effect()
}

// Save asks kube/ to write Object conditionally on ResourceVersion, with
// the configured strategy (update, patch or apply). ResourceVersion is never
// empty, and Object's metadata.resourceVersion equals it. kube/ answers with
// Saved or SaveFailed.
type Save struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// Object is the whole object to write.
	Object *unstructured.Unstructured
	// ResourceVersion is base's on a first save and theirs' on a resubmit.
	ResourceVersion string
	// Base is the object at ResourceVersion that Object was made from
	// (base, or theirs on a resubmit): the patch strategy sends the
	// difference from it.
	Base *unstructured.Unstructured
	// Resubmit is true when Object is a rebase's merged object.
	Resubmit bool
	// DryRun asks for a server-side dry run (PreviewRequested): kube/
	// answers with Previewed, and nothing is written.
	DryRun bool
	// Force takes the fields of Object that other field managers own
	// (server-side apply's force). The session sets it only on the
	// resubmit of an apply's ownership conflicts, every one of them
	// resolved, at least one to mine; the fields resolved to theirs are
	// left out of Object.
	Force bool
	// Update sends the save as an update (a PUT with ResourceVersion)
	// whatever the configured strategy: SaveRequested{AsUpdate: true}.
	Update bool
	// LeftOut are the fields Object leaves out on purpose, in
	// server-side apply's syntax: ownership conflicts resolved to theirs,
	// which the apply stops claiming and their owners keep. They are not
	// removals of the draft's.
	LeftOut []string
}

// Create asks kube/ to create Object again after it was deleted while
// editing. Object carries no resourceVersion, uid or managedFields: a
// create is conditional on the name being free. kube/ answers with Saved
// or SaveFailed.
type Create struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// Object is the draft, cleaned of what the server assigns.
	Object *unstructured.Unstructured
}

// FetchTheirs asks kube/ for the object as the server has it now, after a
// save was refused with a conflict and the session's live version was not
// newer than base. kube/ answers with Conflicted (or SaveFailed when even
// the read fails; ErrorNotFound if the object is gone): with its
// informer's latest copy, which may be newer than what the session has
// seen, unless Fresh asks for the server's. kube/ does not judge the copy:
// the session checks that theirs is newer than base, and asks again with
// Fresh when the informer's copy is not.
type FetchTheirs struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// NotRV is base's resourceVersion: theirs must be newer.
	NotRV string
	// Fresh asks for the server's copy (a GET), not the informer's.
	Fresh bool
}

// VerifySave asks kube/ for the object as the server has it now, because
// the answer to a save was lost (a reset, a timeout, a 5xx) and the save
// may have gone through. kube/ answers with SaveVerified, or SaveFailed
// when even the read fails. The session never sends a save again without
// this answer: a blind repeat could write twice, or rebase against its own
// write.
type VerifySave struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// ResourceVersion is the version the lost save was conditioned on.
	ResourceVersion string
}

// WriteDraft asks kube/ to store the draft, so that it survives a crash.
// A failed write is kube/'s to report to the user; the session's draft is
// unaffected by it.
type WriteDraft struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// Text is what the user typed, whether it parses or not.
	Text string
	// Format is the format Text is written in, recorded so that a
	// recovered draft opens in it.
	Format Format
	// BaseResourceVersion is base's resourceVersion, recorded so that a
	// recovered draft knows where it started.
	BaseResourceVersion string
	// Base is base itself. Storing it lets a draft recovered after the
	// object moved on be rebased; without it RecoverDraft has to refuse.
	Base *unstructured.Unstructured
	// Seq orders the session's WriteDraft and DeleteDraft effects: it grows
	// with each one. The caller may perform them concurrently; the store
	// must drop one older than the last it performed, so that once they
	// settle the store holds the latest draft, and none after a save.
	Seq uint64
}

// DeleteDraft asks kube/ to remove the stored draft: it was saved or
// discarded.
type DeleteDraft struct {
	// Ref is the object concerned.
	Ref ObjectRef
	// Seq orders the effect among the session's WriteDraft and
	// DeleteDraft effects, as WriteDraft.Seq says.
	Seq uint64
}

// RetrySave asks the caller to send SaveRequested again after Delay: the
// server was unavailable or timed out. The delay doubles with each attempt
// up to a limit, and any other event in between is fine.
type RetrySave struct {
	// Attempt counts the failed attempts so far, from 1.
	Attempt int
	// Delay is how long to wait before sending SaveRequested.
	Delay time.Duration
}

func (Save) effect()        {}
func (Create) effect()      {}
func (FetchTheirs) effect() {}
func (WriteDraft) effect()  {}
func (DeleteDraft) effect() {}
func (RetrySave) effect()   {}
func (VerifySave) effect()  {}
