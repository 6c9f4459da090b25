// Package browser is kedit's browser: the live list of the objects of one
// type (a header, a table of NAME, AGE, CHANGED, BY and DRAFT, and a
// bottom line), filtered with /, sorted with o, and its : prompt, which
// completes types and namespaces and opens the pickers of :ns and
// :drafts.
//
// It imports no kube: the app hands it what it draws as values (Listing,
// a function that reads the next Snapshot, Type, the draft marks) and acts
// on the intents it answers keys with (OpenObjectMsg, SwitchTypeMsg,
// SwitchNamespaceMsg, NamespacesWantedMsg, DraftsWantedMsg,
// OpenDraftMsg). The rows and the prompt are separate states in Model:
// the prompt type holds the : line, its completion and its picker.
package browser
