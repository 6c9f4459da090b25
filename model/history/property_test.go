package history

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/testseed"
)

// sim is a server holding one ConfigMap, and the clients that read and
// write it, with what each of them saw: the reference model the detector
// is checked against. It records the audit events a real server would.
type sim struct {
	r       *rand.Rand
	clients []Client
	now     time.Time
	rv      int
	uid     int
	// cur is the object's data, nil while it does not exist.
	cur map[string]string
	// versions are the object's versions as the reference knows them.
	versions []simVersion
	// seen is the index in versions of what each client last saw; -2
	// for nothing yet.
	seen map[Client]int
	// watching holds the clients with a watch open, and since when.
	watching map[Client]time.Time
	// setter is, per key, the index of the version that last set it.
	setter map[string]int
	events []Event
	// want are the lost updates, blind writes and reverted values the
	// reference knows, and the writes whose field manager differs from
	// their client's write before ("RV<RV").
	wantLost, wantBlind, wantReverted []simLoss
	wantTools                         []string
	// manager is each client's field manager in its last write.
	manager map[Client]string
}

type simVersion struct {
	rv       string
	client   Client
	data     map[string]string // nil for a deletion
	creation bool
}

type simLoss struct {
	Path          string
	Value         string
	Present       bool
	LostAt, ByRV  string
	LostBy, Wrote string
}

var simKeys = []string{"a", "b", "c", "d"}

func newSim(r *rand.Rand) *sim {
	s := &sim{r: r, now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), seen: map[Client]int{},
		watching: map[Client]time.Time{}, setter: map[string]int{}, manager: map[Client]string{}}
	for i := range 2 + r.IntN(3) {
		c := Client{User: "user" + strconv.Itoa(i), UserAgent: "kubectl/v1.33.0"}
		if i%2 == 1 {
			c.UserAgent = "controller/v0.1"
		}
		s.clients = append(s.clients, c)
		s.seen[c] = -2
	}
	// Lists of the namespace before the object is created did not read
	// it: a client whose only reads they are writes blind.
	for _, c := range s.clients {
		if r.IntN(2) == 0 {
			s.event(c, VerbList, 200, nil, "")
		}
	}
	data := map[string]string{"keep": "1"}
	for _, k := range simKeys[:2] {
		data[k] = "0"
	}
	s.create(s.clients[0], data)
	return s
}

func (s *sim) tick() time.Time {
	s.now = s.now.Add(time.Second)
	return s.now
}

func (s *sim) object(data map[string]string) *unstructured.Unstructured {
	d := map[string]any{}
	for k, v := range data {
		d[k] = v
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "ns", "resourceVersion": strconv.Itoa(s.rv),
			"uid": "uid-" + strconv.Itoa(s.uid)},
		"data": d,
	}}
}

// event records an audit event of c, received now and completed 100 ms
// later.
func (s *sim) event(c Client, verb string, code int, obj *unstructured.Unstructured, rv string) {
	t := s.tick()
	s.events = append(s.events, Event{Verb: verb, Client: c, Received: t, Time: t.Add(100 * time.Millisecond),
		Code: code, Object: obj, RequestRV: rv, Source: fmt.Sprintf("sim:%d", len(s.events)+1)})
}

