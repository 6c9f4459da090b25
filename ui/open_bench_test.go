package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kedit/kedit/model"
)

// BenchmarkOpenFirstFrame is the app's share of opening the 1 MiB
// ConfigMap of BenchmarkRebase (the open row of BENCHMARKS.md, whose whole process is
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
		var m tea.Model = New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{server: base}}})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		_ = m.View()
	}
}

// BenchmarkOpenEditor is i on the 1 MiB ConfigMap with no draft yet (issue
// 9's opening the editor on 1 MiB, through the app): the editor opened on
// the object's YAML and drawn. The app renders that YAML in the background
// once the object is shown (the driver runs its commands as the program
// does); "cold" presses i before that render is back.
//
//	go test ./ui -run '^$' -bench OpenEditor -benchtime 20x
func BenchmarkOpenEditor(b *testing.B) {
	base := rebaseCases[0].base()
	for _, warm := range []bool{true, false} {
		name := map[bool]string{true: "warm", false: "cold"}[warm]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				sess := model.NewSession(ref)
				if _, _, err := sess.Handle(model.Opened{Object: base.DeepCopy(), At: t0}); err != nil {
					b.Fatal(err)
				}
				var m tea.Model = New(Config{Object: &Object{Session: sess, Runner: &fakeRunner{server: base}}})
				if warm {
					m = drive(b, m.(App), tea.WindowSizeMsg{Width: 160, Height: 50})
				} else {
					m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
				}
				_ = m.View()
				b.StartTimer()
				m, _ = m.Update(keyMsg("i"))
				_ = m.View()
				if m.(App).screen != screenEditor {
					b.Fatal("i did not open the editor")
				}
			}
		})
	}
}
