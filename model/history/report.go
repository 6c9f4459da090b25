package history

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

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
}

// ReportFight is a fight.
type ReportFight struct {
	Path    string    `json:"path"`
	Clients [2]Client `json:"clients"`
	Count   int       `json:"count"`
	Times   []string  `json:"times"`
}

// Report builds the report of h for the object named by obj (its UIDs
// are filled in here).
func (h *History) Report(obj ReportObject) Report {
	r := Report{Object: obj, Versions: []ReportVersion{}, LostUpdates: []ReportLoss{}, BlindWrites: []ReportLoss{}, Reverted: []ReportLoss{},
		Fights: []ReportFight{}, ToolChanges: []ReportToolChange{}}
	r.Object.UIDs = []string{}
	for i := range h.Versions {
		v := &h.Versions[i]
		if v.UID != "" && (len(r.Object.UIDs) == 0 || r.Object.UIDs[len(r.Object.UIDs)-1] != v.UID) {
			r.Object.UIDs = append(r.Object.UIDs, v.UID)
		}
		r.Versions = append(r.Versions, h.version(i))
	}
	for _, l := range h.LostUpdates {
		rl := h.loss(l)
		base := ""
		if l.Base >= 0 {
			base = h.Versions[l.Base].ResourceVersion
		}
		rl.Base = &base
		r.LostUpdates = append(r.LostUpdates, rl)
	}
	for _, l := range h.BlindWrites {
		r.BlindWrites = append(r.BlindWrites, h.loss(l))
	}
	for _, l := range h.Reverted {
		r.Reverted = append(r.Reverted, h.loss(l))
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

func (h *History) loss(l Loss) ReportLoss {
	rl := ReportLoss{Path: l.Path.String(), LostAt: h.version(l.LostAt), OverwrittenBy: h.version(l.OverwrittenBy), Evidence: l.Evidence}
	switch {
	case h.Secret:
		rl.LostValue = SecretValue
	case l.Value.Present:
		rl.LostValue = l.Value.Value
	}
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

// maxValue bounds a value in the text report; --json has it whole.
const maxValue = 120

// Text is the report for a terminal: the versions oldest first, then the
// lost updates, blind writes and fights. Everything from the log is
// escaped.
func (r Report) Text() string {
	var b strings.Builder
	e := escape.String
	name := r.Object.Resource
	if r.Object.APIGroup != "" {
		name += "." + r.Object.APIGroup
	}
	name += "/" + r.Object.Name
	if r.Object.Namespace != "" {
		name += " in namespace " + r.Object.Namespace
	}
	fmt.Fprintf(&b, "%s: %s in the audit log\n\n", e(name), plural(len(r.Versions), "version"))
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RESOURCEVERSION\tTIME\tUSER\tUSER AGENT\tMANAGER\tVERB\tCHANGED")
	for _, v := range r.Versions {
		changed := "(not recorded)"
		if v.Changed != nil {
			changed = e(strings.Join(v.Changed, " "))
		}
		if v.CreatedAgain {
			changed = strings.TrimSuffix("created again (uid "+e(v.UID)+"): "+changed, ": ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", dash(e(v.ResourceVersion)), v.Time, e(v.User), e(v.UserAgent),
			dash(e(v.Manager)), e(v.Verb), changed)
	}
	tw.Flush()
	section := func(title string, n int) bool {
		if n == 0 {
			fmt.Fprintf(&b, "\n%s: none\n", title)
			return false
		}
		fmt.Fprintf(&b, "\n%s: %d\n", title, n)
		return true
	}
	losses := func(ls []ReportLoss, verb string) {
		for _, l := range ls {
			fmt.Fprintf(&b, "  %s: %s set by %s at %s (resourceVersion %s) %s by %s at %s (resourceVersion %s)\n",
				e(l.Path), value(l.LostValue), who(l.LostAt), l.LostAt.Time, e(l.LostAt.ResourceVersion), verb,
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

// value writes a lost value for the text report: JSON, escaped, cut short
// past maxValue.
func value(v any) string {
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
	if utf8.RuneCountInString(s) > maxValue {
		s = string([]rune(s)[:maxValue]) + "…"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
