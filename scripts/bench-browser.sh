#!/bin/bash
# bench-browser.sh measures the browser for BENCHMARKS.md, each
# row beside kubectl get on the same server in the same run:
#
#   scripts/bench-browser.sh                 # from anywhere; make bench runs it
#   ROUNDS=3 RUNS=10 scripts/bench-browser.sh
#
# It builds bin/kedit and bin/localcluster, starts a localcluster in a fresh
# temporary directory, creates 5,000 small ConfigMaps in namespace
# bench-5000 and 200 ConfigMaps of 1 MiB in bench-big (kubectl create of
# JSON Lists, several at once), and measures:
#
#   - process start to the first screen with rows, 5,000 ConfigMaps:
#     kedit --exit-after-first-frame against kubectl get cm (hyperfine -N, in
#     rounds over both commands so that the load of a shared machine falls on
#     each alike);
#   - one filter keystroke at 5,000 rows (go test -bench, no server);
#   - peak RSS of kedit and of kubectl get cm on the 200 ConfigMaps of 1 MiB
#     (GNU time -v, the largest of three runs);
#   - what kedit downloads for them, counted by a round-tripper
#     (BenchmarkBrowserMetadataOnly), and the requests of an idle browser
#     (TestBrowserDownloadsMetadataOnlyAndIdles), both against this cluster.
#
# The peer is the real kubectl binary, kubectl.1.33 beside what the kubectl
# on PATH resolves to (the Google Cloud SDK's dispatcher execs it), else the
# kubectl on PATH; the script says which.
set -euo pipefail
# Before anything else: every tool the rows run, or what is missing and how
# to get it.
. "$(cd "$(dirname "$0")" && pwd)/need.sh"
need_tools
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
lc_pid=
cleanup() {
	if [ -n "$lc_pid" ]; then
		kill "$lc_pid" 2>/dev/null || true
		wait "$lc_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
cd "$root"

kubectl=$(command -v kubectl)
if [ -x "$(readlink -f "$kubectl").1.33" ]; then
	kubectl=$(readlink -f "$kubectl").1.33
fi
echo "peer: $kubectl ($("$kubectl" version --client -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitVersion"])'))"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"

make -s build localcluster
bin/localcluster --dir "$work/lc" >"$work/lc.out" 2>"$work/lc.err" &
lc_pid=$!
for _ in $(seq 300); do
	grep -q '^ready ' "$work/lc.out" 2>/dev/null && break
	kill -0 "$lc_pid" 2>/dev/null || { cat "$work/lc.err" >&2; exit 1; }
	sleep 0.2
done
export KUBECONFIG=$work/lc/kubeconfig KUBECACHEDIR=$work/cache XDG_STATE_HOME=$work/state

