package pager

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/ui/common"
)

// TestPagerScrollsUnderTheHeader: the body is the view's height less the
// header's lines, scrolls with the view's keys, and home and end go to its
// ends.
func TestPagerScrollsUnderTheHeader(t *testing.T) {
	k := KeyMap{Up: common.UpKey(), Down: common.DownKey(), PageUp: common.PageUpKey(), PageDown: common.PageDownKey(),
		HalfPageUp: common.HalfPageUpKey(), HalfPageDown: common.HalfPageDownKey(), Home: common.HomeKey(), End: common.EndKey()}
	m := New(k)
	m.SetSize(20, 5, 2)
	var lines []string
	for i := range 10 {
		lines = append(lines, "line "+string(rune('0'+i)))
	}
	m.SetContent(strings.Join(lines, "\n"))
	if got := strings.ReplaceAll(m.View(), " ", ""); got != "line0\nline1\nline2" {
		t.Fatalf("first view %q", got)
	}
	if m.Height() != 3 {
		t.Errorf("height %d, want 5 less the header's 2", m.Height())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	if m.YOffset() != 1 {
		t.Errorf("down: offset %d", m.YOffset())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnd})
	if m.YOffset() != 7 {
		t.Errorf("end: offset %d, want 7", m.YOffset())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyHome})
	if m.YOffset() != 0 {
		t.Errorf("home: offset %d", m.YOffset())
	}
	m.SetContent("other")
	m.GotoTop()
	if m.YOffset() != 0 || !strings.HasPrefix(m.View(), "other") {
		t.Errorf("new content at offset %d: %q", m.YOffset(), m.View())
	}
}
