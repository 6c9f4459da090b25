package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kedit/kedit/source"
	"github.com/kedit/kedit/ui/internal/effect"
	"github.com/kedit/kedit/ui/internal/sourceplan"
)

// A draft whose values the source already holds: the status line says
// so, as news, not as a failure to write, and no source diff opens.
func TestSourceAlreadyHoldingTheDraftIsSaid(t *testing.T) {
	m := newApp(t, 120, 30, &fakeRunner{})
	held := fmt.Errorf("%w (.data.foo): nothing to write", source.ErrAlreadyHeld)
	got, _ := m.Update(effect.SourcePlanned{Of: []effect.ID{m.id},
		Failed: []sourceplan.Failure{{Ref: "v1/ConfigMap rb/testmap", Err: held}}})
	a := got.(App)
	status := string(a.status.Text())
	if !strings.Contains(status, "the source already holds it (.data.foo): nothing to write") || strings.Contains(status, "not written") || strings.Contains(status, "uncommitted") {
		t.Errorf("status: %q", status)
	}
	if a.screen == screenSource {
		t.Error("the source diff opened with nothing to write")
	}
}
