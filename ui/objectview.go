package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// ObjectView is the first screen: a header naming the object and its live
// resourceVersion, the banner when the object changed on the server under a
// draft, and a scrollable body with the live object, the draft, or the
// draft's diff against base.
type ObjectView struct {
	keys   ObjectKeyMap
	styles *common.Styles
	width  int
	height int
	body   viewport.Model
	// side scrolls the body sideways (←, →).
	side sideways

	// full shows managedFields and status (f).
	full bool
	// showDiff shows the draft's diff against base instead of the draft (d).
	showDiff bool

	// What the session says, copied by SetSession, its server text
	// escaped there (escape.Text).
	ref     model.ObjectRef
	liveRV  escape.Text
	deleted bool
	live    *unstructured.Unstructured
	base    *unstructured.Unstructured
	baseRV  escape.Text
	draft   *model.Draft
	banner  escape.Text
	// bodyText is what the body was last given; renders the objects
	// last rendered.
	bodyText string
	renders  *common.Renders
	rebasing bool
	conn     escape.Text
	// causes are the field causes of the last refused save (a 422), shown
	// next to their lines in the draft.
	causes []model.FieldCause
	// canUpdate is set when apply could not remove a field and u sends
	// the save as an update.
	canUpdate bool
	// hunkAt are the body lines where the diff's hunks start, for n and N.
	hunkAt []int

	// blame shows the live object with the blame gutter (b), cursor its
	// cursor line (see blame.go).
	blame  bool
	blames blameState
	cursor int
	// gitOps names the tool that reconciles the object, when one does:
	// a save may be reverted.
	gitOps escape.Text
	// fight names a fight among the versions kedit observed (the latest
	// one's): two writers taking a field from each other.
	fight escape.Text

	// secret is set for a Secret, whose values are masked until R
	// reveals them (revealed).
	secret, revealed bool
	// backToList: esc goes back to the browser.
	backToList bool
	// demo: kedit demo's writer is there for w and W, which the help
	// names only then.
	demo bool
}

// NewObjectView returns an object view with nothing to show until SetSession.
func NewObjectView(keys ObjectKeyMap, styles *common.Styles) ObjectView {
	vp := viewport.New(0, 0)
	vp.KeyMap = keys.viewport()
	vp.MouseWheelEnabled = true
	return ObjectView{keys: keys, styles: styles, body: vp, conn: "connecting", renders: &common.Renders{}}
}

// SetSize gives the view the terminal's size less what the app draws around it.
func (m *ObjectView) SetSize(width, height int) {
	if width == m.width && height == m.height {
		// The app sets the size after every message; rendering the YAML
		// again on each key would make scrolling a large object slow.
		return
	}
	m.width, m.height = width, height
	m.layout()
}

// SetConnection sets the connection state the header shows, e.g.
// "reconnecting since 12:01:03".
func (m *ObjectView) SetConnection(state escape.Text) {
	// The header keeps its height, so the body needs no new layout.
	m.conn = state
}

// SetSession copies what the view shows from the session. The app calls it
// after every event the session handled, so the view never reads a session
// that moved on.
func (m *ObjectView) SetSession(s *model.Session) {
	m.ref = s.Ref()
	m.secret = m.ref.IsSecret()
	m.renders.TF = common.TextFormOf(s)
	live, deleted := s.Live()
	m.liveRV, m.live, m.deleted = escape.Safe(live.ResourceVersion), live.Object, deleted
	base := s.Base()
	m.base, m.baseRV = base.Object, escape.Safe(base.ResourceVersion)
	m.draft = s.Draft()
	m.banner = ""
	if ch, ok := s.ServerChange(); ok {
		m.banner = common.BannerText(ch)
	}
	m.rebasing = s.Rebase() != nil
	m.causes, m.canUpdate = nil, false
	if f := s.Failure(); f != nil {
		m.causes = f.Causes
		m.canUpdate = f.Kind == model.ErrorApplyCannotRemove
	}
	if m.draft == nil {
		m.showDiff = false
	}
	m.gitOps = ""
	if o, ok := model.GitOpsOwnerOf(m.live); ok {
		m.gitOps = escape.Safe(o.Description())
	}
	m.fight = fightText(s.Fights())
	m.layout()
}

// ShowingDiff reports whether the body shows the draft's diff against base.
func (m ObjectView) ShowingDiff() bool { return m.showDiff }

// ShowingAllFields reports whether managedFields and status are shown.
func (m ObjectView) ShowingAllFields() bool { return m.full }

