package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
)

// BenchmarkOpenFirstFrame is the app's share of opening the 1 MiB
// ConfigMap of BenchmarkRebase (issue 15's open row, whose whole process is
// in make bench): the session opened on the object, the app made and sized,
// and its first frame drawn.
//
//	go test ./ui -run '^$' -bench OpenFirstFrame -benchtime 20x
func BenchmarkOpenFirstFrame(b *testing.B) {
	base := rebaseCases[0].base()
	b.ReportAllocs()
	for range b.N {
		sess := model.NewSession(ref)
		if _, _, err := sess.Handle(model.Opened{Object: base.DeepCopy(), At: t0}); err != nil {
			b.Fatal(err)
		}
		var m tea.Model = New(Config{Session: sess, Runner: &fakeRunner{server: base}})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		_ = m.View()
	}
}
