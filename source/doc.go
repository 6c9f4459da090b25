// Package source finds the manifests a live object comes from and writes an
// edit of the object into them.
//
// Find answers where an object comes from under a directory: the file its
// config.kubernetes.io/origin annotation names, the path a GitOps tool
// builds, or else every plain YAML file and every kustomization under the
// directory, built in process with the kustomize API. Plan turns the
// change between base and mine (diff.MergeObjects' changes: fields set and
// removed, list items by key) into edits of the documents that produce
// each field: the resource file, the overlay's strategic-merge or JSON 6902
// patch, a generator's literal, env file or file, or a new patch entry in
// the overlay. A file is parsed with its nodes' positions and each change
// spliced into its text where the node stands (a new key at its
// siblings' indentation, a new list item after its siblings), so that
// every other byte stays whatever the file's layout: blank lines, lists
// indented two ways, flow lists over several lines, block scalars,
// comments and document separators. Only a file that does not parse is
// refused, by its line.
//
// The contract, checked before a plan is returned: building again yields
// the object with the edited value on every changed path, and every other
// object of the build's output unchanged. A plan that cannot keep it is
// an error naming the field and why; nothing is written.
package source