// header returns the lines above the body.
func (m ObjectView) header() []string {
	st := m.styles
	lines := []string{ansi.Truncate(m.titleLine(), m.width, "…"), ansi.Truncate(m.stateLine(), m.width, "…")}
	if m.gitOps != "" {
		lines = append(lines, strings.Split(st.Error.Width(m.width).Render(string(m.gitOps)), "\n")...)
	}
	if m.fight != "" {
		lines = append(lines, strings.Split(st.Banner.Width(m.width).Render(string(m.fight)), "\n")...)
	}
	if m.banner != "" {
		// A deleted object has nothing to rebase onto: its banner says
		// what s does instead.
		text := m.banner
		if !m.deleted {
			text += "  (r: rebase now)"
		}
		// Width wraps a long list of paths instead of cutting it off.
		lines = append(lines, strings.Split(st.Banner.Width(m.width).Render(string(text)), "\n")...)
	}
	return lines
}

// titleLine names the object, its live resourceVersion and the
// connection's state.
func (m ObjectView) titleLine() string {
	st := m.styles
	parts := []escape.Text{common.ObjectTitle(m.ref)}
	if m.ref.Namespace != "" {
		parts = append(parts, "namespace "+escape.Safe(m.ref.Namespace))
	}
	if m.ref.Context != "" {
		parts = append(parts, "context "+escape.Safe(m.ref.Context))
	}
	rv := "rv " + m.liveRV
	if m.deleted {
		rv += " (deleted)"
	}
	// The live resourceVersion and the connection state matter most while
	// editing: on a narrow terminal the namespace and context give way,
	// but not the object's name (up to half the width), which a long
	// connection state then shares the line with.
	right := ansi.StringWidth(string(rv + "  " + m.conn))
	name := ansi.StringWidth(string(parts[0]))
	// One more cell than the name: the "…" of the parts that gave way.
	avail := max(m.width-right-2, min(name+1, m.width/2), 1)
	left := ansi.Truncate(string(escape.Join(parts, "  ")), avail, "…")
	return st.Header.Render(left+"  "+string(rv)) + "  " + st.Muted.Render(string(m.conn))
}

// stateLine says what the body shows (the live object, the draft, its
// diff or blame) and what else holds: a Secret's mask, a draft that does
// not parse, a rebase under way, the fields hidden.
func (m ObjectView) stateLine() string {
	st := m.styles
	var line string
	switch {
	case m.blame:
		line = st.Draft.Render("blame") + st.Muted.Render(string(" of live rv "+m.liveRV+": who owns each line's field, and when (b hides)"))
	case m.draft == nil:
		line = st.Muted.Render("live object; e edits a draft")
	case m.showDiff:
		line = st.Draft.Render("unsaved draft") + st.Muted.Render(string("  diff against base rv "+m.baseRV+" (d: the draft, n/N: next/previous hunk)"))
	default:
		line = st.Draft.Render("unsaved draft") + st.Muted.Render(string("  based on rv "+m.baseRV+" (d: diff against base)"))
	}
	switch {
	case m.secret && m.revealed:
		line += "  " + st.Muted.Render("values shown (R hides)")
	case m.secret:
		line += "  " + st.Muted.Render("values hidden (R reveals)")
	}
	if m.draft != nil && m.draft.Err != nil {
		line += "  " + st.Error.Render(string("cannot be saved: "+common.ErrorText(m.draft.Err)))
	}
	if m.rebasing {
		line += "  " + st.Muted.Render("rebase in progress (c: conflict view)")
	}
	return line + m.renders.TF.Notes(st, m.full)
}

// content renders the body's text: the live object, the draft or its
// diff, and the lines where the diff's hunks start.
func (m ObjectView) content() (string, []int) {
	if m.draft == nil {
		if m.live == nil {
			return m.styles.Muted.Render("waiting for the object ..."), nil
		}
		return m.styles.EscapedYAML(m.masked(m.renders.Render(m.live, m.full))), nil
	}
	if !m.showDiff {
		return m.annotated(m.styles.EscapedYAML(m.masked(m.draft.Text))), nil
	}
	// Hunks with three lines of context, as git diff shows them: the
	// changes, not the whole object, against base as the draft's text was
	// made from it.
	baseText := m.renders.RenderAs(m.base, common.RenderAsDraft)
	hunks := diffHunks(baseText, m.draft.Text, m.secret && !m.revealed)
	if len(hunks) == 0 {
		return m.styles.Muted.Render("no difference from base"), nil
	}
	return common.HunkText(m.styles, hunks)
}

