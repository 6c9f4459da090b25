#!/bin/bash
# benchtext.sh times the diff3 text merge as whole processes, next to
# git merge-file on the same files, for BENCHMARKS.md:
#
#   diff/testdata/benchtext.sh            # from the repository root
#   ROUNDS=4 RUNS=25 diff/testdata/benchtext.sh
#   FILES=tiny diff/testdata/benchtext.sh   # one-line files: start-up cost
#
# It writes the benchmark texts (diff/testdata/gentext), builds the merge3
# harness (Merge3Text alone) and kedit, then runs hyperfine in rounds over
# all commands so that the load of a shared machine falls on each alike, and
# prints the median of all runs and the ratio to git merge-file.
set -euo pipefail
ROUNDS=${ROUNDS:-4}
RUNS=${RUNS:-25}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
go run ./diff/testdata/gentext -o "$work"
go build -o "$work/merge3" ./diff/testdata/merge3
# merge3-textonly is the same harness built from a copy of the line-level
# files alone, without the object-level merge whose Kubernetes dependencies
# add their init time to every binary that imports package diff.
mkdir -p "$work/textonly/diff/testdata/merge3"
cp go.mod go.sum "$work/textonly/"
cp diff/doc.go diff/hunk.go diff/side.go diff/text.go diff/text_render.go diff/textlines.go diff/xdiff.go \
	diff/linediff.go "$work/textonly/diff/"
cp diff/testdata/merge3/main.go "$work/textonly/diff/testdata/merge3/"
(cd "$work/textonly" && go build -o "$work/merge3-textonly" ./diff/testdata/merge3)
# FILES=tiny times one-line files instead: the cost of starting each process.
if [ "${FILES:-}" = tiny ]; then
	for f in mine base theirs; do echo a >"$work/$f.yaml"; done
fi
cmds=("git merge-file -p --diff3 -L mine -L base -L theirs mine.yaml base.yaml theirs.yaml"
	"$work/merge3-textonly mine.yaml base.yaml theirs.yaml"
	"$work/merge3 mine.yaml base.yaml theirs.yaml")
if go build -o "$work/kedit" . 2>/dev/null; then
	cmds+=("$work/kedit merge mine.yaml base.yaml theirs.yaml")
fi
cd "$work"
for r in $(seq "$ROUNDS"); do
	hyperfine -N -i --warmup 3 --runs "$RUNS" --export-json "round-$r.json" "${cmds[@]}" >/dev/null 2>&1
done
python3 - "$work" "${cmds[@]}" <<'PY'
import glob, json, statistics, sys
work, cmds = sys.argv[1], sys.argv[2:]
res = {}
for f in sorted(glob.glob(work + "/round-*.json")):
    for r in json.load(open(f))["results"]:
        d = res.setdefault(r["command"], {"t": [], "u": [], "s": []})
        d["t"] += r["times"]; d["u"].append(r["user"]); d["s"].append(r["system"])
git = statistics.median(res[cmds[0]]["t"])
for c in cmds:
    d = res[c]; m = statistics.median(d["t"])
    print("%7.1f ms median %6.1f ms min  user %5.1f ms sys %5.1f ms  ratio to git %.2f  n=%d  %s" % (
        m * 1e3, min(d["t"]) * 1e3, statistics.median(d["u"]) * 1e3, statistics.median(d["s"]) * 1e3,
        m / git, len(d["t"]), c.replace(work + "/", "")))
PY
