// Package preview is the dry run's preview (p): the diff between the
// draft and what the server would store, or why the server would refuse
// the save. The app gives it the session's answer as a Content, with the
// refusal's words it computes from the error, and acts on its intent
// (CloseMsg).
package preview
