package history

import (
	"fmt"
	"strings"

	"github.com/kedit/kedit/internal/words"
)

// Coverage says how much of the object's history the log lets Analyze
// judge. A write can be judged for lost updates only when the log holds
// the object it stored (RequestResponse level) and, when its request
// carried no resourceVersion, a read of the object by its client before
// it (reads at Metadata level): what the writer saw. A Metadata-level
// policy, common for writes, leaves every write unjudged; "no lost
// update" is then no answer.
type Coverage struct {
	// Writes counts the object's versions: its successful writes.
	Writes int `json:"writes"`
	// WithoutBodies counts the writes the log holds no stored object of
	// (logged below RequestResponse level).
	WithoutBodies int `json:"withoutBodies"`
	// Level is the audit level the writes without their bodies were
	// logged at, when the log says and it is one (Metadata, Request).
	Level string `json:"level,omitempty"`
	// WithoutReads counts the writes with no resourceVersion whose client
	// the log has no read of the object by before them: what they saw is
	// unknown.
	WithoutReads int `json:"withoutReads"`
	// Reads counts the log's reads of the object (get, list, watch).
	Reads int `json:"reads"`
	// Uncompared counts the writes whose object could not be compared
	// with the version before (what they changed is unknown).
	Uncompared int `json:"uncompared"`
	// Unjudged counts the writes that could not be judged: those above,
	// and those right after a write without its body (what changed in
	// between is not known).
	Unjudged int `json:"unjudged"`
	// Partial names the logs that end early (FILE:LINE and why): what
	// they held after is missing. Set by whoever read the logs.
	Partial []string `json:"partial"`
	// Unfinished counts the object's requests the logs hold only as
	// received (the RequestReceived stage, with no later one): whether
	// they were done, and what they stored, is unknown. Set by whoever
	// read the logs.
	Unfinished int `json:"unfinished"`
}

// Judged reports whether every write could be judged and every log was
// read to its end: only then does finding nothing mean nothing was lost.
func (c Coverage) Judged() bool { return c.Unjudged == 0 && len(c.Partial) == 0 && c.Unfinished == 0 }

// Lines says in words which writes could not be judged, one line each;
// none when every write was. The logs that end early are in Partial.
func (c Coverage) Lines() []string {
	var out []string
	switch {
	case c.WithoutBodies > 0 && c.Level == "Request":
		out = append(out, fmt.Sprintf("%d of %s logged at Request level: the bodies they sent are there, the objects the server stored are not, so what they changed cannot be judged (writes need RequestResponse)",
			c.WithoutBodies, words.Count(c.Writes, "write")))
	case c.WithoutBodies > 0:
		out = append(out, fmt.Sprintf("%d of %s recorded without their bodies: lost updates cannot be judged (%s; writes need RequestResponse)",
			c.WithoutBodies, words.Count(c.Writes, "write"), c.levelWords()))
	}
	if c.Unfinished > 0 {
		out = append(out, fmt.Sprintf("%s of the object logged only as received (the RequestReceived stage, with no later one): whether they were done, and what they stored, is unknown (a policy's omitStages must keep ResponseComplete)",
			words.Count(c.Unfinished, "request")))
	}
	if c.WithoutReads > 0 {
		s := fmt.Sprintf("%d of %s carried no resourceVersion and the log has no read of the object by their client before them: what they saw cannot be judged",
			c.WithoutReads, words.Count(c.Writes, "write"))
		if c.Reads == 0 {
			s += " (the log holds no get, list or watch of it: reads need Metadata level)"
		}
		out = append(out, s)
	}
	if c.Uncompared > 0 {
		out = append(out, fmt.Sprintf("%d of %s could not be compared with the version before: what they changed is unknown",
			c.Uncompared, words.Count(c.Writes, "write")))
	}
	if rest := c.Unjudged - c.WithoutBodies - c.WithoutReads - c.Uncompared; rest > 0 {
		out = append(out, fmt.Sprintf("%d of %s came right after a write without its body: what they changed cannot be told apart from it",
			rest, words.Count(c.Writes, "write")))
	}
	return out
}

