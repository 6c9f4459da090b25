package timeline

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// shownHead is what the lines above a version's diff say: its title,
// what it changed, whether it is a Secret's, and a finding's evidence
// (what it set back or replaced blind).
type shownHead struct {
	title, changed escape.Text
	secret         bool
	finding        escape.Text
}

// lines draws the head at width, each part wrapped at words (the title
// cut): nothing of the evidence is cut.
func (h shownHead) lines(st *common.Styles, width int) []string {
	out := []string{st.Title.Render(ansi.Truncate(string(h.title), width, "…"))}
	for _, l := range strings.Split(ansi.Wrap(string("changed: "+h.changed), width, ", "), "\n") {
		out = append(out, st.Muted.Render(l))
	}
	if h.secret {
		out = append(out, st.Muted.Render(ansi.Truncate("a Secret: its values are shown as "+common.SecretMask, width, "…")))
	}
	if h.finding != "" {
		for _, l := range common.WrapWords(string(h.finding), width) {
			out = append(out, st.Muted.Render(l))
		}
	}
	return out
}
