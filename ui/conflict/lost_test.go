package conflict

import (
	"strings"
	"testing"
	"time"

	"github.com/kedit/kedit/model/history"
	"github.com/kedit/kedit/ui/internal/uitest"
)

var (
	t0        = uitest.T0
	configMap = uitest.ConfigMap
	admin     = history.Client{User: "admin", UserAgent: "kubectl/v1.33.1"}
	alice     = history.Client{User: "alice", UserAgent: "kubectl/v1.33.1"}
	bob       = history.Client{User: "bob", UserAgent: "kubectl/v1.33.1"}
)

// TestLostViewNamesAReadOfADeletedObject: alice read testmap, it was
// deleted and created again (uid u-1), and her patch landed on the new
// object, losing its creator's value: the lost view says her read was of
// the deleted object.
func TestLostViewNamesAReadOfADeletedObject(t *testing.T) {
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	earlier := configMap("805", map[string]any{"foo": "1"}, "kubectl-create", 0, "foo")
	earlier.SetUID("u-0")
	hist := history.Analyze([]history.Event{
		{Verb: history.VerbCreate, Client: admin, Manager: "kubectl-create", Received: at(0), Time: at(0), Code: 201, Object: earlier},
		{Verb: history.VerbGet, Client: alice, Received: at(1), Time: at(1), Code: 200},
		{Verb: history.VerbDelete, Client: bob, Received: at(2), Time: at(2), Code: 200, UID: "u-0"},
		{Verb: history.VerbCreate, Client: bob, Manager: "kubectl-create", Received: at(3), Time: at(3), Code: 201,
			Object: configMap("807", map[string]any{"foo": "bob"}, "kubectl-create", 3, "foo")},
		{Verb: history.VerbPatch, Client: alice, Manager: "kubectl-edit", Received: at(4), Time: at(4), Code: 200,
			Object: configMap("808", map[string]any{"foo": "alice"}, "kubectl-edit", 4, "foo")},
	})
	o, ok := hist.Overwrite(3)
	if !ok {
		t.Fatalf("alice's patch lost nothing: %+v", hist.LostUpdates)
	}
	if hint := string(lostWordsOf(hist, o).full.hint); !strings.Contains(hint, "alice last read rv 805 at ") ||
		!strings.Contains(hint, ", of the deleted object (uid u-0), created again since (uid u-1)") {
		t.Errorf("hint %q", hint)
	}
}
