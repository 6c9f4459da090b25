package victorialogs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/kube/auditlog/vltest"
)

// ingest is how a shipper may send events to /insert/jsonline.
type ingest struct {
	params url.Values
	// keepLine sends each event's own line beside its fields, as "log"
	// (Fluent Bit's Keep_Log, Vector's message).
	keepLine bool
}

func randomIngest(r *rand.Rand, round int, preserve bool) ingest {
	p := url.Values{"extra_fields": {fmt.Sprintf("round=%d", round)}}
	if preserve {
		p.Set("preserve_json_keys", "requestObject,responseObject")
	}
	if f := pick(r, []string{"", "stageTimestamp", "requestReceivedTimestamp"}); f != "" {
		p.Set("_time_field", f)
	}
	in := ingest{params: p}
	switch f := pick(r, []string{"", "requestURI", "auditID", "verb", "level", "log"}); f {
	case "":
	case "log":
		in.keepLine = true
		p.Set("_msg_field", "log")
	default:
		p.Set("_msg_field", f)
	}
	var streams []string
	for _, f := range []string{"user.username", "verb", "objectRef.namespace", "level", "objectRef.resource"} {
		if r.IntN(3) == 0 {
			streams = append(streams, f)
		}
	}
	if len(streams) > 0 {
		p.Set("_stream_fields", strings.Join(streams, ","))
	}
	return in
}

// lines are the events as JSON lines, as the API server writes them (and
// with the line itself as "log" when the shipper keeps it).
func (in ingest) lines(t *testing.T, evs [][]byte) []byte {
	var b bytes.Buffer
	for _, line := range evs {
		if in.keepLine {
			q, _ := json.Marshal(string(line))
			line = append(append(append([]byte(nil), line[:len(line)-1]...), `,"log":`...), append(q, '}')...)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestRebuiltEventsAreTheOriginals: random audit events sent to a real
// VictoriaLogs (/insert/jsonline, with preserve_json_keys for the bodies
// and random choices of _time_field, _msg_field, stream fields, the line
// kept beside its fields or not), asked for again and rebuilt, are the
// events sent: every field equal, the bodies to the text of each number.
// VictoriaLogs keeps no empty value (an empty string, object or array
// item's absence, a null) outside the bodies, and the API server writes
// none the history reads, so the envelope is compared without them.
func TestRebuiltEventsAreTheOriginals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs; not run with -short")
	}
	r := rand.New(rand.NewPCG(testseed.Seed(t), 1))
	s := vltest.Start(t)
	src, err := New("victorialogs://"+s.Addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	for round := range 8 {
		in := randomIngest(r, round, true)
		want := map[string][]byte{}
		var evs [][]byte
		for i := range 40 {
			ev := randomEvent(r, round*1000+i, at)
			line, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, line)
			want[string(ev.AuditID)] = line
		}
		s.Insert(t, in.lines(t, evs), in.params)
		var got []rebuilt
		a, err := src.query(context.Background(), fmt.Sprintf("round:=%d", round), auditlog.Window{}, func(row map[string]string) error {
			ev, err := rebuildRow(row, src.Name())
			got = append(got, ev)
			return err
		})
		if err != nil || a.cut != "" {
			t.Fatalf("round %d (ingest %s): %v %+v", round, in.params.Encode(), err, a)
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d events back of %d", round, len(got), len(want))
		}
		for _, ev := range got {
			var id struct{ AuditID string }
			if err := json.Unmarshal(ev.json, &id); err != nil {
				t.Fatal(err)
			}
			orig, ok := want[id.AuditID]
			if !ok {
				t.Fatalf("round %d: an event no one sent: %s", round, ev.json)
			}
			if ev.flattened {
				t.Errorf("round %d: %s said flattened", round, id.AuditID)
			}
			if a, b := envelope(t, orig), envelope(t, ev.json); !reflect.DeepEqual(a, b) {
				t.Errorf("round %d (ingest %s): event %s rebuilt otherwise:\nsent    %s\nrebuilt %s", round, in.params.Encode(), id.AuditID, mustJSON(a), mustJSON(b))
			}
		}
	}
}

// envelope decodes an event, numbers as their text, without the values
// VictoriaLogs keeps none of outside the bodies.
func envelope(t *testing.T, raw []byte) any {
	t.Helper()
	var v map[string]any
	if err := decode(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	for k, x := range v {
		if k == "requestObject" || k == "responseObject" {
			continue
		}
		if x = dropEmpty(x); x == nil {
			delete(v, k)
		} else {
			v[k] = x
		}
	}
	return v
}

// dropEmpty is v without empty strings, nulls and empty objects (nil when
// v is one); an array is one value to VictoriaLogs and is kept as it is.
func dropEmpty(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if x == "" {
			return nil
		}
	case map[string]any:
		for k, e := range x {
			if e = dropEmpty(e); e == nil {
				delete(x, k)
			} else {
				x[k] = e
			}
		}
		if len(x) == 0 {
			return nil
		}
	}
	return v
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
