// Package drafts is kedit's draft store: the user's unsaved text of an
// object and the base it was made from, on disk under
// $XDG_STATE_HOME/kedit/drafts, so that an edit survives a crash, a closed
// terminal or a lost connection. It owns the files (their paths, format,
// modes and locks), the listing of `kedit drafts`, and the rules that two
// kedits never write one file and that writes settle on the latest.
//
// It knows nothing of Kubernetes: kube names the object (Key) and turns
// what is stored into the session's terms.
package drafts
