package fsutil

import "syscall"

// tmpfsMagic is TMPFS_MAGIC from linux/magic.h, the f_type statfs(2) gives
// a tmpfs.
const tmpfsMagic = 0x01021994

// IsTmpfs reports whether dir is on a tmpfs, a file system held in memory
// (and swap) that never reaches a disk.
func IsTmpfs(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == tmpfsMagic
}