// store makes data the object's new version, written by c with base
// (index of the version c's write was made from; -2 for none, -3 for a
// request carrying the latest resourceVersion) and the keys its JSON
// Patch tested (read at the moment of the write), and records what the
// write lost, replaced blind, or set back.
func (s *sim) store(c Client, verb, manager string, data map[string]string, base int, rv string, tested ...string) {
	var tests []string
	for _, k := range tested {
		tests = append(tests, "/data/"+k)
	}
	if s.cur != nil && maps.Equal(s.cur, data) {
		// Nothing new: the server answers with the object as it is.
		s.event(c, verb, 200, s.object(s.cur), rv)
		s.events[len(s.events)-1].Tests, s.events[len(s.events)-1].Manager = tests, manager
		// kubectl shows its user "(no change)", not the object.
		if !strings.HasPrefix(c.UserAgent, "kubectl/") {
			s.seen[c] = len(s.versions) - 1
		}
		return
	}
	prev := s.cur
	s.rv++
	i := len(s.versions)
	if prev != nil {
		for _, k := range append([]string{"keep"}, simKeys...) {
			pv, pok := prev[k]
			nv, nok := data[k]
			if pv == nv && pok == nok {
				continue
			}
			set, ok := s.setter[k]
			if !ok || s.versions[set].client == c {
				continue
			}
			// A revert sets the key back to what it was before the
			// setter's change, whatever the writer read.
			was, wasOK := "", false
			revert := false
			if !s.versions[set].creation {
				was, wasOK = s.versions[set-1].data[k]
				revert = was == nv && wasOK == nok
			}
			l := simLoss{Path: ".data." + k, Value: pv, Present: pok, LostAt: s.versions[set].rv, ByRV: strconv.Itoa(s.rv),
				LostBy: s.versions[set].client.User, Wrote: c.User}
			switch {
			case slices.Contains(tested, k):
				// Read at the moment of the write: set back knowingly,
				// else nothing.
				if revert {
					s.wantReverted = append(s.wantReverted, l)
				}
			case base == -2:
				s.wantBlind = append(s.wantBlind, l)
			case base != -3 && set > base:
				s.wantLost = append(s.wantLost, l)
			case revert:
				s.wantReverted = append(s.wantReverted, l)
			}
		}
	}
	for _, k := range append([]string{"keep"}, simKeys...) {
		pv, pok := prev[k]
		nv, nok := data[k]
		if prev == nil || pv != nv || pok != nok {
			s.setter[k] = i
		}
	}
	s.cur = data
	s.versions = append(s.versions, simVersion{rv: strconv.Itoa(s.rv), client: c, data: data, creation: verb == VerbCreate})
	s.event(c, verb, 200, s.object(data), rv)
	if m, ok := s.manager[c]; ok && m != manager && verb != VerbCreate && !s.versions[i].creation {
		s.wantTools = append(s.wantTools, s.versions[s.lastWrite(c, i)].rv+"<"+strconv.Itoa(s.rv))
	}
	if verb != VerbCreate {
		s.manager[c] = manager
	}
	s.events[len(s.events)-1].Manager, s.events[len(s.events)-1].Tests = manager, tests
	s.follow()
}

// ownRead records the get a write's command makes itself right before
// it writes, as kubectl's do (kubectl patch always; kubectl replace when
// its file has no resourceVersion, and it then sends the one it read):
// the write's client reads the object, but its user sees nothing of it.
func (s *sim) ownRead(c Client) {
	t := s.now.Add(time.Second)
	s.events = append(s.events, Event{Verb: VerbGet, Client: c, Received: t.Add(-3 * time.Millisecond), Time: t.Add(-2 * time.Millisecond),
		Code: 200, Source: fmt.Sprintf("sim:%d", len(s.events)+1)})
}

// lastWrite is the index of c's last version before i.
func (s *sim) lastWrite(c Client, i int) int {
	for k := i - 1; k >= 0; k-- {
		if s.versions[k].client == c && s.versions[k].data != nil && !s.versions[k].creation {
			return k
		}
	}
	return -1
}

// follow brings every watching client up to the latest version.
func (s *sim) follow() {
	for c := range s.watching {
		s.seen[c] = len(s.versions) - 1
	}
}

func (s *sim) create(c Client, data map[string]string) {
	s.uid++
	s.setter = map[string]int{}
	s.store(c, VerbCreate, "kubectl-create", data, -3, "")
}

// base is what c's write without a resourceVersion was made from.
func (s *sim) base(c Client) int { return s.seen[c] }

