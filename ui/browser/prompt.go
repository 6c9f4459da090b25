package browser

import (
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/ui/common"
)

// completionCandidate is one thing the : prompt completes to: its text,
// and the other forms that also lead to it (a type's short names, kind,
// singular).
type completionCandidate struct {
	text    string
	aliases []string
}

// typeCandidates turns the server's types into completions. A type
// completes to its plural, which kubectl accepts, unless another group
// serves the same plural (events, events.events.k8s.io): then to its
// unambiguous name.
func typeCandidates(types []Type) []completionCandidate {
	plurals := map[string]int{}
	for _, t := range types {
		plurals[t.Resource]++
	}
	out := make([]completionCandidate, len(types))
	for i, t := range types {
		text := t.Resource
		if plurals[t.Resource] > 1 {
			text = t.Name
		}
		// The prompt's own words win: :ns is the namespace picker, not
		// namespaces' short name (:namespaces lists them as a type).
		aliases := slices.DeleteFunc(slices.Clone(t.Names), func(n string) bool { return promptWords[n] })
		out[i] = completionCandidate{text: text, aliases: aliases}
	}
	return out
}

// promptWords are the : prompt's commands; every other word is a type.
var promptWords = map[string]bool{"ns": true, "drafts": true}

// matchCandidates returns the texts of the candidates that line is a
// prefix of, by text or by alias, ignoring case; sorted, each once.
func matchCandidates(line string, cands []completionCandidate) []string {
	l := strings.ToLower(line)
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		ok := strings.HasPrefix(strings.ToLower(c.text), l)
		for _, a := range c.aliases {
			ok = ok || strings.HasPrefix(strings.ToLower(a), l)
		}
		if ok && !seen[c.text] {
			seen[c.text] = true
			out = append(out, c.text)
		}
	}
	sort.Strings(out)
	return out
}

// completion is the state of tab completion in the : prompt: tab completes
// the one match, or the matches' common prefix, and once there is nothing
// in common cycles through them.
type completion struct {
	// cycling are the matches tab goes through, and last what it wrote;
	// typing anything ends the cycle.
	cycling []string
	at      int
	last    string
	// note replaces the list of matches with a word for the user.
	note escape.Text
	// waiting: a tab waits for the namespaces to complete with.
	waiting bool
}

// next returns line after one tab; none is the note when nothing matches.
func (c *completion) next(line string, cands []completionCandidate, none escape.Text) string {
	if len(c.cycling) > 1 && line == c.last {
		c.at = (c.at + 1) % len(c.cycling)
		c.last = c.cycling[c.at]
		return c.last
	}
	*c = completion{}
	ms := matchCandidates(line, cands)
	switch len(ms) {
	case 0:
		c.note = none
		return line
	case 1:
		if ms[0] == "ns" {
			return "ns " // a namespace follows
		}
		return ms[0]
	}
	if p := commonPrefix(ms); len(p) > len(line) && strings.HasPrefix(p, line) {
		return p
	}
	c.cycling, c.at, c.last = ms, 0, ms[0]
	return ms[0]
}

// hint is what the prompt shows after the line: the matches, the note, or
// none when nothing matches.
func (c completion) hint(line string, cands []completionCandidate, none escape.Text) escape.Text {
	if c.note != "" {
		return c.note
	}
	if line == "" {
		return "TYPE, ns, ns NAME or drafts; tab completes"
	}
	ms := c.cycling
	if len(ms) == 0 {
		ms = matchCandidates(line, cands)
	}
	if len(ms) == 0 {
		return none
	}
	const shown = 8
	// Type and namespace names come from the server.
	text := common.SafeList(ms[:min(len(ms), shown)], "  ")
	if len(ms) > shown {
		text += escape.Textf("  (%d more)", len(ms)-shown)
	}
	return text
}

// commonPrefix is the longest prefix all of ss share.
func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// pickerKind says what a picker picks.
type pickerKind int

const (
	pickNamespace pickerKind = iota
	pickDraft
)

// pickItem is one line of a picker.
type pickItem struct {
	text escape.Text
	// namespace and all are a namespace pick's, draft a draft pick's.
	namespace string
	all       bool
	draft     DraftItem
}

// picker is a list to pick one item from, narrowed as the user types.
type picker struct {
	kind     pickerKind
	title    escape.Text
	items    []pickItem
	query    string
	shown    []int
	selected int
	// err says why there is nothing to pick; empty, what to say when
	// there is nothing and no error.
	err   error
	empty escape.Text
}

func newPicker(kind pickerKind, title escape.Text, items []pickItem) picker {
	p := picker{kind: kind, title: title, items: items}
	p.refilter()
	return p
}

func (p *picker) refilter() {
	q := strings.ToLower(p.query)
	p.shown = nil // not p.shown[:0]: copies of a Model value share it
	for i, it := range p.items {
		if strings.Contains(strings.ToLower(string(it.text)), q) {
			p.shown = append(p.shown, i)
		}
	}
	p.selected = max(0, min(p.selected, len(p.shown)-1))
}

