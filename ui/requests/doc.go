// Package requests is the request pane: every request kedit sent and
// every event its watches read, newest last, with the resourceVersion each
// request carried, the answer's status and version and how long it took;
// a 409 says in one line what happened. enter shows a request's body and
// its answer's, as the app hands them over (ShowDetail). It draws the
// rows the app hands it (SetRows), never the log itself.
package requests