func (s *sim) step() {
	c := s.clients[s.r.IntN(len(s.clients))]
	val := strconv.Itoa(s.r.IntN(3))
	key := simKeys[s.r.IntN(len(simKeys))]
	switch n := s.r.IntN(22); {
	case s.cur == nil:
		// Deleted: writes fail until someone creates it again.
		if n < 5 {
			s.create(c, map[string]string{"keep": "1", key: val})
		} else {
			s.event(c, VerbPatch, 404, nil, "")
		}
	case n < 5: // get or list
		verb := VerbGet
		if n%2 == 0 {
			verb = VerbList
		}
		s.event(c, verb, 200, nil, "")
		s.seen[c] = len(s.versions) - 1
	case n < 7: // a watch begins or ends
		if from, ok := s.watching[c]; ok {
			delete(s.watching, c)
			t := s.tick()
			s.events = append(s.events, Event{Verb: VerbWatch, Client: c, Received: from, Time: t, Code: 200, Source: "sim-watch"})
		} else {
			s.watching[c] = s.tick()
			s.seen[c] = len(s.versions) - 1
		}
	case n < 10: // a patch of one key, no resourceVersion: kubectl patch (which gets the object first), or kubectl edit
		data := maps.Clone(s.cur)
		if n == 9 {
			delete(data, key)
		} else {
			data[key] = val
		}
		manager := []string{"kubectl-edit", "kubectl-patch"}[s.r.IntN(2)]
		if manager == "kubectl-patch" {
			s.ownRead(c)
		}
		s.store(c, VerbPatch, manager, data, s.base(c), "")
	case n < 13: // an update without resourceVersion made from what c saw
		seen := s.seen[c]
		if seen < 0 || s.versions[seen].data == nil {
			s.event(c, VerbGet, 200, nil, "")
			s.seen[c] = len(s.versions) - 1
			return
		}
		data := maps.Clone(s.versions[seen].data)
		data[key] = val
		// kubectl replace of a file without one gets the object and
		// sends its resourceVersion; a script sends none.
		if s.r.IntN(2) == 0 {
			s.ownRead(c)
			s.store(c, VerbUpdate, "kubectl-replace", data, seen, strconv.Itoa(s.rv))
			return
		}
		s.store(c, VerbUpdate, "script", data, seen, "")
	case n < 17: // an update with the resourceVersion c saw
		seen := s.seen[c]
		if seen < 0 || s.versions[seen].data == nil {
			return
		}
		rv := s.versions[seen].rv
		if seen != len(s.versions)-1 {
			s.event(c, VerbUpdate, 409, nil, rv)
			return
		}
		data := maps.Clone(s.cur)
		data[key] = val
		s.store(c, VerbUpdate, []string{"kubectl-replace", "kedit"}[s.r.IntN(2)], data, -3, rv)
	case n < 18: // a deletion
		s.rv++
		s.cur = nil
		s.versions = append(s.versions, simVersion{rv: "", client: c})
		st := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Success"}}
		s.event(c, VerbDelete, 200, st, "")
		s.follow()
	case n < 20: // a read by nobody that matters: another client's list
		s.event(Client{User: "other"}, VerbList, 200, nil, "")
	default: // kedit set --if: a JSON Patch testing one key, setting one
		tk := simKeys[s.r.IntN(len(simKeys))]
		// The value tested: what c last saw, or the value now (a script
		// that knows it).
		want, wantOK := s.cur[tk]
		if seen := s.seen[c]; n == 20 && seen >= 0 && s.versions[seen].data != nil {
			want, wantOK = s.versions[seen].data[tk]
		}
		if now, ok := s.cur[tk]; now != want || ok != wantOK {
			s.event(c, VerbPatch, 422, nil, "")
			s.events[len(s.events)-1].Tests = []string{"/data/" + tk}
			return
		}
		data := maps.Clone(s.cur)
		data[key] = val
		s.store(c, VerbPatch, "kedit", data, s.base(c), "", tk)
	}
}

// end closes the log: watches still open are recorded as such.
func (s *sim) end() {
	for c, from := range s.watching {
		s.events = append(s.events, Event{Verb: VerbWatch, Client: c, Received: from, Time: from, Open: true, Source: "sim-open-watch"})
	}
}

