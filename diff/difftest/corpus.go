// Package difftest makes random three-way merge inputs for the tests that
// compare kedit's merge with git merge-file, in diff and in the kedit
// command. It does no I/O.
package difftest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Corpus makes base texts and two edited sides, deterministically from
// its seed, with the shapes that make diff3 hard: repeated lines, blank
// lines, edits both sides share, overlapping and adjacent edits, missing
// final newlines, CRLF and lines that look like conflict markers.
type Corpus struct {
	r *rand.Rand
}

// NewCorpus returns a corpus generator seeded with the two seeds of a PCG.
func NewCorpus(seed1, seed2 uint64) *Corpus {
	return &Corpus{r: rand.New(rand.NewPCG(seed1, seed2))}
}

// Rand is the generator's source, for callers that draw more choices from
// the same seed (merge options, say).
func (g *Corpus) Rand() *rand.Rand { return g.r }

var (
	// Few distinct lines, so that many alignments cost the same.
	vocabSmall = []string{"a", "b", "c", "}", "", "{", "x"}
	// Shaped like YAML and code, with the usual repeated closers.
	vocabCode = []string{
		"}", "", "\t}", "\treturn nil", "if err != nil {", "\treturn err", "func f() {",
		"apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: app", "data:",
		"  key: value", "  - name: app", "    image: nginx", "    ports:", "    - containerPort: 80",
		"#", "---", "foo", "bar", "baz", "qux",
	}
	vocabMarkers = []string{"<<<<<<< x", "=======", ">>>>>>> y", "||||||| z", "<<<<<<<", "======="}
)

func (g *Corpus) line(vocab []string) string {
	if g.r.IntN(8) == 0 {
		return fmt.Sprintf("line %d", g.r.IntN(50))
	}
	if g.r.IntN(60) == 0 {
		return vocabMarkers[g.r.IntN(len(vocabMarkers))]
	}
	return vocab[g.r.IntN(len(vocab))]
}

func (g *Corpus) lines(vocab []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.line(vocab)
	}
	return out
}

// edit replaces del lines of base at pos with ins.
type edit struct {
	pos, del int
	ins      []string
}

func (g *Corpus) edit(vocab []string, n int) edit {
	pos := g.r.IntN(n + 1)
	e := edit{pos: pos}
	switch g.r.IntN(4) {
	case 0: // insert
		e.ins = g.lines(vocab, 1+g.r.IntN(4))
	case 1: // delete
		e.del = min(1+g.r.IntN(4), n-pos)
	default: // replace
		e.del = min(1+g.r.IntN(3), n-pos)
		e.ins = g.lines(vocab, 1+g.r.IntN(3))
	}
	return e
}

// apply applies the edits that do not overlap an earlier one.
func apply(base []string, edits []edit) []string {
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].pos < edits[b].pos })
	var out []string
	at := 0
	for _, e := range edits {
		if e.pos < at {
			continue
		}
		out = append(out, base[at:e.pos]...)
		out = append(out, e.ins...)
		at = e.pos + e.del
	}
	return append(out, base[at:]...)
}

// join writes lines with LF or CRLF ends, sometimes without the last one.
func (g *Corpus) join(lines []string, crlf bool) string {
	if len(lines) == 0 {
		return ""
	}
	eol := "\n"
	if crlf {
		eol = "\r\n"
	}
	s := strings.Join(lines, eol) + eol
	if g.r.IntN(5) == 0 {
		s = strings.TrimSuffix(s, eol)
	}
	return s
}

// Next makes a small case: up to 40 lines, up to 5 edits a side.
func (g *Corpus) Next() (mine, base, theirs string) {
	vocab := vocabSmall
	if g.r.IntN(2) == 0 {
		vocab = vocabCode
	}
	n := g.r.IntN(40)
	if g.r.IntN(10) == 0 {
		n = g.r.IntN(4)
	}
	return g.make(vocab, n, 5)
}

// Big makes long texts with many edits per side, so that the edit cost
// passes xdiff's thresholds (256) and its cut-off heuristics decide the
// alignment.
func (g *Corpus) Big() (mine, base, theirs string) {
	vocab := vocabSmall
	if g.r.IntN(2) == 0 {
		vocab = vocabCode
	}
	return g.make(vocab, 1000+g.r.IntN(3000), 100+g.r.IntN(400))
}

// Huge makes texts long enough (over 32k lines that have matches on the
// other side) that xdiff's cost limit rises above its heuristic trigger, so
// that its snake heuristic, not only the cost cut-off, picks splits.
func (g *Corpus) Huge() (mine, base, theirs string) {
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("v%d", i)
	}
	vocab = append(vocab, vocabCode...)
	return g.make(vocab, 34000+g.r.IntN(4000), 500+g.r.IntN(3000))
}

func (g *Corpus) make(vocab []string, n, maxEdits int) (mine, base, theirs string) {
	baseL := g.lines(vocab, n)

	// Edits both sides make (identical or overlapping changes), then each
	// side's own.
	shared := make([]edit, g.r.IntN(3))
	for i := range shared {
		shared[i] = g.edit(vocab, n)
	}
	side := func() []string {
		var es []edit
		for _, e := range shared {
			if g.r.IntN(3) > 0 {
				es = append(es, e)
			}
		}
		for k := g.r.IntN(maxEdits); k > 0; k-- {
			es = append(es, g.edit(vocab, n))
		}
		return apply(baseL, es)
	}
	mineL, theirsL := side(), side()

	crlf := g.r.IntN(8) == 0
	base = g.join(baseL, crlf)
	mine = g.join(mineL, crlf != (g.r.IntN(20) == 0))
	theirs = g.join(theirsL, crlf != (g.r.IntN(20) == 0))
	return mine, base, theirs
}
