// Package sourcediff is the view of an edit written back into the
// object's source manifests: where the object comes from, the file each
// changed field goes into, and the files' diff, before anything is
// written. y writes the files, c writes and commits them, esc goes back.
package sourcediff
