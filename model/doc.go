// Package model is kedit's domain: object references and versions, the edit
// session as a pure state machine (base, draft, live, conflicts and their
// resolutions) and the timeline of observed versions. It does no I/O and
// knows nothing of terminals or API clients.
package model
