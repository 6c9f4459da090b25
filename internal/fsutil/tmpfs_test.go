package fsutil

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestIsTmpfsAgreesWithTheMountTable: IsTmpfs answers for a directory what
// /proc/mounts says of the file system it is on, for every mount point
// this machine has that can be read: tmpfs ones among them (/dev/shm,
// /run on most machines; devtmpfs is one too) and disk ones.
func TestIsTmpfsAgreesWithTheMountTable(t *testing.T) {
	f, err := os.Open("/proc/mounts")
	if err != nil {
		t.Fatalf("the mount table: %v", err)
	}
	defer f.Close()
	checked, tmpfs := 0, 0
	seen := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 {
			continue
		}
		// A later mount on the same point hides the earlier one.
		seen[fields[1]] = fields[2]
	}
	for dir, typ := range seen {
		if strings.ContainsRune(dir, '\\') { // an escaped space: not worth unescaping
			continue
		}
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		checked++
		// devtmpfs is a tmpfs too, with the same magic number.
		inMemory := typ == "tmpfs" || typ == "devtmpfs"
		if inMemory {
			tmpfs++
		}
		if got := IsTmpfs(dir); got != inMemory {
			t.Errorf("IsTmpfs(%s) = %v, but it is a %s mount", dir, got, typ)
		}
	}
	if checked == 0 {
		t.Fatal("no mount point could be checked")
	}
	if IsTmpfs(t.TempDir() + "/missing") {
		t.Error("a missing directory is called a tmpfs")
	}
	t.Logf("%d mount points checked, %d of them tmpfs", checked, tmpfs)
}
