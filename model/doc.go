// Package model is kedit's domain: object references and versions, the edit
// session as a pure state machine (base, draft, live, conflicts and their
// resolutions) and the timeline of observed versions. It does no I/O and
// knows nothing of terminals or API clients.
//
// The words mean the same everywhere: base is the version a draft was made
// from; the draft is mine, what the user typed; live is the latest version
// the informer delivered; theirs is the server's version after a save was
// refused with a conflict; a rebase merges mine onto theirs
// (diff.MergeObjects(base, mine, theirs)); a resubmit saves the merged
// object with theirs' resourceVersion.
//
// The UI owns one Session and hands it every intent and every outcome:
//
//	state, effects, err := sess.Handle(model.SaveRequested{})
//
// Effects (Save, Create, FetchTheirs, VerifySave, WriteDraft, DeleteDraft,
// RetrySave)
// are for the caller to perform, in kube/ inside tea.Cmd closures, and
// their outcomes come back as events (Saved, SaveFailed, Conflicted,
// SaveVerified, Previewed). kube/ classifies API errors with an ErrorKind by implementing
// KindedError (and CausedError for field causes) on its typed errors.
//
// The states:
//
//	viewing ──DraftEdited──▶ editing ──SaveRequested──▶ saving ──Saved──▶ saved
//	                            ▲                         │
//	                            │                         ├─SaveFailed (not a conflict)──▶ failed
//	                            │                         └─SaveFailed (conflict)
//	                            │                                   │  theirs in the informer's cache?
//	                            │                          no: FetchTheirs ──▶ waiting for theirs
//	                            │                                   │              │ Conflicted
//	                            │                                   ▼ yes          ▼
//	                            └──MergedEdited── rebasing (no open conflict) ◀─Resolve─▶ resolving
//	                                                   │
//	                                                   └─Resubmit──▶ saving (with theirs' resourceVersion)
//
// A Saved whose report has NotStored (the server stored otherwise than the
// draft at some path) goes back to editing instead of saved: the draft keeps
// what the user wrote, made from the saved version (KeptAfterSave), and is
// written again rather than deleted.
//
// Three rules settle a save without the user. A conflict whose theirs
// differs from base only in what the server owns (status, resourceVersion,
// managedFields: a hot object's heartbeat) is rebased and resubmitted at
// once, never shown in the conflict view. Once the user has resubmitted a
// rebase they saw, a conflict whose theirs collides with nothing the user
// changed or decided (another writer patching the object's data all the
// time) is rebased and resubmitted at once too, up to MaxRebasesAgain in a
// row (RebasedAgain says what it merged). A save whose answer was lost (a
// reset, a timeout, a gateway's 5xx: SaveFailed with a retryable kind, or
// an error that says MayHaveLanded) may have gone through, so the next save
// first asks for the object (VerifySave); its answer (SaveVerified) reports
// the save as saved when the object holds it, sends it again only when
// nothing was written since, and rebases when someone else wrote. Only a
// save that got no answer is retried (RetrySave, and Reconnected once the
// server answers again); any answer is final (retry.go).
//
// An object deleted and created again under the same name is another
// object (another uid, MadeOnEarlierObject): a draft made on the earlier
// one is never merged onto the new one, nor sent to it, before the user
// says yes (SaveRequested{OntoNewObject: true}); without it the save is
// refused with a *RecreatedError, or, when only the save's conflict found
// the new object, fails with ErrorRecreated, the draft as it was.
//
// RebaseRequested enters the rebase from editing without a conflict;
// MergedEdited (the merged text edited by hand) leaves rebasing or resolving
// for editing; AbandonRebase leaves any of the three rebase states for
// editing; DiscardDraft leaves anything but saving for viewing; a
// conflict on a resubmit starts the rebase again with the newer theirs.
package model
