// Command gentext writes the benchmark texts of package diff (base.yaml,
// mine.yaml, theirs.yaml) to a directory, to time whole processes:
//
//	go run ./diff/testdata/gentext -o /tmp/k3
//	hyperfine 'git merge-file -p --diff3 -L mine -L base -L theirs /tmp/k3/mine.yaml /tmp/k3/base.yaml /tmp/k3/theirs.yaml'
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kedit/kedit/diff/internal/textgen"
)

func main() {
	dir := flag.String("o", ".", "directory to write base.yaml, mine.yaml and theirs.yaml to")
	lines := flag.Int("lines", 20000, "lines of base")
	edits := flag.Int("edits", 50, "edits per side")
	overlap := flag.Int("overlap", 4, "edits on the same lines of both sides")
	flag.Parse()

	base := textgen.YAML(1, *lines)
	mine, theirs := textgen.Sides(2, base, *edits, *overlap)
	for name, text := range map[string]string{"base.yaml": base, "mine.yaml": mine, "theirs.yaml": theirs} {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(text), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gentext:", err)
			os.Exit(1)
		}
	}
}
