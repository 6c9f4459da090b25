package list

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// TestCursorKeepsTheSelectionInView: every key's move, over lists of any
// length and pages of any height, leaves the selection on a row and in
// view, and the view ending no later than the last row.
func TestCursorKeepsTheSelectionInView(t *testing.T) {
	k := Keys{Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey()}
	keys := []tea.KeyMsg{{Type: tea.KeyUp}, {Type: tea.KeyDown}, {Type: tea.KeyPgUp}, {Type: tea.KeyPgDown},
		{Type: tea.KeyHome}, {Type: tea.KeyEnd}, {Type: tea.KeyCtrlU}, {Type: tea.KeyCtrlD}}
	for n := 0; n < 12; n++ {
		for page := 1; page < 6; page++ {
			var c Cursor
			for i := range 200 {
				msg := keys[(i*7+n+page)%len(keys)]
				d, ok := k.Step(msg, page, n)
				if !ok {
					t.Fatalf("%v moves nothing", msg)
				}
				c.Move(d, n, page)
				if n > 0 && (c.Selected < 0 || c.Selected >= n || c.Selected < c.Offset || c.Selected >= c.Offset+page) ||
					c.Offset < 0 || (n > page && c.Offset > n-page) {
					t.Fatalf("%d rows, page %d, after %v: %+v", n, page, msg, c)
				}
			}
		}
	}
	var c Cursor
	c.Move(5, 10, 3)
	if c.Selected != 5 || c.Offset != 3 {
		t.Errorf("down 5 of 10, 3 in view: %+v", c)
	}
	if d, _ := k.Step(tea.KeyMsg{Type: tea.KeyEnd}, 3, 10); d != 10 {
		t.Errorf("end steps %d", d)
	}
}
