// Package kube is everything kedit does with the Kubernetes API server:
// kubectl-style flags and resource resolution, the single-object informer,
// the browser's metadata-only lists (Browse) and discovery (Cluster), the
// conflict-safe save strategies and typed API errors. It names objects for
// the draft store (internal/drafts) and turns what it keeps into the
// session's terms.
// It never imports Bubble Tea: the UI drives it through plain calls that
// run inside commands.
package kube
