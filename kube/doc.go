// Package kube is everything kedit does with the Kubernetes API server:
// kubectl-style flags and resource resolution, the single-object informer,
// the browser's metadata-only lists (Browse) and discovery (Cluster), the
// conflict-safe save strategies, typed API errors and the draft store.
// It never imports Bubble Tea: the UI drives it through plain calls that
// run inside commands.
package kube
