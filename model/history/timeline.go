package history

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/model"
)

// Row is one version on kedit's timeline when an audit log is given: a
// version the log holds, one kedit observed live, or both.
type Row struct {
	// Version indexes History.Versions; -1 for a version the log does not
	// hold.
	Version int
	// Entry is the live timeline's entry; nil for a version only the log
	// holds (one written before kedit opened the object).
	Entry *model.Entry
	// Lost is set when the version is a write that lost other clients'
	// changes: a LostUpdates' OverwrittenBy.
	Lost bool
	// Reverted is set when the version is a write that set a field back
	// to its value before another client's change: a Reverted's
	// OverwrittenBy.
	Reverted bool
	// Blind is set when the version is a write that replaced another
	// client's value with no read of the object by its writer in the
	// log: a BlindWrites' OverwrittenBy.
	Blind bool
	// Fights are the fields this write took from the other side of a
	// fight: the log's fights (between clients) and the live timeline's
	// (between field managers, model.TimelineFights).
	Fights []string
}

// FromLog reports whether only the audit log holds the version.
func (r Row) FromLog() bool { return r.Entry == nil }

// Rows lists the versions of h (nil: no log) and of live (the session's
// timeline, oldest first) together, oldest first. A version both hold
// (the same resourceVersion; for a deletion, the one after the same
// version) is one row. A version only the log holds comes where its
// resourceVersion puts it among the live ones, so the log's history comes
// first, then what kedit observed.
func Rows(h *History, live []model.Entry) []Row {
	var vs []Version
	if h != nil {
		vs = h.Versions
	}
	match := matchLive(vs, live)
	matched := map[int]bool{}
	for _, j := range match {
		if j >= 0 {
			matched[j] = true
		}
	}
	lost, reverted, blind := map[int]bool{}, map[int]bool{}, map[int]bool{}
	logFights := map[int][]string{}
	if h != nil {
		for _, l := range h.LostUpdates {
			lost[l.OverwrittenBy] = true
		}
		for _, l := range h.Reverted {
			reverted[l.OverwrittenBy] = true
		}
		for _, l := range h.BlindWrites {
			blind[l.OverwrittenBy] = true
		}
		for _, f := range h.Fights {
			for _, i := range f.Versions {
				logFights[i] = append(logFights[i], f.Path)
			}
		}
	}
	liveFights := map[int][]string{}
	for _, f := range model.TimelineFights(live) {
		for _, id := range f.IDs {
			liveFights[id] = append(liveFights[id], f.Path)
		}
	}
	logRow := func(j int) Row {
		return Row{Version: j, Lost: lost[j], Reverted: reverted[j], Blind: blind[j], Fights: logFights[j]}
	}
	var out []Row
	p := 0
	// emitUntil adds the log's own versions from p on while due(j).
	emitUntil := func(due func(j int) bool) {
		for ; p < len(vs) && due(p); p++ {
			if !matched[p] {
				out = append(out, logRow(p))
			}
		}
	}
	for k := range live {
		e := &live[k]
		if j := match[k]; j >= 0 {
			emitUntil(func(i int) bool { return i < j })
			if p == j {
				p++
			}
			out = append(out, Row{Version: j, Entry: e, Lost: lost[j], Reverted: reverted[j], Blind: blind[j], Fights: union(logFights[j], liveFights[e.ID])})
			continue
		}
		emitUntil(func(i int) bool { return olderThan(&vs[i], e) })
		out = append(out, Row{Version: -1, Entry: e, Fights: liveFights[e.ID]})
	}
	emitUntil(func(int) bool { return true })
	return out
}

// matchLive finds each live entry's version in vs: by resourceVersion,
// and a deletion by the version before it. -1 for none.
func matchLive(vs []Version, live []model.Entry) []int {
	byRV := map[string]int{}
	for j, v := range vs {
		if v.ResourceVersion != "" && !v.Deleted {
			byRV[v.ResourceVersion] = j
		}
	}
	out := make([]int, len(live))
	for k, e := range live {
		out[k] = -1
		if j, ok := byRV[e.ResourceVersion]; ok && !e.Deleted {
			out[k] = j
			continue
		}
		// The watch gives a deletion the deleted object's last state; the
		// log, a Status. The deletion after the same version is the same.
		if e.Deleted && k > 0 && out[k-1] >= 0 && out[k-1]+1 < len(vs) && vs[out[k-1]+1].Deleted {
			out[k] = out[k-1] + 1
			continue
		}
		// A write logged without its body (below RequestResponse) has no
		// resourceVersion to match: the one after the version before it
		// is the same, and so is the last write before kedit's first
		// version when the log's versions after it are none.
		if e.Deleted {
			continue
		}
		if j := unrecordedAt(vs, out, k, &live[k]); j >= 0 {
			out[k] = j
		}
	}
	return out
}

// unrecordedAt is the log's version that live entry k is when the log
// holds it without its body: the version after the one entry k-1 is, or
// for the first entry the log's last version written before it was
// observed; -1 when that is not a write without its body.
func unrecordedAt(vs []Version, out []int, k int, e *model.Entry) int {
	j := -1
	switch {
	case k > 0 && out[k-1] >= 0:
		j = out[k-1] + 1
	case k == 0:
		for i := range vs {
			if !vs[i].Received.After(e.Observed) {
				j = i
			}
		}
	}
	if j < 0 || j >= len(vs) || vs[j].Recorded || vs[j].Deleted {
		return -1
	}
	return j
}

// olderThan reports whether the log's version v came before the live
// entry e: by resourceVersion, else (a deletion or a write the log holds
// no object of) by time.
func olderThan(v *Version, e *model.Entry) bool {
	if v.ResourceVersion != "" && e.ResourceVersion != "" {
		return model.NewerResourceVersion(e.ResourceVersion, v.ResourceVersion)
	}
	return v.Time.Before(e.Observed)
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Entry describes version i as a timeline entry, for the timeline's row
// and diff: its resourceVersion, when it was written, its field manager,
// its verb as the operation, and the fields it changed.
func (h *History) Entry(i int) model.Entry {
	v := &h.Versions[i]
	e := model.Entry{ResourceVersion: v.ResourceVersion, Observed: v.Time, Manager: v.Manager, Operation: v.Verb,
		Subresource: v.Subresource, Deleted: v.Deleted, Recreated: v.Recreated, Err: v.Err}
	e.Changes = fieldChanges(v.Changed)
	return e
}

// Change is version i against the version before it, as the timeline's
// diff shows it: a deletion shows the object's last state, and a version
// with no recorded version before it shows whole.
func (h *History) Change(i int) model.TimelineChange {
	c := model.TimelineChange{Entry: h.Entry(i), After: h.Versions[i].Object}
	if prev := before(h.Versions, i); prev != nil {
		c.Before = &unstructured.Unstructured{Object: prev}
	}
	if c.After == nil && h.Versions[i].Deleted {
		c.After = c.Before
	}
	return c
}

// Who names a version's writer for the views: the user, with the field
// manager when the log names one.
func (v *Version) Who() string {
	if v.Manager == "" || strings.EqualFold(v.Manager, v.Client.User) {
		return v.Client.User
	}
	return v.Client.User + " (" + v.Manager + ")"
}
