package common

import (
	"testing"

	"github.com/kedit/kedit/model"
)

// TestBannerNamesTheWriters: one writer is named once for every field;
// several, each field with its own; too many changes to tell, no one
// writer is credited with them all.
func TestBannerNamesTheWriters(t *testing.T) {
	changes := []model.FieldChange{{Path: ".data.bar"}, {Path: ".metadata.labels.tier"}}
	for _, c := range []struct {
		ch   model.ServerChange
		want string
	}{
		{model.ServerChange{FromRV: "1", ToRV: "3", Manager: "kubectl-label", Changes: changes},
			"changed on server: rv 1 -> 3 by kubectl-label: .data.bar, .metadata.labels.tier"},
		{model.ServerChange{FromRV: "1", ToRV: "3", Manager: "kubectl-label", Changes: changes, By: []string{"kubectl-patch", "kubectl-label"}},
			"changed on server: rv 1 -> 3: .data.bar by kubectl-patch, .metadata.labels.tier by kubectl-label"},
		{model.ServerChange{FromRV: "1", ToRV: "3", Manager: "kubectl-label", Changes: changes, Several: true},
			"changed on server: rv 1 -> 3 by several writers (t says who wrote what): .data.bar, .metadata.labels.tier"},
		{model.ServerChange{FromRV: "1", ToRV: "3", Changes: changes[:1], By: []string{""}},
			"changed on server: rv 1 -> 3: .data.bar by " + UnknownWriter},
	} {
		if got := string(BannerText(c.ch)); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.ch, got, c.want)
		}
	}
}
