//go:build !linux

package fsutil

// IsTmpfs reports whether dir is on a tmpfs. Outside Linux kedit does not
// tell, and answers no: the caller then keeps to the temporary directory.
func IsTmpfs(dir string) bool { return false }
