// Package object is the object view, kedit's first screen: the object
// named with its live resourceVersion and the connection's state, the
// banners of what changed on the server and who reconciles it, and a body
// with the live object, the draft, the draft's diff against base, or the
// live object with the blame gutter (blame.go). It draws a Content the app
// builds from the session, and answers the keys that need the session or
// another view with intents (SaveMsg, RebaseMsg ...).
package object

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/common"
)

// Model is the object view: a header naming the object and its live
// resourceVersion, the banner when the object changed on the server under a
// draft, and a scrollable body with the live object, the draft, or the
// draft's diff against base.
type Model struct {
	keys   KeyMap
	styles *common.Styles
	width  int
	height int
	// source names the object's source manifests (SetSource).
	source escape.Text
	body   viewport.Model
	// side scrolls the body sideways (←, →).
	side common.Sideways
	// bodyText is what the body was last given; renders the objects
	// last rendered.
	bodyText string
	renders  *common.Renders
	// hunkAt are the body lines where the diff's hunks start, for n and N.
	hunkAt []int

	// shown is what the session says, copied by SetContent.
	shown shown
	// conn is the connection's state (SetConnection).
	conn escape.Text

	// full shows managedFields and status (f).
	full bool
	// showDiff shows the draft's diff against base instead of the draft (d).
	showDiff bool
	// revealed shows a Secret's values, masked until R.
	revealed bool
	// blame is the live object with the blame gutter (b), while it shows.
	blame blame

	// backToList: esc goes back to the browser.
	backToList bool
	// demo: kedit demo's writer is there for w and W, which the help
	// names only then.
	demo bool
	// tourWriter is kedit demo --tour's writer (SetTour), "" without it.
	tourWriter string
}

// shown is what the object view draws of the session, its server text
// escaped (escape.Text).
type shown struct {
	ref    model.ObjectRef
	liveRV escape.Text
	// liveBy is the field manager that most likely wrote the live
	// version: who the person is that changed it (kedit-bob, not kedit).
	liveBy  escape.Text
	deleted bool
	live    *unstructured.Unstructured
	base    *unstructured.Unstructured
	baseRV  escape.Text
	draft   *model.Draft
	banner  escape.Text
	// rebasing: a rebase is under way.
	rebasing bool
	// causes are the field causes of the last refused save (a 422), shown
	// next to their lines in the draft.
	causes []model.FieldCause
	// canUpdate is set when apply could not remove a field and u sends
	// the save as an update.
	canUpdate bool
	// gitOps names the tool that reconciles the object, when one does:
	// a save may be reverted.
	gitOps escape.Text
	// fight names a fight among the versions kedit observed (the latest
	// one's): two writers taking a field from each other.
	fight escape.Text
	// secret is set for a Secret, whose values are masked until R
	// reveals them.
	secret bool
}

// New returns an object view with nothing to show until SetContent.
func New(keys KeyMap, styles *common.Styles) Model {
	vp := viewport.New(0, 0)
	vp.KeyMap = keys.viewport()
	vp.MouseWheelEnabled = true
	return Model{keys: keys, styles: styles, body: vp, conn: "connecting", renders: &common.Renders{}}
}

