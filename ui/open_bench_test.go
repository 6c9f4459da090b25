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

// BenchmarkOpenEditor is i on the 1 MiB ConfigMap with no draft yet (issue
// 9's opening the editor on 1 MiB, through the app): the object's YAML
// rendered as the draft's text, the editor opened on it and drawn.
//
//	go test ./ui -run '^$' -bench OpenEditor -benchtime 20x
func BenchmarkOpenEditor(b *testing.B) {
	base := rebaseCases[0].base()
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		sess := model.NewSession(ref)
		if _, _, err := sess.Handle(model.Opened{Object: base.DeepCopy(), At: t0}); err != nil {
			b.Fatal(err)
		}
		var m tea.Model = New(Config{Session: sess, Runner: &fakeRunner{server: base}})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		_ = m.View()
		b.StartTimer()
		m, _ = m.Update(keyMsg("i"))
		_ = m.View()
		if m.(App).screen != screenEditor {
			b.Fatal("i did not open the editor")
		}
	}
}
