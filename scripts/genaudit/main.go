// Command genaudit makes a large audit log from a real one, for the
// benchmark of `kedit history`: the seed's lines about other objects are
// copied again and again, each copy in namespaces of its own (NS becomes
// NS-cN), until the log has the size asked for; the target object's own
// lines appear once each, spread evenly through it. Each copy's requests
// are requests of their own, as a log engine would store them: their
// auditIDs and the objects' uids end in the copy's number, and their times go back by up to -span over
// the copies (the log covers a day by default).
//
//	go run ./scripts/genaudit -seed audit.log -namespace bench -target bench-target -size 1073741824 -o big.log
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/kedit/kedit/internal/words"
)

func main() {
	seed := flag.String("seed", "", "a real audit log (JSON lines)")
	ns := flag.String("namespace", "", "the namespace the seed's objects are in; copies rename it")
	target := flag.String("target", "", "the target object's name: its lines are not copied")
	size := flag.Int64("size", 1<<30, "the size of the log to write, in bytes")
	out := flag.String("o", "", "the log to write")
	span := flag.Duration("span", 24*time.Hour, "the time the copies' requests spread over")
	flag.Parse()
	if err := run(*seed, *ns, *target, *size, *span, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genaudit:", err)
		os.Exit(1)
	}
}

func run(seed, ns, target string, size int64, span time.Duration, out string) error {
	data, err := os.ReadFile(seed)
	if err != nil {
		return err
	}
	var pool, own [][]byte
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if bytes.Contains(l, []byte(target)) {
			own = append(own, l)
		} else {
			pool = append(pool, l)
		}
	}
	if len(pool) == 0 || len(own) == 0 {
		return fmt.Errorf("the seed has %s of other objects and %d of %s: both are needed", words.Count(len(pool), "line"), len(own), target)
	}
	poolBytes := int64(len(data))
	copies := size/poolBytes + 1
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	next := 0 // the next line of the target to place
	from := []byte(`"` + ns + `"`)
	fromPath := []byte("/namespaces/" + ns + "/")
	for c := int64(0); written < size; c++ {
		// The target's lines, one after each equal share of the copies.
		for next < len(own) && c >= int64(next)*copies/int64(len(own)) {
			n, _ := w.Write(append(own[next], '\n'))
			written += int64(n)
			next++
		}
		to := []byte(fmt.Sprintf(`"%s-c%d"`, ns, c))
		toPath := []byte(fmt.Sprintf("/namespaces/%s-c%d/", ns, c))
		for _, l := range pool {
			if c > 0 {
				l = bytes.ReplaceAll(bytes.ReplaceAll(l, from, to), fromPath, toPath)
				l = another(l, c, time.Duration(c)*span/time.Duration(copies))
			}
			n, _ := w.Write(append(l, '\n'))
			written += int64(n)
		}
	}
	for ; next < len(own); next++ {
		w.Write(append(own[next], '\n'))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// The fields that make a copy's request another request.
var (
	ids   = [][]byte{[]byte(`"auditID":"`), []byte(`"uid":"`)}
	times = [][]byte{[]byte(`"requestReceivedTimestamp":"`), []byte(`"stageTimestamp":"`)}
)

// another is line l as the request of copy c: its auditID and uids ending
// in c, its times earlier by shift.
func another(l []byte, c int64, shift time.Duration) []byte {
	tail := []byte(fmt.Sprintf("%08x", c))
	for _, k := range ids {
		for rest := l; ; {
			i := bytes.Index(rest, k)
			if i < 0 {
				break
			}
			rest = rest[i+len(k):]
			if len(rest) >= 37 && rest[36] == '"' {
				copy(rest[28:36], tail)
			}
		}
	}
	for _, k := range times {
		i := bytes.Index(l, k)
		if i < 0 {
			continue
		}
		v := l[i+len(k):]
		end := bytes.IndexByte(v, '"')
		if end < 0 {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, string(v[:end]))
		if err != nil {
			continue
		}
		if s := t.Add(-shift).UTC().Format("2006-01-02T15:04:05.000000Z"); len(s) == end {
			copy(v[:end], s)
		}
	}
	return l
}
