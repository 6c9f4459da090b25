// Package timeline is the timeline view: every version of the object kedit
// observed since it opened it, newest first, with an audit log's history
// when kedit was given one (its lost updates, reverted values and fights
// marked), and a version's diff against the one before it. The app gives
// it the session's versions as a Content and acts on its intents.
package timeline