func losses(h *History, ls []Loss) []simLoss {
	var out []simLoss
	for _, l := range ls {
		v, _ := l.Value.Value.(string)
		out = append(out, simLoss{Path: l.Path.String(), Value: v, Present: l.Value.Present,
			LostAt: h.Versions[l.LostAt].ResourceVersion, ByRV: h.Versions[l.OverwrittenBy].ResourceVersion,
			LostBy: h.Versions[l.LostAt].Client.User, Wrote: h.Versions[l.OverwrittenBy].Client.User})
	}
	return out
}

func sortLosses(ls []simLoss) []simLoss {
	ls = slices.Clone(ls)
	sort.Slice(ls, func(i, j int) bool { return fmt.Sprint(ls[i]) < fmt.Sprint(ls[j]) })
	return ls
}

// TestDetectorNamesExactlyTheLostUpdates plays random sequences of reads
// and writes by 2 to 4 clients, some with resourceVersions and some
// without, some JSON Patches testing a key (kedit set --if), each client
// writing under two field managers (kubectl edit and kubectl patch), with
// deletions and re-creations, against a reference that knows what each
// client saw, what it tested and which writes set a key back. After every
// step, the detector, given only the audit events (in any order), names
// exactly the lost updates, blind writes, reverted values and changes of
// tool the reference knows: none missing, never one more.
func TestDetectorNamesExactlyTheLostUpdates(t *testing.T) {
	// Each step analyses the whole log again; 60 walks keep make test's
	// share to seconds. KEDIT_HISTORY_WALKS runs more.
	walks, steps := 60, 40
	if testing.Short() {
		walks = 20
	}
	if n, err := strconv.Atoi(os.Getenv("KEDIT_HISTORY_WALKS")); err == nil && n > 0 {
		walks = n
	}
	base := testseed.Fixed(t, 0)
	for w := range walks {
		seed := base + uint64(w)
		r := rand.New(rand.NewPCG(seed, 21))
		s := newSim(r)
		for step := range steps {
			s.step()
			sim := *s
			sim.watching = maps.Clone(s.watching)
			sim.events = slices.Clone(s.events)
			sim.end()
			events := sim.events
			r.Shuffle(len(events), func(i, j int) { events[i], events[j] = events[j], events[i] })
			h := Analyze(events)
			if got, want := sortLosses(losses(h, h.LostUpdates)), sortLosses(s.wantLost); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, step %d: lost updates\n got %+v\nwant %+v\nevents:\n%s", seed, step, got, want, dump(s.events))
			}
			if got, want := sortLosses(losses(h, h.BlindWrites)), sortLosses(s.wantBlind); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, step %d: blind writes\n got %+v\nwant %+v\nevents:\n%s", seed, step, got, want, dump(s.events))
			}
			if got, want := sortLosses(losses(h, h.Reverted)), sortLosses(s.wantReverted); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, step %d: reverted\n got %+v\nwant %+v\nevents:\n%s", seed, step, got, want, dump(s.events))
			}
			var tools []string
			for _, tc := range h.ToolChanges {
				tools = append(tools, h.Versions[tc.Previous].ResourceVersion+"<"+h.Versions[tc.Write].ResourceVersion)
			}
			if !slices.Equal(tools, s.wantTools) {
				t.Fatalf("seed %d, step %d: tool changes %v, want %v\nevents:\n%s", seed, step, tools, s.wantTools, dump(s.events))
			}
		}
	}
}

func dump(events []Event) string {
	out := ""
	for _, e := range sortEvents(events) {
		data := ""
		if e.Object != nil {
			data = fmt.Sprint(e.Object.GetResourceVersion(), " ", e.Object.Object["data"])
		}
		out += fmt.Sprintf("  %s %s %s %d rv=%q %s %s tests=%v\n", e.Time.Format("15:04:05.000"), e.Client.User, e.Verb, e.Code, e.RequestRV, e.Manager, data, e.Tests)
	}
	return out
}