// levelWords says what level the writes without their bodies were
// logged at.
func (c Coverage) levelWords() string {
	if c.Level == "" {
		return "logged below RequestResponse level"
	}
	return "logged at " + c.Level + " level"
}

// Short says in a few words what could not be judged, for the timeline's
// header: "cannot judge 3 writes (Metadata level)"; empty when everything
// was.
func (c Coverage) Short() string {
	var parts []string
	if c.Unjudged > 0 {
		var why []string
		if c.WithoutBodies > 0 {
			if c.Level != "" {
				why = append(why, c.Level+" level")
			} else {
				why = append(why, "below RequestResponse")
			}
		}
		switch {
		case c.WithoutReads > 0 && c.Reads == 0:
			why = append(why, "reads not logged")
		case c.WithoutReads > 0:
			why = append(why, "no read by the writer")
		}
		s := "cannot judge " + words.Count(c.Unjudged, "write")
		if len(why) > 0 {
			s += " (" + strings.Join(why, ", ") + ")"
		}
		parts = append(parts, s)
	}
	if c.Unfinished > 0 {
		parts = append(parts, words.Count(c.Unfinished, "request")+" logged only as received")
	}
	if len(c.Partial) > 0 {
		parts = append(parts, "the log ends early: partial")
	}
	return strings.Join(parts, "; ")
}

// coverageOf counts what of versions vs the log lets Analyze judge, with
// each write's base.
func coverageOf(vs []Version, bases []base, cr clientReads, events []Event) Coverage {
	c := Coverage{Writes: len(vs), Partial: []string{}}
	levels := map[string]bool{}
	for _, ev := range events {
		if ev.IsWrite() && ev.Object == nil && ev.Code >= 200 && ev.Code < 300 && ev.Verb != VerbDelete {
			levels[ev.Level] = true
		}
	}
	if len(levels) == 1 {
		for l := range levels {
			// Only a level the API server writes is said: the log's
			// text is not.
			switch l {
			case "Metadata", "Request":
				c.Level = l
			}
		}
	}
	for _, rs := range cr.by {
		c.Reads += len(rs)
	}
	for i := range vs {
		switch unjudgedOf(vs, i, bases[i], cr.logged) {
		case judged:
			continue
		case noBody:
			c.WithoutBodies++
		case uncompared:
			c.Uncompared++
		case noRead:
			c.WithoutReads++
		}
		c.Unjudged++
	}
	return c
}

// why says why a write could not be judged.
type why int

const (
	judged why = iota
	// noBody: the log holds no stored object of the write.
	noBody
	// uncompared: its object could not be compared with the one before.
	uncompared
	// afterGap: it came right after a write without its body, whose
	// changes cannot be told apart from its own.
	afterGap
	// noRead: it carried no resourceVersion of its own and its client
	// has no read of the object before it, where the log holds no reads
	// at all (its policy leaves them out), or where it changed a field
	// whose last writer the log does not hold (set before the log
	// begins): who it replaced unseen is unknown. A field its JSON Patch
	// tested was read; one whose writer the log holds is judged (replaced
	// blind, or its own).
	noRead
)

// unjudgedOf says why version i could not be judged, with its base (the
// zero base for a version that is no overwriter) and whether the log
// holds reads at all (else a write with no read is no news of what its
// writer saw).
func unjudgedOf(vs []Version, i int, b base, readsLogged bool) why {
	v := &vs[i]
	switch {
	case !v.Recorded:
		return noBody
	case v.Err != nil:
		return uncompared
	case v.AfterGap:
		return afterGap
	case overwriter(vs, i) && b.blind && (!readsLogged || unknownSetter(vs, i)):
		return noRead
	}
	return judged
}

// unknownSetter reports whether write i changed a field, untested, whose
// last writer before it the log does not hold.
func unknownSetter(vs []Version, i int) bool {
	for _, c := range vs[i].Changed {
		if tested(vs, i, c.Path) {
			continue
		}
		if _, ok := setter(vs, i, c.Path); !ok {
			return true
		}
	}
	return false
}
