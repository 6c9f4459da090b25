package history

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/kedit/kedit/diff"
	"github.com/kedit/kedit/internal/escape"
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
	// Path is one field's value in each version (kedit history --path);
	// nil when none was asked for.
	Path *ReportPath `json:"path,omitempty"`
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
	// Command names the command that made the write as the report says
	// it: "kubectl edit" for the field manager kubectl-edit, else the
	// manager, else the verb.
	Command string `json:"command"`
	// Verdict is what was found of the write: lost, blind, reverted,
	// inconclusive or ok; empty for a creation or a deletion.
	Verdict Verdict `json:"verdict"`
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
		UserAgent: v.Client.UserAgent, Manager: v.Manager, Verb: v.Verb, Command: v.Command(), Verdict: v.Verdict}
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
	return []byte(safeJSON(b) + "\n"), nil
}

// safeJSON is JSON text with every character that could drive a
// terminal, or that takes no cell, written as a \u escape, which JSON
// reads back as it was: the one notation of a value the report prints,
// so that a backslash is never doubled by a second escaping.
func safeJSON(b []byte) string {
	s := string(b)
	var out strings.Builder
	sc := escape.NewScanner(s)
	for i := 0; i < len(s); {
		e, n := sc.Unit(i)
		if e == "" {
			out.WriteString(s[i : i+n])
			i += n
			continue
		}
		for _, c := range s[i : i+n] {
			for _, u := range utf16.Encode([]rune{c}) {
				fmt.Fprintf(&out, `\u%04x`, u)
			}
		}
		i += n
	}
	return out.String()
}
