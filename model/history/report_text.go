package history

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// The report as text for a terminal: the first line per finding, the
// version table in 80 columns (or whole), and the sections in full.

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
	for _, f := range append(found, r.Unknowns()...) {
		fmt.Fprintln(&b, f)
	}
	for _, c := range r.Coverage.Lines() {
		fmt.Fprintln(&b, "INCONCLUSIVE: "+c)
	}
	for _, p := range r.Coverage.Partial {
		fmt.Fprintln(&b, "PARTIAL: "+e(p))
	}
	if len(found) == 0 && r.Conclusive() {
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
	if r.Path != nil {
		r.Path.text(&b, c)
	}
	section := func(title string, n int) bool {
		switch {
		case n > 0:
			fmt.Fprintf(&b, "\n%s: %d\n", title, n)
			return true
		case !r.Conclusive():
			var see []string
			if len(r.BlindWrites) > 0 {
				see = append(see, "BLIND")
			}
			if r.Coverage.Unjudged > 0 || r.Coverage.Unfinished > 0 {
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
	if section("FIGHTS", len(r.Fights)) {
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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", dash(e(v.ResourceVersion)), v.Time, e(v.User), e(UserAgentText(v.UserAgent)),
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
