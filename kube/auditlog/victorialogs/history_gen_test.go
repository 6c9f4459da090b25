package victorialogs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"

	"github.com/kedit/kedit/internal/testseed"
	"github.com/kedit/kedit/kube/auditlog"
	"github.com/kedit/kedit/model/history"
)

// A random audit log of a busy namespace around one object, ConfigMap
// shop/r1: writers and readers (by impersonation too), gets, lists and
// watches of its collection in its namespace and in all of them (some by
// a field selector naming it or another), watches begun and ended,
// requests received and refused, dry runs, and the events of other
// objects, namespaces and types among them, in the order the API server
// writes them.

type logGen struct {
	r   *rand.Rand
	at  time.Time
	n   int
	rv  int
	foo string
	// open are watches begun and not ended.
	open  []auditv1.Event
	lines [][]byte
}

var people = []string{"alice", "bob", "carol", "dave", "system:serviceaccount:kube-system:controller"}

func (g *logGen) tick() time.Time {
	g.at = g.at.Add(time.Duration(1+g.r.IntN(300000)) * time.Microsecond)
	return g.at
}

func (g *logGen) event(verb, uri string, ref *auditv1.ObjectReference, level auditv1.Level) auditv1.Event {
	g.n++
	user := pick(g.r, people)
	ev := auditv1.Event{TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "audit.k8s.io/v1"}, Level: level,
		AuditID: types.UID(fmt.Sprintf("id-%06d", g.n)), Stage: auditv1.StageResponseComplete, RequestURI: uri, Verb: verb,
		User:      authnv1.UserInfo{Username: user, Groups: []string{"system:authenticated"}},
		SourceIPs: []string{"127.0.0.1"}, UserAgent: pick(g.r, []string{"kubectl/v1.36.3 (linux/amd64) kubernetes/abc", "kedit/dev"}),
		ObjectRef: ref, ResponseStatus: &metav1.Status{Code: 200},
		Annotations: map[string]string{"authorization.k8s.io/decision": "allow"}}
	if g.r.IntN(4) == 0 {
		// The admin, as the user (kubectl --as).
		ev.ImpersonatedUser = &authnv1.UserInfo{Username: user}
		ev.User = authnv1.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters"}}
	}
	received := g.tick()
	ev.RequestReceivedTimestamp = metav1.NewMicroTime(received)
	ev.StageTimestamp = metav1.NewMicroTime(received.Add(time.Duration(g.r.IntN(3000)) * time.Microsecond))
	return ev
}

func (g *logGen) emit(ev auditv1.Event) {
	line, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	g.lines = append(g.lines, line)
}

func (g *logGen) cm(name string) []byte {
	g.rv++
	return []byte(fmt.Sprintf(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":%q,"namespace":"shop","uid":"u-%s","resourceVersion":"%d","labels":{"app.kubernetes.io/name":"x"}},"data":{"foo":%q,"nginx.conf":"a.b"}}`,
		name, name, g.rv, g.foo))
}

