// Package diff compares and merges the three versions kedit holds when a
// save hits a conflict: base (what the user started from), mine (the user's
// draft) and theirs (what the server has now).
//
// It works at two levels. The line level (LineDiff, Merge3Text) is a diff3
// text merge whose output matches `git merge-file` byte for byte, with the
// flags of git's that TextOptions stand for (--diff3 for the zero value). The
// object level (MergeObjects) merges Kubernetes objects field by field with
// structured-merge-diff, and falls back to the line level for multi-line
// string values. Hunks and conflicts are plain data so that the UI can draw
// them its own way. The package does no I/O.
package diff