// SetSize gives the view the terminal's size less what the app draws around it.
func (m *Model) SetSize(width, height int) {
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
func (m *Model) SetConnection(state escape.Text) {
	// The header keeps its height, so the body needs no new layout.
	m.conn = state
}

// ShowingDiff reports whether the body shows the draft's diff against base.
func (m Model) ShowingDiff() bool { return m.showDiff }

// ShowingAllFields reports whether managedFields and status are shown.
func (m Model) ShowingAllFields() bool { return m.full }

// Header is the lines above the body: the title, what the body shows, and
// the banners.
func (m Model) Header() string { return strings.Join(m.header(), "\n") }

// Body is the body as drawn.
func (m Model) Body() string { return m.body.View() }

// Text is the body's whole text, of which Body draws the lines in view.
func (m Model) Text() string { return m.bodyText }

// YOffset is the body's first line in view.
func (m Model) YOffset() int { return m.body.YOffset }

// SidewaysOffset is how many columns of the body are scrolled off to the
// left.
func (m Model) SidewaysOffset() int { return m.side.X }

// HunkStarts are the body's lines where the diff's hunks start (n, N).
func (m Model) HunkStarts() []int { return m.hunkAt }

// content renders the body's text: the live object, the draft or its
// diff, and the lines where the diff's hunks start.
func (m Model) content() (string, []int) {
	if m.shown.draft == nil {
		if m.shown.live == nil {
			return m.styles.Muted.Render("waiting for the object ..."), nil
		}
		return m.styles.EscapedYAML(m.masked(m.renders.Render(m.shown.live, m.full))), nil
	}
	if !m.showDiff {
		return m.annotated(m.styles.EscapedYAML(m.masked(m.shown.draft.Text))), nil
	}
	// Hunks with three lines of context, as git diff shows them: the
	// changes, not the whole object, against base as the draft's text was
	// made from it.
	baseText := m.renders.RenderAs(m.shown.base, common.RenderAsDraft)
	hunks := common.DiffHunks(baseText, m.shown.draft.Text, m.shown.secret && !m.revealed)
	if len(hunks) == 0 {
		return m.styles.Muted.Render("no difference from base"), nil
	}
	return common.HunkText(m.styles, hunks)
}

// masked is text, a Secret's YAML, with its values masked unless R
// revealed them; any other object's text as it is.
func (m Model) masked(text string) string {
	if !m.shown.secret || m.revealed {
		return text
	}
	return strings.Join(common.MaskSecretLines(text), "\n")
}

// annotated puts each field cause of a refused save under the line of its
// field, so the user sees where the server's complaint is without reading
// paths; a cause whose field is not found goes on top.
func (m Model) annotated(text string) string {
	return common.AnnotateCauses(m.styles, text, m.shown.causes)
}

// layout sizes the body to what the header leaves and refills it.
func (m *Model) layout() {
	h := max(1, m.height-len(m.header()))
	m.body.Width, m.body.Height = m.width, h
	var text string
	var at []int
	if m.blame.on {
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
		m.side.Measure(text)
	}
	m.side.X = min(m.side.X, m.maxX())
}

// View draws the header, the banner and the body.
func (m Model) View() string {
	return strings.Join(m.header(), "\n") + "\n" + m.bodyView()
}

// ShortHelp is the object view's keys for the footer, the most used
// first: the footer cuts from the end (keeping ? help) when they do not
// fit. Esc back to the list comes after s: leaving matters more than most.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	bindings := []key.Binding{k.Edit, k.EditInApp, k.Save}
	if m.backToList {
		bindings = append(bindings, k.BackToList)
	}
	if m.shown.canUpdate {
		bindings = append(bindings, k.SaveAsUpdate)
	}
	if (m.shown.banner != "" || m.shown.draft != nil) && !m.shown.deleted {
		// A deleted object has nothing to rebase onto (r says so).
		bindings = append(bindings, k.Rebase)
	}
	if m.shown.draft != nil {
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
func (m Model) secretKeys(bindings ...key.Binding) []key.Binding {
	if m.shown.secret {
		bindings = append(bindings, common.RevealHelp(m.keys.Reveal, m.revealed))
	}
	return bindings
}

// FullHelp is every key of the object view, in groups; w and W only in
// kedit demo, whose writer they drive (elsewhere they say so and do
// nothing).
func (m Model) FullHelp() [][]key.Binding {
	k := m.keys
	draft := []key.Binding{k.Edit, k.EditInApp, k.Save, k.SaveAsUpdate, k.Rebase, k.Discard, k.Conflicts}
	if m.backToList {
		draft = append(draft, k.BackToList)
	}
	oncall := []key.Binding{k.Timeline, k.Blame, k.Docs, k.Preview}
	if m.demo {
		oncall = append(oncall, k.DemoWrite, k.DemoKubectlEdit, k.DemoRace)
	}
	return [][]key.Binding{
		draft,
		m.secretKeys(k.Diff, k.NextHunk, k.PrevHunk, k.Fields, k.Help, k.Quit, k.ForceQuit, k.Suspend),
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Home, k.End, k.Left, k.Right},
		oncall,
	}
}

// fightText names the fight whose last hand-over is the latest, as the
// banner says it, and how many more the timeline marks.
func fightText(fs []model.Fight, prepares string) escape.Text {
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
	if prepares != "" && (latest.Between[0] == prepares || latest.Between[1] == prepares) {
		// kedit demo --tour's writer writes as each step prepares it:
		// the fight is the tour's doing, not another person's.
		text += escape.Textf(" (the tour's: %s writes as each step prepares)", prepares)
	}
	if len(fs) > 1 {
		text += escape.Textf(" (and %s: FIGHT in the timeline, t)", model.Count(len(fs)-1, "more fight"))
	}
	return text
}