// view draws the picker in height lines, the selected item on them.
func (p picker) view(st *common.Styles, width, height int) []string {
	title := p.title + ": type to narrow, enter picks, esc goes back"
	if p.query != "" {
		title = escape.Textf("%s containing %q", p.title, p.query)
	}
	lines := []string{st.ColumnTitle.Render(ansi.Truncate(string(title), width, "…"))}
	switch {
	case p.err != nil:
		return append(lines, strings.Split(st.Error.Render(ansi.Wrap(string(common.ErrorText(p.err)), width, "")), "\n")...)
	case len(p.items) == 0:
		return append(lines, st.Muted.Render(string(p.empty)))
	case len(p.shown) == 0:
		return append(lines, st.Muted.Render("nothing matches"))
	}
	h := max(1, height-1)
	first := max(0, p.selected-h+1)
	for i := first; i < len(p.shown) && i < first+h; i++ {
		text := ansi.Truncate(string(p.items[p.shown[i]].text), width-2, "…")
		if i == p.selected {
			lines = append(lines, st.Selected.Render("> "+text+strings.Repeat(" ", max(0, width-2-ansi.StringWidth(text)))))
		} else {
			lines = append(lines, "  "+text)
		}
	}
	return lines
}

// prompt is the : prompt: the command being typed and its completion,
// what it completes (the types and the namespaces), and the picker it
// opens (:ns, :drafts). The Model says whether it has the keys.
type prompt struct {
	line       string
	completion completion
	types      []completionCandidate
	namespaces []string
	nsErr      error
	// nsReading: the namespaces were asked for and are not in yet.
	nsReading bool
	picker    picker
}

// complete applies one tab to the line.
func (p *prompt) complete() {
	p.line = p.completion.next(p.line, p.candidates(p.line), p.noMatch(p.line))
}

// hint is what the prompt shows after the line.
func (p prompt) hint() escape.Text {
	return p.completion.hint(p.line, p.candidates(p.line), p.noMatch(p.line))
}

// openNamespacePicker shows the namespaces to pick from, keeping what was
// typed when the list is refreshed; all namespaces is offered for a type
// that lives in one (namespaced).
func (p *prompt) openNamespacePicker(namespaced bool) {
	var items []pickItem
	if namespaced {
		items = append(items, pickItem{text: "all namespaces", all: true})
	}
	for _, n := range p.namespaces {
		items = append(items, pickItem{text: escape.Safe(n), namespace: n})
	}
	old := p.picker
	p.picker = picker{kind: pickNamespace, title: "namespaces", items: items, err: p.nsErr}
	if old.kind == pickNamespace {
		p.picker.query, p.picker.selected = old.query, old.selected
	}
	if p.namespaces == nil && p.nsErr == nil {
		p.picker.items = nil
		p.picker.empty = "reading the namespaces ..."
	}
	p.picker.refilter()
}

// namespaceWord reports whether line is :ns followed by the namespace being
// typed.
func namespaceWord(line string) bool {
	rest, ok := strings.CutPrefix(line, "ns ")
	return ok && !strings.Contains(rest, " ")
}

// readNamespaces asks for the namespaces, unless they are being read.
func (p *prompt) readNamespaces() tea.Cmd {
	if p.nsReading {
		return nil
	}
	p.nsReading = true
	return common.Emit(NamespacesWantedMsg{})
}

// noMatch says that nothing completes line: for a namespace, which one,
// or why the namespaces are not known.
func (p prompt) noMatch(line string) escape.Text {
	if !namespaceWord(line) {
		return "no match"
	}
	switch {
	case p.nsErr != nil:
		return "cannot complete namespaces: " + common.ErrorText(p.nsErr)
	case p.namespaces == nil && p.nsReading:
		return "reading the namespaces ..."
	case p.namespaces == nil:
		return "tab completes namespaces"
	}
	return escape.Textf("no namespace starts with %q", strings.TrimPrefix(line, "ns "))
}

// candidates are the completions for the word being typed in line.
func (p prompt) candidates(line string) []completionCandidate {
	if rest, ok := strings.CutPrefix(line, "ns "); ok && !strings.Contains(rest, " ") {
		out := make([]completionCandidate, len(p.namespaces))
		for i, n := range p.namespaces {
			out[i] = completionCandidate{text: "ns " + n}
		}
		return out
	}
	if strings.Contains(line, " ") {
		return nil
	}
	out := []completionCandidate{{text: "ns"}, {text: "drafts"}}
	return append(out, p.types...)
}

// pickerKey handles a key while a picker is open.
func (m Model) pickerKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	p := &m.prompt.picker
	switch {
	case msg.Type == tea.KeyUp:
		p.selected = max(0, p.selected-1)
	case msg.Type == tea.KeyDown:
		p.selected = max(0, min(p.selected+1, len(p.shown)-1))
	case key.Matches(msg, m.keys.Back):
		m.mode = modeList
	case key.Matches(msg, m.keys.Accept):
		if len(p.shown) == 0 {
			return m, nil
		}
		it := p.items[p.shown[p.selected]]
		m.mode = modeList
		if p.kind == pickDraft {
			return m, common.Emit(OpenDraftMsg{Draft: it.draft})
		}
		return m, common.Emit(SwitchNamespaceMsg{Namespace: it.namespace, AllNamespaces: it.all})
	default:
		if q, ok := editLine(p.query, msg); ok {
			p.query = q
			p.refilter()
		}
	}
	return m, nil
}