// step adds one request's events.
func (g *logGen) step() {
	r := g.r
	name := pick(r, []string{"r1", "r1", "r1", "r2"})
	ns := pick(r, []string{"shop", "shop", "shop", "other"})
	resource, group := "configmaps", ""
	if r.IntN(8) == 0 {
		resource, group = "deployments", "apps"
	}
	ref := &auditv1.ObjectReference{Resource: resource, APIGroup: group, Namespace: ns, Name: name, APIVersion: "v1"}
	path := fmt.Sprintf("/api/v1/namespaces/%s/%s", ns, resource)
	switch k := r.IntN(10); {
	case k < 2: // a get
		g.emit(g.event("get", path+"/"+name, ref, auditv1.LevelMetadata))
	case k < 4: // a list, here or everywhere
		ref.Name = ""
		uri := path
		if r.IntN(2) == 0 {
			ref.Namespace, uri = "", "/api/v1/"+resource
		}
		if r.IntN(3) == 0 {
			uri += "?fieldSelector=metadata.name%3D" + pick(r, []string{"r1", "r2"})
		}
		g.emit(g.event("list", uri, ref, auditv1.LevelMetadata))
	case k < 5: // a watch begins
		ref.Name = ""
		ev := g.event("watch", path+"?watch=true", ref, auditv1.LevelMetadata)
		ev.Stage = auditv1.StageResponseStarted
		g.emit(ev)
		g.open = append(g.open, ev)
	case k < 6 && len(g.open) > 0: // a watch ends
		i := r.IntN(len(g.open))
		ev := g.open[i]
		g.open = append(g.open[:i], g.open[i+1:]...)
		ev.Stage = auditv1.StageResponseComplete
		// It ends after it began: the next tick may come before the
		// time its answer started.
		end := g.tick()
		if began := ev.StageTimestamp.Add(time.Microsecond); end.Before(began) {
			end = began
		}
		ev.StageTimestamp = metav1.NewMicroTime(end)
		g.emit(ev)
	default: // a write
		verb := pick(r, []string{"update", "patch", "patch", "create", "delete"})
		g.foo = pick(r, []string{"1", "alice", "bob", "", "3"})
		ev := g.event(verb, path+"/"+name+pick(r, []string{"", "?fieldManager=kubectl-edit", "?dryRun=All"}), ref, auditv1.LevelRequestResponse)
		if r.IntN(3) == 0 {
			// The request, as the API server first logs it.
			rr := ev
			rr.Stage, rr.ResponseStatus, rr.StageTimestamp = auditv1.StageRequestReceived, nil, rr.RequestReceivedTimestamp
			g.emit(rr)
		}
		body := g.cm(name)
		if verb == "patch" {
			body = []byte(fmt.Sprintf(`{"data":{"foo":%q,"gone":null}}`, g.foo))
			if r.IntN(2) == 0 {
				body = []byte(fmt.Sprintf(`[{"op":"test","path":"/data/foo","value":"1"},{"op":"replace","path":"/data/foo","value":%q}]`, g.foo))
			}
		}
		ev.RequestObject = &runtime.Unknown{Raw: body, ContentType: runtime.ContentTypeJSON}
		ev.ResponseObject = &runtime.Unknown{Raw: g.cm(name), ContentType: runtime.ContentTypeJSON}
		if r.IntN(6) == 0 {
			ev.ResponseStatus = &metav1.Status{Status: "Failure", Reason: metav1.StatusReasonConflict, Code: 409}
			ev.ResponseObject = nil
		}
		g.emit(ev)
	}
}

// randomLog is a log of n requests from start.
func randomLog(r *rand.Rand, n int, start time.Time) [][]byte {
	g := &logGen{r: r, at: start, foo: "1"}
	for range n {
		g.step()
	}
	return g.lines
}

// TestRotatedFilesInAnyOrderGiveTheSameEvents: a random log cut into
// rotated files at random lines, the files read newest first, gives the
// object the events the whole log gives, and the same report: a watch
// whose end is read before its beginning is one span, never an end and
// a watch still open (which would be a read up to the log's end).
func TestRotatedFilesInAnyOrderGiveTheSameEvents(t *testing.T) {
	r := rand.New(rand.NewPCG(testseed.Seed(t), 11))
	m := auditlog.Match{Resources: []string{"configmaps"}, Namespace: "shop", Name: "r1", Scoped: true, Namespaced: true}
	obj := history.ReportObject{Resource: "configmaps", Namespace: "shop", Name: "r1"}
	for round := range 20 {
		lines := randomLog(r, 300, time.Now().Add(-time.Hour))
		dir := t.TempDir()
		whole := filepath.Join(dir, "audit.log")
		if err := os.WriteFile(whole, append(bytes.Join(lines, []byte("\n")), '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		// Cut points, then the files newest first, as a shell's glob of
		// audit-*.log may list them.
		cuts := []int{0}
		for range 1 + r.IntN(4) {
			cuts = append(cuts, r.IntN(len(lines)))
		}
		cuts = append(cuts, len(lines))
		sort.Ints(cuts)
		var files []string
		for i := len(cuts) - 2; i >= 0; i-- {
			name := filepath.Join(dir, fmt.Sprintf("audit-%d.log", i))
			part := lines[cuts[i]:cuts[i+1]]
			if err := os.WriteFile(name, append(bytes.Join(part, []byte("\n")), '\n'), 0o600); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		want, err := auditlog.Read([]string{whole}, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := auditlog.Read(files, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		a, b := comparable(want.Events), comparable(got.Events)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("round %d, cut at %v: the files newest first give %d events, the whole log %d; only theirs:\n%s\nonly the whole log's:\n%s",
				round, cuts, len(b), len(a), only(b, a), only(a, b))
		}
		if x, y := history.Analyze(want.Events).Report(obj), history.Analyze(got.Events).Report(obj); !reflect.DeepEqual(x, y) {
			t.Fatalf("round %d, cut at %v: the reports differ:\n%+v\n%+v", round, cuts, x, y)
		}
	}
}
