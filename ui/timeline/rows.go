package timeline

import (
	"strconv"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/common"
)

// The timeline's rows: a version kedit observed live, and one only the
// audit log holds.

// timelineRow is one version as the timeline lists it.
type timelineRow struct {
	// id is the live timeline's entry, -1 for a version only the audit
	// log holds; version is the version's index in the log's history, -1
	// for none. key keeps the row selected as rows come and go.
	id, version int
	key         string
	rv          escape.Text
	at          escape.Text
	manager     escape.Text
	operation   escape.Text
	// changed says what the version changed: its field paths, or what
	// else happened (a deletion, the first version seen).
	changed escape.Text
	// lost marks a write that lost other clients' changes (LOST),
	// reverted one that set a field back to its value before another
	// client's change (REVERTED), blind one that replaced another
	// client's value with no read of its writer's in the log (BLIND),
	// fight one that took a field from the other side of a fight (FIGHT).
	lost, reverted, blind, fight bool
	// fights are the fields of the fights it took part in.
	fights []string
	// value is the followed path's value in this version (escaped), when
	// the view follows one.
	value escape.Text
}

// mark is the row's LOST, REVERTED, BLIND and FIGHT.
func (r timelineRow) mark() string {
	var marks []string
	if r.lost {
		marks = append(marks, "LOST")
	}
	if r.reverted {
		marks = append(marks, "REVERTED")
	}
	if r.blind {
		marks = append(marks, "BLIND")
	}
	if r.fight {
		marks = append(marks, "FIGHT")
	}
	return strings.Join(marks, " ")
}

// newTimelineRow describes entry e; first is set for the first version
// kedit saw of the object.
func newTimelineRow(e model.Entry, first bool) timelineRow {
	r := timelineRow{id: e.ID, version: -1, key: "live " + strconv.Itoa(e.ID), rv: escape.Safe(e.ResourceVersion),
		at: escape.Safe(e.Observed.Local().Format("15:04:05")), manager: escape.Safe(e.Manager), operation: escape.Safe(e.Operation)}
	if e.Subresource != "" {
		r.operation += "/" + escape.Safe(e.Subresource)
	}
	var paths []string
	for _, c := range e.Changes {
		paths = append(paths, c.Path)
	}
	switch {
	case e.Deleted:
		// The API does not say who deleted an object.
		r.manager, r.operation, r.changed = "-", "Delete", "deleted (its last state)"
	case first:
		r.changed = "opened: the first version kedit saw"
	case e.Err != nil:
		r.changed = "could not compare: " + common.ErrorText(e.Err)
	case len(paths) == 0:
		// A write that changed only what the server keeps, such as
		// managedFields or an annotation's removal and return.
		r.changed = "no field changed"
	default:
		r.changed = common.SafeList(paths, ", ")
	}
	if e.Recreated {
		r.changed = "created again (new uid): " + r.changed
	}
	if r.manager == "" {
		// The list's column is narrow; the diff's title says it whole.
		r.manager = unknownWriterShort
	}
	return r
}

// unknownWriterShort is common.UnknownWriter for the list's narrow column.
const unknownWriterShort = "unknown writer"

// newLogRow describes version i of h, which only the audit log holds:
// its resourceVersion, when the log recorded it (with the date when it is
// not the day of latest, the timeline's newest version), the field
// manager (else the user), the verb, and what it changed, said to come
// from the audit log.
func newLogRow(h *history.History, i int, latest time.Time) timelineRow {
	v := &h.Versions[i]
	r := timelineRow{id: -1, version: i, rv: escape.Safe(v.ResourceVersion), at: escape.Safe(logTime(v.Time, latest)),
		manager: escape.Safe(v.Manager), operation: escape.Safe(v.Verb)}
	r.key = "log " + v.ResourceVersion + " " + v.Time.String()
	if r.manager == "" {
		r.manager = escape.Safe(v.Client.User)
	}
	if v.Subresource != "" {
		r.operation += "/" + escape.Safe(v.Subresource)
	}
	var paths []string
	for _, c := range v.Changed {
		paths = append(paths, c.Path.String())
	}
	switch {
	case v.Deleted:
		r.rv, r.changed = "-", "deleted"
	case !v.Recorded:
		r.changed = "not recorded (the log holds no object of this write)"
	case v.Recreated:
		r.changed = "created again (uid " + escape.Safe(v.UID) + ")"
	case v.Verb == history.VerbCreate:
		r.changed = "created"
	case i == 0:
		r.changed = "the first version in the log"
	case v.Err != nil:
		r.changed = "could not compare: " + common.ErrorText(v.Err)
	case len(paths) == 0:
		r.changed = "no field changed"
	default:
		r.changed = common.SafeList(paths, ", ")
	}
	r.changed = "from the audit log: " + r.changed
	return r
}

// logTime is when the log recorded a version, in local time: the date too
// when it is not the day of latest.
func logTime(t, latest time.Time) string {
	t, latest = t.Local(), latest.Local()
	if y, m, d := t.Date(); latest.Year() != y || latest.Month() != m || latest.Day() != d {
		return t.Format("Jan 02 15:04:05")
	}
	return t.Format("15:04:05")
}

// latestTime is when the newest of rows was written (a version only the
// log holds) or seen (a live one).
func latestTime(h *history.History, rows []history.Row) time.Time {
	var latest time.Time
	for _, r := range rows {
		t := time.Time{}
		switch {
		case r.Entry != nil:
			t = r.Entry.Observed
		case r.Version >= 0:
			t = h.Versions[r.Version].Time
		}
		if t.After(latest) {
			latest = t
		}
	}
	return latest
}
