package ui

import (
	"net/http"
	"net/url"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kedit/kedit/internal/demo"
	"github.com/kedit/kedit/internal/escape"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/tour"
)

// kedit demo --tour: the tour's line (ui/tour) over every view. After
// each event the app tells it the session's state and the writes sent;
// it moves on when a step is done, and the app then prepares the demo
// writer for the step that starts.

// tourWriter is the demo writer as the tour prepares it (*demo.Writer).
type tourWriter interface {
	NextWrites(mine bool)
	Reset()
}

// tourUpdate hands the tour the session's state, and prepares the demo
// writer when a step starts; nothing outside the tour.
func (m *App) tourUpdate() {
	if !m.cfg.Tour || m.sess == nil {
		return
	}
	if !m.tour.SetContent(m.tourContent()) {
		return
	}
	m.tourPrepare()
}

// tourContent is the session's state and the writes sent, for the tour.
func (m *App) tourContent() tour.Content {
	return tour.Content{Facts: m.tourFacts(), Requests: tourRequests(m.cfg.Requests, m.target)}
}

// tourPrepare prepares the demo writer for the step that starts: foo set
// back to "1" when the step starts from there, the field its next write
// changes.
func (m *App) tourPrepare() {
	i := m.tour.Step()
	if i >= len(tour.Steps) {
		return
	}
	w, ok := m.demo.(tourWriter)
	if !ok {
		return
	}
	if live, _ := m.sess.Live(); tour.Steps[i].Reset && dataFoo(live.Object) != tour.ResetFoo {
		// A step that starts where the one before left foo needs no
		// write: one would only say it found foo so already.
		w.Reset()
	}
	switch tour.Steps[i].Writes {
	case tour.WritesMine:
		w.NextWrites(true)
	case tour.WritesOther:
		w.NextWrites(false)
	}
}

// tourFacts are the session's state as the tour's steps read it.
func (m *App) tourFacts() tour.Facts {
	s := m.sess
	base := s.Base()
	live, _ := s.Live()
	f := tour.Facts{BaseFoo: dataFoo(base.Object), BaseRV: escape.Safe(base.ResourceVersion), Timeline: m.screen == screenTimeline,
		Blame: m.screen == screenObject && m.object.Blaming(), Lost: m.screen == screenLost, LiveFoo: dataFoo(live.Object), Races: m.tourRaces}
	if d := s.Draft(); d != nil {
		f.Draft, f.DraftFoo = true, dataFoo(d.Object)
	}
	if r := s.Rebase(); r != nil && r.Merge != nil {
		f.Rebasing = true
		f.Conflicts, f.OpenConflicts, f.Merged = len(r.Merge.Conflicts), s.OpenConflicts(), len(r.Merge.Changes)
		f.TheirsRV = escape.Safe(r.Theirs.ResourceVersion)
	}
	if r := s.LastSave(); r != nil {
		f.SavedRV = r.ResourceVersion
	}
	return f
}

// dataFoo is the demo's field: .data.foo of obj, "" for none.
func dataFoo(obj *unstructured.Unstructured) string {
	if obj == nil {
		return ""
	}
	v, _, _ := unstructured.NestedString(obj.Object, "data", "foo")
	return v
}

// tourRequests are the writes of target's object the log holds (reads
// and other objects' requests, such as an access review, left out), and
// the watch's events of versions the demo's kubectl edit wrote, which
// kedit's log holds no request of. Each is named by who sent it: the
// demo writer's are marked so in the log, the rest are kedit's.
func tourRequests(log *kube.RequestLog, target *kube.Target) []tour.Request {
	if log == nil || target == nil {
		return nil
	}
	path := target.APIPath()
	var out []tour.Request
	for _, r := range log.Rows() {
		if read := tourRead(r); read != "" {
			p, _, _ := strings.Cut(r.Path, "?")
			out = append(out, tour.Request{Seq: r.Seq, Who: "kedit", Method: escape.Safe(r.Method), Path: escape.Safe(p), Status: escape.Safe(r.StatusText()), Read: read})
			continue
		}
		switch r.Method {
		case http.MethodPut, http.MethodPatch, http.MethodPost:
		case "WATCH":
			if r.Manager != demo.EditorManager || r.Event != "MODIFIED" {
				continue
			}
		default:
			continue
		}
		u, err := url.Parse(r.Path)
		if err != nil || u.Path != path {
			continue
		}
		who := "kedit"
		switch {
		case r.By != "":
			who = r.By
		case r.Method == "WATCH":
			who = r.Manager
		}
		out = append(out, tour.Request{Seq: r.Seq, Who: escape.Safe(who), Method: escape.Safe(r.Method),
			SentRV: escape.Safe(r.SentRV), ServerRV: escape.Safe(r.ServerRV), ReturnedRV: escape.Safe(r.ReturnedRV),
			Status: escape.Safe(r.StatusText()), Conflict: r.Status == http.StatusConflict})
	}
	return out
}

// tourRead is why kedit read what r asked for the object: its schema (the
// OpenAPI documents), or whether the user may save it (an access review);
// "" for any other request.
func tourRead(r kube.RequestRow) tour.Read {
	switch {
	case r.By != "":
	case r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/openapi/"):
		return tour.ReadSchema
	case r.Method == http.MethodPost && strings.Contains(r.Path, "/selfsubjectaccessreviews"):
		return tour.ReadAccess
	}
	return ""
}

// tourIntent acts on the tour's skip key: the next step starts, prepared
// as if the one under way were done; false for any other message.
func (m App) tourIntent(msg tea.Msg) (App, tea.Cmd, bool) {
	if _, ok := msg.(tour.SkipMsg); !ok {
		return m, nil, false
	}
	if m.cfg.Tour && m.sess != nil && m.tour.Skip(m.tourContent()) {
		m.tourPrepare()
	}
	return m, nil, true
}

// tourTakes says whether key is the tour's, which it takes over every
// view while a step is under way.
func (m App) tourTakes(msg tea.KeyMsg) bool {
	return m.cfg.Tour && m.tour.Step() < len(tour.Steps) && m.tour.Takes(msg)
}
