// Package benchkeys is what the keystroke benchmarks of the editor and of
// the app type, and how they report it, so that their figures compare.
package benchkeys

import (
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Typing is the i-th keystroke: letters, a space every 7th key and enter
// every 40th, as when a value is written into a config file.
func Typing(i int) tea.KeyMsg {
	switch {
	case i%40 == 39:
		return tea.KeyMsg{Type: tea.KeyEnter}
	case i%7 == 6:
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune('a' + i%26)}}
}

// ReportLatency reports the median, the p99 and the longest of the
// keystrokes' times d (it sorts d).
func ReportLatency(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(d[(len(d)*99+99)/100-1].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(d[len(d)-1].Nanoseconds()), "max-ns")
}
