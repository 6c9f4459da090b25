// Package textgen makes the deterministic YAML texts that the diff
// benchmarks merge: a long base and two sides with scattered edits, a few of
// them on the same lines. It does no I/O; testdata/gentext writes its output
// to files for measuring whole processes (kedit merge, git merge-file).
package textgen

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// YAML returns a multi-document YAML text of about lines lines (Deployments
// and ConfigMaps, about 52 bytes a line), the same for the same seed.
func YAML(seed uint64, lines int) string {
	r := rand.New(rand.NewPCG(seed, 0x6b65646974))
	var b strings.Builder
	b.Grow(lines * 56)
	n := 0
	for doc := 0; n < lines; doc++ {
		var ls []string
		if doc%2 == 1 {
			ls = configMap(r, doc)
		} else {
			ls = deployment(r, doc)
		}
		for _, l := range ls {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		n += len(ls)
	}
	return b.String()
}

func deployment(r *rand.Rand, doc int) []string {
	ls := []string{
		"---",
		"apiVersion: apps/v1",
		"kind: Deployment",
		"metadata:",
		fmt.Sprintf("  name: service-%04d-backend-deployment", doc),
		"  namespace: production-workloads-eu-west",
		"  labels:",
		fmt.Sprintf("    app.kubernetes.io/name: service-%04d", doc),
		"    app.kubernetes.io/part-of: kedit-benchmark-platform",
		"  annotations:",
		fmt.Sprintf("    deployment.kubernetes.io/revision-history: \"rev-%08x-%08x-%08x\"", r.Uint32(), r.Uint32(), r.Uint32()),
		fmt.Sprintf("    kedit.example.com/owner-team-contact: \"team-%03d@platform.example.com\"", r.IntN(500)),
		"spec:",
		fmt.Sprintf("  replicas: %d", 1+r.IntN(9)),
		"  template:",
		"    spec:",
		"      containers:",
	}
	for c := 0; c < 2+r.IntN(4); c++ {
		ls = append(ls,
			fmt.Sprintf("      - name: container-%04d-%d-application", doc, c),
			fmt.Sprintf("        image: registry.example.com/team/app-%04d:v1.%d.%d", doc, r.IntN(20), r.IntN(50)),
			"        imagePullPolicy: IfNotPresent # pinned by the platform release policy",
			fmt.Sprintf("        args: [\"--config=/etc/app/config-%04d.yaml\", \"--log-level=info\", \"--metrics-port=%d\"]", doc, 9000+r.IntN(1000)),
			"        resources:",
			"          limits:",
			fmt.Sprintf("            cpu: %dm", 100*(1+r.IntN(20))),
			fmt.Sprintf("            memory: %dMi", 64*(1+r.IntN(32))),
			"        env:",
			fmt.Sprintf("        - name: FEATURE_FLAG_%04d_%d_ENABLED_FOR_ALL_USERS", doc, c),
			fmt.Sprintf("          value: \"%t\"", r.IntN(2) == 0),
		)
	}
	return ls
}

func configMap(r *rand.Rand, doc int) []string {
	ls := []string{
		"---",
		"apiVersion: v1",
		"kind: ConfigMap",
		"metadata:",
		fmt.Sprintf("  name: settings-%04d-application-configuration", doc),
		"data:",
		"  app.properties: |",
	}
	for k := 0; k < 10+r.IntN(20); k++ {
		ls = append(ls, fmt.Sprintf("    setting.group%02d.key%03d = value-%08x-%08x-%04x-and-some-longer-padding-text-to-reach-a-realistic-width-of-text", k%7, k, r.Uint32(), r.Uint32(), r.IntN(65536)))
	}
	return ls
}

// edit replaces del lines at pos with ins.
type edit struct {
	pos, del int
	ins      []string
}

// Sides returns mine and theirs made from base by edits edits each, of
// which overlap edit the same lines differently on both sides (conflicts)
// and about overlap/2 more make the same change on both sides.
func Sides(seed uint64, base string, edits, overlap int) (mine, theirs string) {
	r := rand.New(rand.NewPCG(seed, 0x7468656972))
	lines := strings.SplitAfter(base, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	n := len(lines)
	if n == 0 {
		return base, base
	}
	// Spread the edit sites over the text, one per slot, so that edits of a
	// side never overlap each other.
	slots := 2*edits + overlap
	slot := max(n/max(slots, 1), 4)
	site := func(k int) int { return min(k*slot+r.IntN(slot-3), n-3) }
	mk := func(pos int, tag string) edit {
		switch r.IntN(4) {
		case 0:
			return edit{pos: pos, ins: []string{fmt.Sprintf("    # inserted by %s %d\n", tag, r.IntN(1000))}}
		case 1:
			return edit{pos: pos, del: 1 + r.IntN(2)}
		default:
			l := strings.TrimSuffix(lines[pos], "\n")
			return edit{pos: pos, del: 1, ins: []string{fmt.Sprintf("%s # %s-%d\n", l, tag, r.IntN(1000))}}
		}
	}
	var em, et []edit
	k := 0
	for i := 0; i < overlap; i++ { // same lines, different changes
		p := site(k)
		k++
		em = append(em, edit{pos: p, del: 1, ins: []string{"    # mine " + lines[p]}})
		et = append(et, edit{pos: p, del: 1, ins: []string{"    # theirs " + lines[p]}})
	}
	for i := 0; i < overlap/2; i++ { // the same change on both sides
		e := mk(site(k), "both")
		k++
		em, et = append(em, e), append(et, e)
	}
	for len(em) < edits {
		em = append(em, mk(site(k), "mine"))
		k++
	}
	for len(et) < edits {
		et = append(et, mk(site(k), "theirs"))
		k++
	}
	return apply(lines, em), apply(lines, et)
}

func apply(lines []string, edits []edit) string {
	sort.Slice(edits, func(a, b int) bool { return edits[a].pos < edits[b].pos })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.pos < at {
			continue
		}
		for _, l := range lines[at:e.pos] {
			b.WriteString(l)
		}
		for _, l := range e.ins {
			b.WriteString(l)
		}
		at = min(e.pos+e.del, len(lines))
	}
	for _, l := range lines[at:] {
		b.WriteString(l)
	}
	return b.String()
}