// masked is text, a Secret's YAML, with its values masked unless R
// revealed them; any other object's text as it is.
func (m ObjectView) masked(text string) string {
	if !m.secret || m.revealed {
		return text
	}
	return strings.Join(maskSecretLines(text), "\n")
}

// annotated puts each field cause of a refused save under the line of its
// field, so the user sees where the server's complaint is without reading
// paths; a cause whose field is not found goes on top.
func (m ObjectView) annotated(text string) string {
	return common.AnnotateCauses(m.styles, text, m.causes)
}

// layout sizes the body to what the header leaves and refills it.
func (m *ObjectView) layout() {
	h := max(1, m.height-len(m.header()))
	m.body.Width, m.body.Height = m.width, h
	var text string
	var at []int
	if m.blame {
		// The live object with its gutter, whatever else the body shows.
		text = m.blameContent()
	} else {
		text, at = m.content()
	}
	m.hunkAt = at
	// The viewport measures every line of what it is given (tens of
	// milliseconds for a mebibyte), and most events (a save, a conflict)
	// leave the text as it was.
	if text = strings.TrimSuffix(text, "\n"); text != m.bodyText || m.body.TotalLineCount() == 0 {
		m.bodyText = text
		m.body.SetContent(text)
		m.side.measure(text)
	}
	m.side.x = min(m.side.x, m.maxX())
}

// View draws the header, the banner and the body.
func (m ObjectView) View() string {
	return strings.Join(m.header(), "\n") + "\n" + m.bodyView()
}

// ShortHelp is the object view's keys for the footer, the most used
// first: the footer cuts from the end (keeping ? help) when they do not
// fit. Esc back to the list comes after s: leaving matters more than most.
func (m ObjectView) ShortHelp() []key.Binding {
	k := m.keys
	bindings := []key.Binding{k.Edit, k.EditInApp, k.Save}
	if m.backToList {
		bindings = append(bindings, k.BackToList)
	}
	if m.canUpdate {
		bindings = append(bindings, k.SaveAsUpdate)
	}
	if (m.banner != "" || m.draft != nil) && !m.deleted {
		// A deleted object has nothing to rebase onto (r says so).
		bindings = append(bindings, k.Rebase)
	}
	if m.draft != nil {
		bindings = append(bindings, k.Diff, k.Discard)
	}
	bindings = append(m.secretKeys(bindings...), k.Timeline, k.Blame, common.StateHelp(k.Preview, "preview"), k.Fields)
	if m.wider() {
		bindings = append(bindings, k.Left, k.Right)
	}
	return append(bindings, k.Quit, k.Help)
}

// secretKeys is bindings with R after them for a Secret, said for what it
// does now: reveal, or hide once the values show.
func (m ObjectView) secretKeys(bindings ...key.Binding) []key.Binding {
	if m.secret {
		bindings = append(bindings, revealHelp(m.keys.Reveal, m.revealed))
	}
	return bindings
}

// revealHelp is R as it acts now.
func revealHelp(b key.Binding, revealed bool) key.Binding {
	if revealed {
		return common.StateHelp(b, "hide")
	}
	return b
}

// FullHelp is every key of the object view, in groups; w and W only in
// kedit demo, whose writer they drive (elsewhere they say so and do
// nothing).
func (m ObjectView) FullHelp() [][]key.Binding {
	k := m.keys
	draft := []key.Binding{k.Edit, k.EditInApp, k.Save, k.SaveAsUpdate, k.Rebase, k.Discard, k.Conflicts}
	if m.backToList {
		draft = append(draft, k.BackToList)
	}
	oncall := []key.Binding{k.Timeline, k.Blame, k.Preview}
	if m.demo {
		oncall = append(oncall, k.DemoWrite, k.DemoKubectlEdit)
	}
	return [][]key.Binding{
		draft,
		m.secretKeys(k.Diff, k.NextHunk, k.PrevHunk, k.Fields, k.Help, k.Quit, k.ForceQuit),
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End, k.Left, k.Right},
		oncall,
	}
}

// fightText names the fight whose last hand-over is the latest, as the
// banner says it, and how many more the timeline marks.
func fightText(fs []model.Fight) escape.Text {
	if len(fs) == 0 {
		return ""
	}
	latest := fs[0]
	for _, f := range fs[1:] {
		if f.Times[len(f.Times)-1].After(latest.Times[len(latest.Times)-1]) {
			latest = f
		}
	}
	text := escape.Safe(latest.Banner())
	if len(fs) > 1 {
		text += escape.Textf(" (and %s: FIGHT in the timeline, t)", model.Count(len(fs)-1, "more fight"))
	}
	return text
}
