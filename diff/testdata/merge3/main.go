// Command merge3 runs diff.Merge3Text on three files the way
// `git merge-file -p --diff3 -L mine -L base -L theirs MINE BASE THEIRS`
// does (merged text on stdout, exit status the number of conflicts, capped
// at 127), to time the text engine as a whole process next to git:
//
//	go build -o /tmp/merge3 ./diff/testdata/merge3
//	hyperfine '/tmp/merge3 mine.yaml base.yaml theirs.yaml' \
//	  'git merge-file -p --diff3 -L mine -L base -L theirs mine.yaml base.yaml theirs.yaml'
package main

import (
	"fmt"
	"os"

	"github.com/kedit/kedit/diff"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: merge3 MINE BASE THEIRS")
		os.Exit(255)
	}
	var texts [3]string
	for i, name := range os.Args[1:] {
		b, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "merge3:", err)
			os.Exit(255)
		}
		texts[i] = string(b)
	}
	m := diff.Merge3Text(texts[0], texts[1], texts[2], diff.TextOptions{})
	if _, err := os.Stdout.WriteString(m.Merged); err != nil {
		fmt.Fprintln(os.Stderr, "merge3:", err)
		os.Exit(255)
	}
	os.Exit(min(m.Conflicts, 127))
}