# The objects: JSON Lists of 625 small and 25 large ConfigMaps, created
# four files at a time.
start=$(date +%s)
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def lists(ns, n, per, data):
    for f in range(0, n, per):
        items = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm-%05d" % i, "namespace": ns},
                  "data": {"data": data}} for i in range(f, min(n, f + per))]
        with open("%s/%s-%03d.json" % (work, ns, f // per), "w") as out:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, out)
lists("bench-5000", 5000, 625, "x" * 64)
lists("bench-big", 200, 25, "x" * ((1 << 20) - 1024))
PY
"$kubectl" create namespace bench-5000 >/dev/null
"$kubectl" create namespace bench-big >/dev/null
ls "$work"/bench-*.json | xargs -P 4 -n 1 "$kubectl" create -o name -f >/dev/null
rm -f "$work"/bench-*.json
echo "created 5,000 ConfigMaps in bench-5000 and 200 of 1 MiB in bench-big in $(($(date +%s) - start)) s"

# The first frame must show the rows, all of them.
bin/kedit -n bench-5000 --exit-after-first-frame cm >"$work/frame" </dev/null
grep -q '5000 objects' "$work/frame" || { echo "kedit's first frame does not show 5000 objects" >&2; exit 1; }
"$kubectl" -n bench-5000 get cm --no-headers | wc -l | grep -qx 5000

echo
echo "== process start to the first screen with rows, 5,000 ConfigMaps (hyperfine -N, $ROUNDS rounds x $RUNS runs)"
cmds=("$root/bin/kedit -n bench-5000 --exit-after-first-frame cm" "$kubectl -n bench-5000 get cm")
for r in $(seq "$ROUNDS"); do
	hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$work/round-$r.json" "${cmds[@]}" >/dev/null 2>&1
done
python3 - "$work" "${cmds[@]}" <<'PY'
import glob, json, statistics, sys
work, cmds = sys.argv[1], sys.argv[2:]
res = {}
for f in sorted(glob.glob(work + "/round-*.json")):
    for r in json.load(open(f))["results"]:
        d = res.setdefault(r["command"], {"t": [], "u": [], "s": []})
        d["t"] += r["times"]; d["u"].append(r["user"]); d["s"].append(r["system"])
peer = statistics.median(res[cmds[1]]["t"])
for c in cmds:
    d = res[c]; m = statistics.median(d["t"])
    print("%7.1f ms median %7.1f ms min  user %6.1f ms sys %5.1f ms  ratio to kubectl %.2f  n=%d  %s" % (
        m * 1e3, min(d["t"]) * 1e3, statistics.median(d["u"]) * 1e3, statistics.median(d["s"]) * 1e3,
        m / peer, len(d["t"]), c))
PY

echo
echo "== one filter keystroke at 5,000 rows (goal 5 ms)"
go test ./ui/browser -run '^$' -bench 'BrowserFilterKeystroke' -benchtime 2s -count 3 | grep '^Benchmark'

echo
echo "== peak RSS, 200 ConfigMaps of 1 MiB (goal 60 MiB; the largest of 3 runs)"
rss() {
	local max=0 kb
	for _ in 1 2 3; do
		kb=$("$GNU_TIME" -v "$@" </dev/null 2>&1 >/dev/null | awk '/Maximum resident set size/ {print $NF}')
		[ "$kb" -gt "$max" ] && max=$kb
	done
	echo "$max"
}
kedit_kb=$(rss bin/kedit -n bench-big --exit-after-first-frame cm)
kubectl_kb=$(rss "$kubectl" -n bench-big get cm)
awk -v k="$kedit_kb" 'BEGIN { printf "%6.1f MiB  kedit -n bench-big --exit-after-first-frame cm\n", k / 1024 }'
awk -v k="$kubectl_kb" -v c="$kubectl" 'BEGIN { printf "%6.1f MiB  %s -n bench-big get cm\n", k / 1024, c }'
# Open in the browser for a while, in a terminal: the peak (VmHWM) after
# the list, the completion's types and the draft marks were read, and its
# split between the binary's pages and the heap.
tmux -L "kedit-bench-$$" -f /dev/null new-session -d -s b -x 120 -y 40 \
	"env KUBECONFIG=$KUBECONFIG KUBECACHEDIR=$KUBECACHEDIR XDG_STATE_HOME=$XDG_STATE_HOME $root/bin/kedit -n bench-big cm"
sleep 5
pid=$(tmux -L "kedit-bench-$$" display -p -t b '#{pane_pid}')
# The pane runs a shell, then env: find kedit below it.
while [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm")" != kedit ]; do
	pid=$(pgrep -P "$pid" | head -1)
done
awk '/^(VmHWM|RssAnon|RssFile):/ {printf "%s %.1f MiB  ", $1, $2 / 1024} END {print " kedit -n bench-big cm, open 5 s in tmux"}' "/proc/$pid/status"
tmux -L "kedit-bench-$$" kill-server

echo
echo "== what kedit downloads for them (a round-tripper), and an idle browser's requests"
KEDIT_TEST_KUBECONFIG=$KUBECONFIG KEDIT_BENCH_NAMESPACE=bench-big \
	go test ./internal/cluster -run '^$' -bench 'BrowserMetadataOnly' -benchtime 3x | grep '^Benchmark'
KEDIT_TEST_KUBECONFIG=$KUBECONFIG go test ./internal/cluster -count=1 -run 'TestBrowserDownloadsMetadataOnlyAndIdles' -v |
	grep -E 'bytes downloaded|idle for|^(--- |ok|FAIL)'
