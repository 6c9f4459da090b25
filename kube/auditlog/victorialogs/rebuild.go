package victorialogs

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// VictoriaLogs stores an event as fields: a nested object's fields under
// dotted names (objectRef.name, annotations.authorization.k8s.io/decision),
// arrays, numbers and booleans as their JSON text, strings as themselves;
// an empty string, an empty object and a null as nothing. Ingest may turn
// one field into _msg (_msg_field) and one time into _time (_time_field),
// or keep requestObject and responseObject as their JSON text
// (preserve_json_keys). An event is put back together by the shape of an
// audit.k8s.io/v1 Event, which says which names are one key of a map
// (an annotation's key may hold dots), and which values are numbers or
// arrays rather than strings.

// required are the fields the API server writes in every event, as
// strings: the one _msg_field took is the one missing.
var required = []string{"kind", "apiVersion", "level", "auditID", "stage", "requestURI", "verb", "user.username", "requestReceivedTimestamp", "stageTimestamp"}

// The engine's own fields.
const (
	msgField  = "_msg"
	timeField = "_time"
)

// microTime is how the API server writes a time: RFC 3339, UTC, with
// microseconds.
const microTime = "2006-01-02T15:04:05.000000Z07:00"

// rebuilt is one event put back together.
type rebuilt struct {
	json  []byte
	where string
	// flattened is set when a body came back flattened: not exact.
	flattened bool
	// order sorts the events as the API server logged them.
	stageTime, received string
	stage               int
	auditID             string
}

// rebuildRow puts a row of source back together as an event.
func rebuildRow(row map[string]string, source string) (rebuilt, error) {
	ev, err := rebuild(row)
	ev.where = fmt.Sprintf("%s _time %s auditID %s", source, row[timeField], row["auditID"])
	if err != nil {
		return ev, fmt.Errorf("%s: %w", ev.where, err)
	}
	return ev, nil
}

// sortLogged sorts events as the API server logged them: by
// stageTimestamp, a request's stages in order.
func sortLogged(events []rebuilt) {
	sort.SliceStable(events, func(i, j int) bool {
		a, b := &events[i], &events[j]
		if a.stageTime != b.stageTime {
			return a.stageTime < b.stageTime
		}
		if a.stage != b.stage {
			return a.stage < b.stage
		}
		if a.received != b.received {
			return a.received < b.received
		}
		return a.auditID < b.auditID
	})
}

// flattenedBodies counts the events whose bodies came back flattened.
func flattenedBodies(evs []rebuilt) int {
	n := 0
	for _, ev := range evs {
		if ev.flattened {
			n++
		}
	}
	return n
}

// stages orders a request's stages.
var stages = map[string]int{"RequestReceived": 0, "ResponseStarted": 1, "ResponseComplete": 2, "Panic": 3}

// rebuild puts one row back together as the event the API server wrote.
func rebuild(row map[string]string) (rebuilt, error) {
	if raw, ok := wholeEvent(row); ok {
		return ordered(rebuilt{json: raw}, raw)
	}
	fields := make(map[string]string, len(row))
	for k, v := range row {
		if !strings.HasPrefix(k, "_") {
			fields[k] = v
		}
	}
	restoreMsg(fields, row[msgField])
	if err := restoreTime(fields, row[timeField]); err != nil {
		return rebuilt{}, err
	}
	ev := map[string]any{}
	flattened := false
	for _, k := range sortedKeys(fields) {
		flat, err := place(ev, eventShape, k, k, fields[k])
		if err != nil {
			return rebuilt{}, err
		}
		flattened = flattened || flat
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return rebuilt{}, err
	}
	return ordered(rebuilt{json: raw, flattened: flattened}, raw)
}

// ordered fills in what sorts ev.
func ordered(ev rebuilt, raw []byte) (rebuilt, error) {
	var o struct {
		Stage, AuditID                           string
		StageTimestamp, RequestReceivedTimestamp string
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return ev, err
	}
	ev.stage, ev.auditID = stages[o.Stage], o.AuditID
	var err error
	if ev.stageTime, err = sortable(o.StageTimestamp); err != nil {
		return ev, fmt.Errorf("stageTimestamp: %w", err)
	}
	if ev.received, err = sortable(o.RequestReceivedTimestamp); err != nil {
		return ev, fmt.Errorf("requestReceivedTimestamp: %w", err)
	}
	return ev, nil
}

// sortable is a time as text that sorts as the time does.
func sortable(s string) (string, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "", fmt.Errorf("%q is no time", s)
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000000"), nil
}

// wholeEvent finds the event's own line kept whole in one field: a
// shipper that sends the line it read as _msg (or as log or message, with
// the event's fields beside it) keeps it exactly.
func wholeEvent(row map[string]string) ([]byte, bool) {
	for _, k := range []string{msgField, "log", "message"} {
		v := strings.TrimSpace(row[k])
		if !strings.HasPrefix(v, "{") {
			continue
		}
		var e struct {
			Kind, APIVersion, Verb, Stage string
		}
		if json.Unmarshal([]byte(v), &e) == nil && e.Kind == "Event" && strings.HasPrefix(e.APIVersion, "audit.k8s.io/") && e.Verb != "" && e.Stage != "" {
			return []byte(v), true
		}
	}
	return nil, false
}

// restoreMsg puts _msg back where ingest took it from: the one field every
// event has that the row lacks. A _msg of another field (a shipper's own
// message), or VictoriaLogs' own for none, goes nowhere.
func restoreMsg(fields map[string]string, msg string) {
	if msg == "" {
		return
	}
	var missing []string
	for _, k := range required {
		if _, ok := fields[k]; !ok {
			missing = append(missing, k)
		}
	}
	// With _time_field, one time is missing too: _time is it.
	if len(missing) == 2 && isTime(missing[1]) && !isTime(missing[0]) {
		missing = missing[:1]
	}
	if len(missing) == 1 && !isTime(missing[0]) {
		fields[missing[0]] = msg
	}
}

func isTime(k string) bool { return k == "requestReceivedTimestamp" || k == "stageTimestamp" }

// restoreTime puts _time back as the time ingest took it from
// (_time_field): the one of the event's two times the row lacks, written
// as the API server writes it.
func restoreTime(fields map[string]string, at string) error {
	_, received := fields["requestReceivedTimestamp"]
	_, stage := fields["stageTimestamp"]
	if received && stage {
		return nil
	}
	if !received && !stage {
		return errors.New("neither requestReceivedTimestamp nor stageTimestamp is there: at most one can be _time")
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return fmt.Errorf("_time %q is no time", at)
	}
	k := "stageTimestamp"
	if !received {
		k = "requestReceivedTimestamp"
	}
	fields[k] = t.UTC().Format(microTime)
	return nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
