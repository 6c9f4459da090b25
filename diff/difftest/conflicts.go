package difftest

import (
	"fmt"
	"strings"
)

// Conflicts makes texts whose merge has exactly n conflicts (up to 200):
// 200 regions four equal lines apart, of which both sides change the
// first n each its own way and leave the others as base has them. Exit
// statuses count conflicts, so their tests need an exact number.
func Conflicts(n int) (mine, base, theirs string) {
	var m, b, t strings.Builder
	for k := 0; k < 200; k++ {
		fmt.Fprintf(&b, "b%d\nsame\nsame\nsame\nsame\n", k)
		if k < n {
			fmt.Fprintf(&m, "m%d\nsame\nsame\nsame\nsame\n", k)
			fmt.Fprintf(&t, "t%d\nsame\nsame\nsame\nsame\n", k)
		} else {
			fmt.Fprintf(&m, "b%d\nsame\nsame\nsame\nsame\n", k)
			fmt.Fprintf(&t, "b%d\nsame\nsame\nsame\nsame\n", k)
		}
	}
	return m.String(), b.String(), t.String()
}
