// Package requests is the request pane: every request kedit sent and
// every event its watches read, newest last, with the resourceVersion each
// request carried, the answer's status and version and how long it took;
// a 409 says in one line what happened. A strip under the rows says the
// selected row whole, wrapped at words (Meaning), and ← → scroll the rows
// sideways, so that a narrow pane cuts no row's meaning. enter shows a request's body and
// its answer's, as the app hands them over (ShowDetail). It draws the
// rows the app hands it (SetRows), never the log itself.
package requests
