package history

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// SecretValue stands for every value of a Secret in a report.
const SecretValue = "(secret)"

// Report is a history as `kedit history --json` prints it.
type Report struct {
	Object      ReportObject    `json:"object"`
	Versions    []ReportVersion `json:"versions"`
	LostUpdates []ReportLoss    `json:"lostUpdates"`
	BlindWrites []ReportLoss    `json:"blindWrites"`
	Reverted    []ReportLoss    `json:"reverted"`
	Fights      []ReportFight   `json:"fights"`
	// Coverage says what of the history could not be judged.
	Coverage Coverage `json:"coverage"`
	// ToolChanges are the writes whose field manager differs from the one
	// of their client's write before (History.ToolChanges).
	ToolChanges []ReportToolChange `json:"toolChanges"`
}

// ReportToolChange is a client's write under another field manager than
// its write before: Before is that write, Write this one.
type ReportToolChange struct {
	Before ReportVersion `json:"before"`
	Write  ReportVersion `json:"write"`
}

// ReportObject names the object.
type ReportObject struct {
	Resource  string `json:"resource"`
	APIGroup  string `json:"apiGroup"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// UIDs are the object's uids, oldest first: more than one when it was
	// deleted and created again.
	UIDs []string `json:"uids"`
}

// ReportVersion is one version. Changed is null for a write the log holds
// no object of (what it changed is unknown), empty for a creation or a
// deletion.
type ReportVersion struct {
	ResourceVersion string   `json:"resourceVersion"`
	Time            string   `json:"time"`
	User            string   `json:"user"`
	UserAgent       string   `json:"userAgent"`
	Manager         string   `json:"manager"`
	Verb            string   `json:"verb"`
	Changed         []string `json:"changed"`
	// CreatedAgain marks the first version of an object created again
	// under the name after a deletion; UID is then its uid.
	CreatedAgain bool   `json:"createdAgain,omitempty"`
	UID          string `json:"uid,omitempty"`
}

// ReportLoss is a lost update, or the value a blind write replaced. Base
// is the overwriting write's base resourceVersion ("" when its writer
// read the object before the log begins; absent for a blind write).
// LostValue is null when the lost change removed the field, and
// SecretValue for a Secret.
type ReportLoss struct {
	Path          string        `json:"path"`
	LostValue     any           `json:"lostValue"`
	LostAt        ReportVersion `json:"lostAt"`
	OverwrittenBy ReportVersion `json:"overwrittenBy"`
	Base          *string       `json:"base,omitempty"`
	Evidence      string        `json:"evidence"`
	// NewValue is the value the overwriting write gave the field (null
	// when it removed it), NowValue its value now: in the live object
	// when NowFrom is "live", else ("log") in the newest version the
	// log holds (null when absent, or the object is gone); NowFrom is ""
	// when neither says (the newest version's body is not in the log).
	NewValue any    `json:"newValue"`
	NowValue any    `json:"nowValue"`
	NowFrom  string `json:"nowFrom"`
}

// ReportFight is a fight.
type ReportFight struct {
	Path    string    `json:"path"`
	Clients [2]Client `json:"clients"`
	Count   int       `json:"count"`
	Times   []string  `json:"times"`
}

// Report builds the report of h for the object named by obj (its UIDs
// are filled in here); a lost value's value now is the one in the newest
// version the log holds.
func (h *History) Report(obj ReportObject) Report { return h.ReportLive(obj, nil) }

// ReportLive is Report with the object as it is live now (nil when it is
// not known, else an empty map when it does not exist): a lost value's
// value now is read from it.
func (h *History) ReportLive(obj ReportObject, live map[string]any) Report {
	r := Report{Object: obj, Versions: []ReportVersion{}, LostUpdates: []ReportLoss{}, BlindWrites: []ReportLoss{}, Reverted: []ReportLoss{},
		Fights: []ReportFight{}, ToolChanges: []ReportToolChange{}, Coverage: h.Coverage}
	if r.Coverage.Partial == nil {
		r.Coverage.Partial = []string{}
	}
	r.Object.UIDs = []string{}
	for i := range h.Versions {
		v := &h.Versions[i]
		if v.UID != "" && (len(r.Object.UIDs) == 0 || r.Object.UIDs[len(r.Object.UIDs)-1] != v.UID) {
			r.Object.UIDs = append(r.Object.UIDs, v.UID)
		}
		r.Versions = append(r.Versions, h.version(i))
	}
	for _, l := range h.LostUpdates {
		rl := h.loss(l, live)
		base := ""
		if l.Base >= 0 {
			base = h.Versions[l.Base].ResourceVersion
		}
		rl.Base = &base
		r.LostUpdates = append(r.LostUpdates, rl)
	}
	for _, l := range h.BlindWrites {
		r.BlindWrites = append(r.BlindWrites, h.loss(l, live))
	}
	for _, l := range h.Reverted {
		r.Reverted = append(r.Reverted, h.loss(l, live))
	}
	for _, tc := range h.ToolChanges {
		r.ToolChanges = append(r.ToolChanges, ReportToolChange{Before: h.version(tc.Previous), Write: h.version(tc.Write)})
	}
	for _, f := range h.Fights {
		rf := ReportFight{Path: f.Path, Clients: f.Clients, Count: f.Count}
		for _, t := range f.Times {
			rf.Times = append(rf.Times, stamp(t))
		}
		r.Fights = append(r.Fights, rf)
	}
	return r
}

func (h *History) version(i int) ReportVersion {
	v := &h.Versions[i]
	rv := ReportVersion{ResourceVersion: v.ResourceVersion, Time: stamp(v.Time), User: v.Client.User,
		UserAgent: v.Client.UserAgent, Manager: v.Manager, Verb: v.Verb}
	if v.Subresource != "" {
		rv.Verb += " " + v.Subresource
	}
	if v.Recreated {
		rv.CreatedAgain, rv.UID = true, v.UID
	}
	if v.Recorded {
		rv.Changed = []string{}
		for _, c := range v.Changed {
			rv.Changed = append(rv.Changed, c.Path.String())
		}
	}
	return rv
}

func (h *History) loss(l Loss, live map[string]any) ReportLoss {
	rl := ReportLoss{Path: l.Path.String(), LostAt: h.version(l.LostAt), OverwrittenBy: h.version(l.OverwrittenBy), Evidence: l.Evidence,
		NowFrom: "live"}
	var overwrite map[string]any
	if o := h.Versions[l.OverwrittenBy].Object; o != nil {
		overwrite = o.Object
	}
	now := live
	if now == nil {
		switch last := h.Versions[len(h.Versions)-1]; {
		case last.Object != nil:
			rl.NowFrom, now = "log", last.Object.Object
		case last.Deleted:
			rl.NowFrom = "log"
		default:
			rl.NowFrom = ""
		}
	}
	shown := func(v diff.FieldValue) any {
		switch {
		case !v.Present:
			return nil
		case h.Secret:
			return SecretValue
		}
		return v.Value
	}
	rl.LostValue = shown(l.Value)
	rl.NewValue = shown(diff.ValueAt(overwrite, l.Path))
	rl.NowValue = shown(diff.ValueAt(now, l.Path))
	return rl
}

// JSON is the report as one JSON document. Characters that could drive a
// terminal are written as \u escapes, which JSON reads back as they were.
func (r Report) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	for _, c := range string(b) {
		if escape.Unsafe(c) {
			fmt.Fprintf(&out, `\u%04x`, c)
			continue
		}
		out.WriteRune(c)
	}
	out.WriteByte('\n')
	return []byte(out.String()), nil
}

// maxValue bounds a value in the text report's sections, maxShort one
// in its first lines; --json has it whole.
const maxValue, maxShort = 120, 40

// TextOptions are how the text report is drawn.
type TextOptions struct {
	// Wide draws the version table whole: full times, the user agent,
	// nothing cut short. Else it fits 80 columns.
	Wide bool
	// Since and Until bound the version table (zero: no bound).
	Since, Until time.Time
}

// tableWidth is the width the version table fits unless Wide.
const tableWidth = 80

// Text is the report for a terminal, as TextWith draws it by default.
func (r Report) Text() string { return r.TextWith(TextOptions{}) }

// TextWith is the report for a terminal: first one line per finding and
// one per thing that could not be judged, since the on-call engineer
// reads the first line first; then the versions oldest first, then the
// lost updates, blind writes and fights in full. Everything from the log
// is escaped.
func (r Report) TextWith(o TextOptions) string {
	var b strings.Builder
	e := escape.String
	found := r.Findings()
	for _, f := range found {
		fmt.Fprintln(&b, f)
	}
	for _, c := range r.Coverage.Lines() {
		fmt.Fprintln(&b, "INCONCLUSIVE: "+c)
	}
	for _, p := range r.Coverage.Partial {
		fmt.Fprintln(&b, "PARTIAL: "+e(p))
	}
	if len(found) == 0 && r.Coverage.Judged() {
		var kinds []string
		for _, k := range findingKinds {
			kinds = append(kinds, k.name)
		}
		fmt.Fprintf(&b, "OK: no %s among %s; every write judged\n", orList(kinds), plural(len(r.Versions), "version"))
	}
	name := r.Object.Resource
	if r.Object.APIGroup != "" {
		name += "." + r.Object.APIGroup
	}
	name += "/" + r.Object.Name
	if r.Object.Namespace != "" {
		name += " in namespace " + r.Object.Namespace
	}
	shown, before, after := r.bounded(o)
	c := r.clock()
	fmt.Fprintf(&b, "\n%s: %s in the audit log", e(name), plural(len(r.Versions), "version"))
	if !o.Wide && c.day != "" {
		fmt.Fprintf(&b, " (times UTC, %s)", c.day)
	}
	fmt.Fprintln(&b)
	if before+after > 0 {
		fmt.Fprintf(&b, "%s before --since and %d after --until not shown\n", plural(before, "version"), after)
	}
	fmt.Fprintln(&b)
	r.table(&b, shown, o.Wide, c)
	section := func(title string, n int) bool {
		switch {
		case n > 0:
			fmt.Fprintf(&b, "\n%s: %d\n", title, n)
			return true
		case !r.Coverage.Judged():
			var see []string
			if r.Coverage.Unjudged > 0 {
				see = append(see, "INCONCLUSIVE")
			}
			if len(r.Coverage.Partial) > 0 {
				see = append(see, "PARTIAL")
			}
			fmt.Fprintf(&b, "\n%s: none found, but not all could be judged (%s above)\n", title, strings.Join(see, ", "))
		default:
			fmt.Fprintf(&b, "\n%s: none\n", title)
		}
		return false
	}
	losses := func(ls []ReportLoss, verb string) {
		for _, l := range ls {
			fmt.Fprintf(&b, "  %s: %s set by %s at %s (resourceVersion %s) %s by %s at %s (resourceVersion %s)\n",
				e(l.Path), value(l.LostValue, maxValue), who(l.LostAt), l.LostAt.Time, e(l.LostAt.ResourceVersion), verb,
				who(l.OverwrittenBy), l.OverwrittenBy.Time, e(l.OverwrittenBy.ResourceVersion))
			fmt.Fprintf(&b, "    %s\n", e(l.Evidence))
		}
	}
	if section("LOST UPDATES", len(r.LostUpdates)) {
		losses(r.LostUpdates, "lost")
	}
	if section("BLIND WRITES", len(r.BlindWrites)) {
		losses(r.BlindWrites, "replaced")
	}
	if section("REVERTED", len(r.Reverted)) {
		losses(r.Reverted, "set back")
	}
	if len(r.Fights) == 0 {
		fmt.Fprintf(&b, "\nFIGHTS: none\n")
	} else {
		fmt.Fprintf(&b, "\nFIGHTS: %d\n", len(r.Fights))
		for _, f := range r.Fights {
			first, _ := time.Parse(time.RFC3339Nano, f.Times[0])
			last, _ := time.Parse(time.RFC3339Nano, f.Times[len(f.Times)-1])
			fmt.Fprintf(&b, "  %s changed hands %s between %s and %s in %s: %s\n", e(f.Path), words.Count(f.Count, "time"),
				e(f.Clients[0].String()), e(f.Clients[1].String()), last.Sub(first).Round(time.Second), strings.Join(f.Times, " "))
		}
	}
	b.WriteString(r.toolNotes())
	return b.String()
}

// toolNotes says, once per client, that it wrote under more than one
// field manager: two tools of one user, which the detector takes for one
// client.
func (r Report) toolNotes() string {
	var b strings.Builder
	type key struct{ user, agent string }
	var order []key
	managers := map[key][]string{}
	for _, tc := range r.ToolChanges {
		k := key{tc.Write.User, tc.Write.UserAgent}
		if _, ok := managers[k]; !ok {
			order = append(order, k)
			managers[k] = []string{tc.Before.Manager}
		}
		if !slices.Contains(managers[k], tc.Write.Manager) {
			managers[k] = append(managers[k], tc.Write.Manager)
		}
	}
	for _, k := range order {
		ms := make([]string, len(managers[k]))
		for i, m := range managers[k] {
			ms[i] = escape.String(m)
		}
		fmt.Fprintf(&b, "\nnote: %s wrote under %s: one user and user agent is one client here (reads carry no field manager), so a change one of these tools made and the other overwrote is not seen\n",
			escape.String(Client{User: k.user, UserAgent: k.agent}.String()), words.Count(len(ms), "field manager")+" ("+strings.Join(ms, ", ")+")")
	}
	return b.String()
}

// bounded returns the versions within o's --since and --until, and how
// many fall before and after.
func (r Report) bounded(o TextOptions) (shown []ReportVersion, before, after int) {
	for _, v := range r.Versions {
		t, err := time.Parse(time.RFC3339Nano, v.Time)
		switch {
		case err == nil && !o.Since.IsZero() && t.Before(o.Since):
			before++
		case err == nil && !o.Until.IsZero() && t.After(o.Until):
			after++
		default:
			shown = append(shown, v)
		}
	}
	return shown, before, after
}

// table writes the version table: whole when wide, else in 80 columns
// (short times, no user agent, long cells cut short with "…").
func (r Report) table(b *strings.Builder, vs []ReportVersion, wide bool, c clock) {
	e := escape.String
	changed := func(v ReportVersion) string {
		text := "(not recorded)"
		if v.Changed != nil {
			text = e(strings.Join(v.Changed, " "))
		}
		if v.CreatedAgain {
			text = strings.TrimSuffix("created again (uid "+e(v.UID)+"): "+text, ": ")
		}
		return text
	}
	if wide {
		tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "RESOURCEVERSION\tTIME\tUSER\tUSER AGENT\tMANAGER\tVERB\tCHANGED")
		for _, v := range vs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", dash(e(v.ResourceVersion)), v.Time, e(v.User), e(v.UserAgent),
				dash(e(v.Manager)), e(v.Verb), changed(v))
		}
		tw.Flush()
		return
	}
	rows := [][]string{{"RV", "TIME", "USER", "MANAGER", "VERB", "CHANGED"}}
	for _, v := range vs {
		rows = append(rows, []string{cut(dash(e(v.ResourceVersion)), 10), c.short(v.Time), cut(e(v.User), 20),
			cut(dash(e(v.Manager)), 18), cut(e(v.Verb), 12), changed(v)})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row[:len(row)-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	last := tableWidth
	for _, w := range widths[:len(widths)-1] {
		last -= w + 2
	}
	last = max(last, 12)
	for _, row := range rows {
		var line strings.Builder
		for i, cell := range row[:len(row)-1] {
			fmt.Fprintf(&line, "%s%s  ", cell, strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)))
		}
		line.WriteString(cut(row[len(row)-1], last))
		fmt.Fprintln(b, strings.TrimRight(line.String(), " "))
	}
}

// cut shortens s to n runes, its end "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// clock writes a report's times short: the time of day when every time
// of the report is on one day (day), else with the date.
type clock struct{ day string }

func (r Report) clock() clock {
	day := ""
	for _, v := range r.Versions {
		d, _, _ := strings.Cut(v.Time, "T")
		if day != "" && d != day {
			return clock{}
		}
		day = d
	}
	return clock{day}
}

func (c clock) short(stamp string) string {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return stamp
	}
	if c.day != "" {
		return t.UTC().Format("15:04:05")
	}
	return t.UTC().Format("Jan 2 15:04:05")
}

// findingKind is one kind of finding: its name (in "no lost update, ...")
// and the first lines of the text report it gives, one per finding, each
// starting with its mark (LOST, BLIND, FIGHT). Each line says what a
// reader acts on without the table: the field, whose value was lost and
// when, who replaced it with what, and its value now.
type findingKind struct {
	name  string
	lines func(r Report, c clock) []string
}

// findingKinds are the kinds of findings, in the order the report's first
// lines give them; a new kind of finding is one more entry.
var findingKinds = []findingKind{
	{"lost update", func(r Report, c clock) []string {
		var out []string
		for _, l := range r.LostUpdates {
			out = append(out, fmt.Sprintf("LOST %s: %s overwritten by %s with %s; %s", escape.String(l.Path), lostBy(l, c),
				writtenBy(l.OverwrittenBy, c), value(l.NewValue, maxShort), now(l)))
		}
		return out
	}},
	{"blind write", func(r Report, c clock) []string {
		var out []string
		for _, l := range r.BlindWrites {
			out = append(out, fmt.Sprintf("BLIND %s: %s replaced by %s with %s, unseen (no resourceVersion, no read by %s in the log); %s",
				escape.String(l.Path), lostBy(l, c), writtenBy(l.OverwrittenBy, c), value(l.NewValue, maxShort),
				escape.String(l.OverwrittenBy.User), now(l)))
		}
		return out
	}},
	{"reverted value", func(r Report, c clock) []string {
		var out []string
		for _, l := range r.Reverted {
			out = append(out, fmt.Sprintf("REVERTED %s: %s set back by %s to %s; %s", escape.String(l.Path), lostBy(l, c),
				writtenBy(l.OverwrittenBy, c), value(l.NewValue, maxShort), now(l)))
		}
		return out
	}},
	{"fight", func(r Report, c clock) []string {
		var out []string
		for _, f := range r.Fights {
			out = append(out, fmt.Sprintf("FIGHT %s: changed hands %s between %s and %s, last at %s", escape.String(f.Path),
				words.Count(f.Count, "time"), escape.String(f.Clients[0].String()), escape.String(f.Clients[1].String()),
				c.short(f.Times[len(f.Times)-1])))
		}
		return out
	}},
}

// Findings are the first lines of the text report: one per finding, of
// every kind. Any of them is something to look at (kedit history's exit
// status 1).
func (r Report) Findings() []string {
	c := r.clock()
	var out []string
	for _, k := range findingKinds {
		out = append(out, k.lines(r, c)...)
	}
	return out
}

// lostBy names a lost value: whose, what, when and by which manager.
func lostBy(l ReportLoss, c clock) string {
	at := c.short(l.LostAt.Time)
	if l.LostAt.Manager != "" {
		at += ", " + escape.String(l.LostAt.Manager)
	}
	return fmt.Sprintf("%s's %s (%s)", escape.String(l.LostAt.User), value(l.LostValue, maxShort), at)
}

// writtenBy names a write by its user and tool: kubectl's field
// managers (kubectl-edit) as the command (kubectl edit), else the
// manager, else the verb.
func writtenBy(v ReportVersion, c clock) string {
	tool := v.Manager
	switch {
	case strings.HasPrefix(tool, "kubectl-"):
		tool = "kubectl " + strings.TrimPrefix(tool, "kubectl-")
	case tool == "":
		tool = v.Verb
	}
	return fmt.Sprintf("%s's %s (%s)", escape.String(v.User), escape.String(tool), c.short(v.Time))
}

// now says a lost field's value now, and where it was read.
func now(l ReportLoss) string {
	v := "(absent)"
	if l.NowValue != nil {
		v = value(l.NowValue, maxShort)
	}
	switch l.NowFrom {
	case "live":
		return "live now " + v
	case "log":
		return "newest in the log " + v
	}
	return "its value now unknown"
}

// orList joins words as "a, b or c".
func orList(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

func who(v ReportVersion) string {
	s := escape.String(v.User)
	if v.Manager != "" {
		s += " (" + escape.String(v.Manager) + ")"
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// value writes a value for the text report: JSON, escaped, cut short
// past n runes.
func value(v any, n int) string {
	if v == nil {
		return "(removed)"
	}
	if s, ok := v.(string); ok && s == SecretValue {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := escape.String(string(b))
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
