// Package conflict is the three-way conflict view: a rebase's conflicts
// and the changes merged without conflict, in one list, and the selected
// entry's versions (base, theirs and mine) side by side or stacked. The
// app gives it the session's rebase as a Content and acts on its intents
// (ResolveMsg, ResolveAllMsg, ResubmitMsg, AbandonRebaseMsg).
//
// Lost, the lost updates' view, is its second model: the conflict view's
// drawing over the versions of an audit log's lost update (CloseLostMsg,
// common.UndoOverwriteMsg).
package conflict
