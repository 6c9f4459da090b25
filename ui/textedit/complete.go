package textedit

// Line is line i's text, without its line break; "" past the end.
func (m Model) Line(i int) string {
	if i < 0 || i >= len(m.lines) {
		return ""
	}
	return m.content(i)
}

// ReplaceBefore replaces the n bytes before the cursor on its line with s,
// the cursor after s, as one undo step of its own: what a completion
// inserts in place of what was typed of it. A selection ends.
func (m *Model) ReplaceBefore(n int, s string) {
	from := Pos{Line: m.cur.Line, Col: max(0, m.cur.Col-n)}
	if from == m.cur && s == "" {
		return
	}
	m.selecting = false
	m.land(m.change(kindOther, from, m.cur, s), true)
}

// CursorRow is the cursor's line counted from the first line on screen
// (notes drawn under lines above it not counted).
func (m Model) CursorRow() int { return m.cur.Line - m.top }

// CursorRows is where the cursor's line is drawn: its row on screen,
// counted from 0 with the notes drawn under the lines above it, and how
// many rows its own notes take under it. A list drawn at the cursor
// (completion) goes below those, or above the row.
func (m Model) CursorRows() (row, notes int) {
	for l := m.top; l < m.cur.Line && l < len(m.lines); l++ {
		row++
		if len(m.notes) > 0 {
			row += len(m.noteTexts(l))
		}
	}
	if len(m.notes) > 0 {
		notes = len(m.noteTexts(m.cur.Line))
	}
	return row, notes
}
