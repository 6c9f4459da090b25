package tour

import (
	"fmt"
	"strings"
	"time"

	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/internal/words"
)

// What a step did on the wire: the requests kedit sent for the object
// since the step started, each with its answer, in words.

// explain says what step i did on the wire: the writes sent since it
// started, each with its answer (a run of the same request, as the
// race's, counted by answer), and the versions other clients wrote.
func explain(i int, c Content, since uint64) string {
	var reqs []Request
	for _, r := range c.Requests {
		if r.Seq > since {
			reqs = append(reqs, r)
		}
	}
	said, reqs := explainReads(reqs), writesOf(reqs)
	read := len(said) > 0
	for len(reqs) > 0 {
		r := reqs[0]
		if n := run(reqs); n >= 3 {
			said = append(said, explainRun(reqs[:n]))
			reqs = reqs[n:]
			continue
		}
		reqs = reqs[1:]
		switch {
		case r.Method == "WATCH":
			said = append(said, fmt.Sprintf("the watch brought rv %s by %s, another client: its request is not kedit's", r.ReturnedRV, r.Who))
		case r.Conflict:
			// The log learns the server's version once kedit read
			// theirs, which may come after the rebase showed.
			server := "a newer version"
			switch {
			case r.ServerRV != "":
				server = "rv " + string(r.ServerRV)
			case c.Facts.TheirsRV != "":
				server = "rv " + string(c.Facts.TheirsRV)
			}
			said = append(said, fmt.Sprintf("%s sent %s with rv %s; the server holds %s; %s: nothing was overwritten",
				r.Who, r.Method, orNone(r.SentRV), server, r.Status))
		default:
			said = append(said, fmt.Sprintf("%s sent %s with rv %s; %s: stored as rv %s", r.Who, r.Method, orNone(r.SentRV), r.Status, orNone(r.ReturnedRV)))
		}
	}
	switch {
	case read && len(said) == 1 && i == 0:
		return said[0] + fmt.Sprintf("; nothing was written: the draft is on your disk, based on rv %s", c.Facts.BaseRV)
	case read && len(said) == 1 && Steps[i].quiet != "":
		return said[0] + "; " + strings.Replace(Steps[i].quiet, "nothing was sent", "nothing was written", 1)
	case len(said) > 0:
		if i < len(Steps) && Steps[i].quiet != "" && i != 0 {
			said = append(said, Steps[i].quiet)
		}
		return strings.Join(said, "; then ")
	case i == 0:
		return fmt.Sprintf("nothing was sent: the draft is on your disk, based on rv %s", c.Facts.BaseRV)
	case Steps[i].quiet != "":
		return Steps[i].quiet
	}
	return "nothing was sent"
}

// explainReads says, in one part, what kedit read for the object and
// why, each request by its method and path: `kedit read the schema to
// check the draft as the server will (GET /openapi/v3, GET
// /openapi/v3/api/v1) and asked whether you may save it (POST
// /apis/authorization.k8s.io/v1/selfsubjectaccessreviews)`; none for no
// reads.
func explainReads(reqs []Request) []string {
	by := map[Read][]string{}
	for _, r := range reqs {
		if r.Read != "" {
			by[r.Read] = append(by[r.Read], string(r.Method)+" "+string(r.Path))
		}
	}
	var parts []string
	if rs := by[ReadSchema]; len(rs) > 0 {
		parts = append(parts, "read the schema to check the draft as the server will ("+strings.Join(rs, ", ")+")")
	}
	if rs := by[ReadAccess]; len(rs) > 0 {
		parts = append(parts, "asked whether you may save it ("+strings.Join(rs, ", ")+")")
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"kedit " + strings.Join(parts, " and ")}
}

// writesOf is reqs without the reads.
func writesOf(reqs []Request) []Request {
	var out []Request
	for _, r := range reqs {
		if r.Read == "" {
			out = append(out, r)
		}
	}
	return out
}

// run is how many of reqs, from the first, are the same request sent
// again: who, method and resourceVersion.
func run(reqs []Request) int {
	n := 1
	for n < len(reqs) && reqs[n].Method != "WATCH" && reqs[n].Who == reqs[0].Who && reqs[n].Method == reqs[0].Method && reqs[n].SentRV == reqs[0].SentRV {
		n++
	}
	if reqs[0].Method == "WATCH" {
		return 1
	}
	return n
}

// explainRun says a run of the same request by answer: `kedit sent 10 PATCH
// requests with rv none at once: 1 × 200 (stored as rv 215), 9 × 422
// Unprocessable Entity: nothing was written`. "At once" only when the log's
// times say so (every one sent before the first answer came); otherwise
// over how long, and how many left after the first answer.
func explainRun(reqs []Request) string {
	counts := map[escape.Text]int{}
	var order []escape.Text
	var stored escape.Text
	for _, r := range reqs {
		if counts[r.Status] == 0 {
			order = append(order, r.Status)
		}
		counts[r.Status]++
		if r.ReturnedRV != "" && !r.Conflict && strings.HasPrefix(string(r.Status), "2") {
			stored = r.ReturnedRV
		}
	}
	parts := make([]string, 0, len(order))
	for _, st := range order {
		p := fmt.Sprintf("%d × %s", counts[st], st)
		if strings.HasPrefix(string(st), "2") && stored != "" {
			p += " (stored as rv " + string(stored) + ")"
		} else if !strings.HasPrefix(string(st), "2") {
			p += ": nothing was written"
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("%s sent %s with rv %s %s: %s", reqs[0].Who, words.Count(len(reqs), string(reqs[0].Method)+" request"), orNone(reqs[0].SentRV), sentWhen(reqs), strings.Join(parts, ", "))
}

// sentWhen says when a run of requests was sent, by the log's times: "at
// once" when every one left before the first answer came back, else
// "over 600ms, 3 of them after the first answer".
func sentWhen(reqs []Request) string {
	first := reqs[0].Sent.Add(reqs[0].Latency)
	from, to := reqs[0].Sent, reqs[0].Sent
	for _, r := range reqs {
		if a := r.Sent.Add(r.Latency); a.Before(first) {
			first = a
		}
		if r.Sent.Before(from) {
			from = r.Sent
		}
		if r.Sent.After(to) {
			to = r.Sent
		}
	}
	late := 0
	for _, r := range reqs {
		if r.Sent.After(first) {
			late++
		}
	}
	if late == 0 {
		return "at once"
	}
	return fmt.Sprintf("over %s, %d of them after the first answer", to.Sub(from).Round(time.Millisecond), late)
}

func orNone(t escape.Text) string {
	if t == "" {
		return "none"
	}
	return string(t)
}
