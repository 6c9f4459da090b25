// Package say is what kedit's app says of outcomes, in words: why a save
// failed and when it is tried again, what a save stored, what a rebase
// resubmitted at once merged, how the link to the API server stands. Each
// reads model's and kube's values (the typed errors) and returns text
// already escaped; the app says it in the status bar, or hands it to a view
// as a value. Only the app (package ui) uses it: a view imports no kube.
package say
