// Package e2e holds kedit's end-to-end tests: the kedit binary, built from
// the module's root, run in a real terminal (tmux, driven with send-keys
// and read with capture-pane) or under git or script(1), against a real
// API server (localcluster, one per test binary, shared by the parallel
// tests), with kubectl as the other writer and KUBE_EDITOR a script that
// edits the file, as kubectl's own edit tests do. They drive the binary
// only; tests that call kedit's own functions stay beside them (the
// commands beside main.go, the opener in internal/cluster).
//
// One helper starts kedit in tmux, keditEnv.run (start, openKedit and
// runRaw are it with a wait or script(1) around it), and every wait polls
// through internal/testwait: the screen (terminal.waitUntil and the waits
// built on it), a file (waitFile), a log or the server (testwait itself).
package e2e
