#!/bin/bash
# bench.sh runs every benchmark of BENCHMARKS.md (and the browser's, through
# bench-browser.sh, and the set's), each beside its peer in the same run, and prints one
# table with a ✔ or ✘ per goal. make bench runs it; it takes under ten
# minutes on a 2-CPU machine.
#
#   scripts/bench.sh                  # from anywhere
#   ROUNDS=2 RUNS=10 scripts/bench.sh # hyperfine rounds x runs per row (1 x 15)
#   NO_BROWSER=1 scripts/bench.sh     # without the browser's rows
#   NO_HISTORY=1 scripts/bench.sh     # without kedit history on a 1 GiB audit log
#   NO_ENGINE=1 scripts/bench.sh      # without kedit history from VictoriaLogs
#
# It builds bin/kedit and bin/localcluster and starts a localcluster of its
# own in a fresh directory, which the go test rows use too
# (KEDIT_TEST_KUBECONFIG). The peer kubectl is the real binary
# (kubectl.1.33 beside what the kubectl on PATH resolves to, which is a
# dispatcher here); the script says which. The commands of every row are in
# BENCHMARKS.md.
set -euo pipefail
# Before anything else: every tool the rows run, or what is missing and how
# to get it.
. "$(cd "$(dirname "$0")" && pwd)/need.sh"
need_tools
ROUNDS=${ROUNDS:-1}
RUNS=${RUNS:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
lc_pid=
sock="kedit-bench-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	[ -n "${proxy_pid:-}" ] && kill "$proxy_pid" 2>/dev/null
	if [ -n "$lc_pid" ]; then
		kill "$lc_pid" 2>/dev/null || true
		wait "$lc_pid" 2>/dev/null || true
	fi
	# The kedits in tmux store their drafts on the hang-up: retry until
	# they are gone.
	for _ in $(seq 50); do
		rm -rf "$work" 2>/dev/null && break
		sleep 0.2
	done
}
trap cleanup EXIT
cd "$root"
began=$(date +%s)

kubectl=$(command -v kubectl)
if [ -x "$(readlink -f "$kubectl").1.33" ]; then
	kubectl=$(readlink -f "$kubectl").1.33
fi
echo "peer: $kubectl; git $(git --version | cut -d' ' -f3)"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"

rows=$work/rows.tsv
: >"$rows"
# row STEP MEASURE FIGURE PEER GOAL OK: one line of the table.
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$rows"; echo "  -> $1: $3 (peer $4; goal $5) $6"; }
ok() { if python3 -c "import sys; sys.exit(0 if ($1) else 1)"; then echo ✔; else echo ✘; fi; }

# rounds CMD... runs hyperfine ROUNDS times over the commands and prints,
# per command, its median in ms (one line each, in order).
rounds() {
	local r
	for r in $(seq "$ROUNDS"); do
		hyperfine -N -i --warmup 3 --runs "$RUNS" --export-json "$work/h-$r.json" "$@" >/dev/null 2>&1
	done
	python3 - "$work" "$@" <<'PY'
import glob, json, statistics, sys
work, cmds = sys.argv[1], sys.argv[2:]
res = {}
for f in sorted(glob.glob(work + "/h-*.json")):
    for r in json.load(open(f))["results"]:
        res.setdefault(r["command"], []).extend(r["times"])
for c in cmds:
    print("%.1f" % (statistics.median(res[c]) * 1e3))
PY
	rm -f "$work"/h-*.json
}

# metric OUTPUT NAME UNIT prints the value of a benchmark's metric.
metric() { awk -v n="$2" -v u="$3" '$1 ~ n { for (i = 2; i < NF; i++) if ($(i+1) == u) { print $i; exit } }' "$1"; }

make -s build localcluster
bin/localcluster --dir "$work/lc" >"$work/lc.out" 2>"$work/lc.err" &
lc_pid=$!
for _ in $(seq 300); do
	grep -q '^ready ' "$work/lc.out" 2>/dev/null && break
	kill -0 "$lc_pid" 2>/dev/null || { cat "$work/lc.err" >&2; exit 1; }
	sleep 0.2
done
export KUBECONFIG=$work/lc/kubeconfig KUBECACHEDIR=$work/cache XDG_STATE_HOME=$work/state
export KEDIT_TEST_KUBECONFIG=$KUBECONFIG
mkdir -p "$work/run" && export XDG_RUNTIME_DIR=$work/run
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
big = "".join("option%05d = value %d of the configuration file, long enough to be typical\n" % (i, i) for i in range(13000))
big = big[: (1 << 20) - 200]
json.dump({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "bench-big", "namespace": "default"},
           "data": {"app.conf": big, "n": "0"}}, open(work + "/big.json", "w"))
PY
"$kubectl" create -f "$work/big.json" >/dev/null
"$kubectl" create configmap bench-small --from-literal=foo=1 >/dev/null
"$kubectl" create configmap bench-idle --from-literal=foo=1 >/dev/null
# editor LINE TEXT writes an $EDITOR that sets foo to mine and the config's
# line LINE to TEXT, and prints its path.
editor() {
	local e=$work/editor-$1-$2.sh
	printf '#!/bin/sh\nsed -i -e "s/foo: \\"1\\"/foo: mine/" -e "s/^    option%05d = .*/    option%05d = %s/" "$1"\n' "$1" "$1" "$2" >"$e"
	chmod +x "$e"
	echo "$e"
}
editor=$(editor 100 mine)

# The idle row runs beside the others: kedit on bench-idle with a draft,
# every request in its --debug log, for 60 s from the draft on.
tmux -L "$sock" -f /dev/null new-session -d -s idle -x 120 -y 40 \
	"env KUBE_EDITOR=$editor $root/bin/kedit --debug=$work/idle.log cm/bench-idle"
waitpane() { # waitpane SESSION TEXT: poll the pane until it shows TEXT
	local i
	for i in $(seq 600); do
		tmux -L "$sock" capture-pane -p -t "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
	done
	echo "the pane $1 never showed $2:" >&2
	tmux -L "$sock" capture-pane -p -t "$1" >&2
	exit 1
}
waitpane idle "apiVersion: "
tmux -L "$sock" send-keys -t idle e
waitpane idle "unsaved draft"
# The draft the schema passes is then the server's to check, once: its
# dry run comes before the idle span.
for _ in $(seq 100); do
	grep -q 'dryRun=All' "$work/idle.log" 2>/dev/null && break
	sleep 0.1
done
idle_from=$(grep -c ' request ' "$work/idle.log" || true)
idle_start=$(date +%s)

echo
echo "== open: kedit TYPE/NAME to its first frame, beside kubectl get -o yaml"
kedit_ms=$(rounds "bin/kedit --exit-after-first-frame cm/bench-small" "$kubectl get cm bench-small -o yaml" | tr '\n' ' ')
read -r k p <<<"$kedit_ms"
row open "kedit cm/NAME to its first frame" "$k ms" "$p ms" "≤ 1.0×" "$(ok "$k <= $p")"
kedit_ms=$(rounds "bin/kedit --exit-after-first-frame cm/bench-big" "$kubectl get cm bench-big -o yaml" | tr '\n' ' ')
read -r k p <<<"$kedit_ms"
row open "the same, the 1 MiB ConfigMap" "$k ms" "$p ms" "≤ 1.0×" "$(ok "$k <= $p")"

echo
echo "== start-up requests (discovery cached), beside kubectl get"
bin/kedit --debug="$work/start.log" --exit-after-first-frame cm/bench-small </dev/null >/dev/null
n_kedit=$(grep -c ' request ' "$work/start.log")
n_kubectl=$("$kubectl" get cm bench-small -o yaml -v=6 2>&1 >/dev/null | grep -cE '"(GET|POST|PUT|PATCH)" |(GET|PUT|PATCH) https' || true)
row "start-up requests" "requests to the first frame" "$n_kedit (the GET and the watch)" "$n_kubectl" "fewest: GET + watch" "$(ok "$n_kedit <= 2")"

echo
echo "== a set: kedit cm -l, 200 ConfigMaps of 100 KiB, to its first frame, beside kubectl get -l -o yaml"
python3 - "$work" <<'PY'
import json, sys
val = "x" * (100 * 1024 - 300)
items = [{"apiVersion": "v1", "kind": "ConfigMap", "data": {"big": val},
          "metadata": {"name": "bench-set-%03d" % i, "namespace": "default", "labels": {"bench": "set"}}} for i in range(200)]
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(sys.argv[1] + "/set.json", "w"))
PY
"$kubectl" create -f "$work/set.json" >/dev/null
kedit_ms=$(rounds "bin/kedit --exit-after-first-frame cm -l bench=set" "$kubectl get cm -l bench=set -o yaml" | tr '\n' ' ')
read -r k p <<<"$kedit_ms"
row "open a set" "kedit cm -l, 200 ConfigMaps of 100 KiB, to its first frame" "$k ms" "$p ms (kubectl get -l -o yaml)" "≤ 1.0×" "$(ok "$k <= $p")"
"$GNU_TIME" -v -o "$work/set-kedit.time" bin/kedit --exit-after-first-frame cm -l bench=set </dev/null >/dev/null
"$GNU_TIME" -v -o "$work/set-kubectl.time" "$kubectl" get cm -l bench=set -o yaml >/dev/null
k=$(awk '/Maximum resident set size/ {print $NF}' "$work/set-kedit.time")
p=$(awk '/Maximum resident set size/ {print $NF}' "$work/set-kubectl.time")
row "set memory" "peak RSS to the first frame, the same 200 (20 MiB)" "$((k / 1024)) MiB" "$((p / 1024)) MiB (kubectl get -l -o yaml)" "≤ kubectl" "$(ok "$k <= $p")"
# Every object watched: "connected" comes once the set's one watch of the
# selector has listed them all; its events then reach the sessions. The
# peak is read once it has not grown for 2 s, from GNU time as kedit quits.
tmux -L "$sock" new-session -d -s set -x 160 -y 50 "$GNU_TIME -v -o $work/set-watched.time $root/bin/kedit cm -l bench=set; sleep 600"
waitpane set "200 objects  connected"
pid=$(tmux -L "$sock" display -p -t set '#{pane_pid}')
while [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm")" != kedit ]; do pid=$(pgrep -P "$pid" | head -1); done
last=0 same=0
while [ "$same" -lt 4 ]; do
	hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
	if [ "$hwm" = "$last" ]; then same=$((same + 1)); else same=0 last=$hwm; fi
	sleep 0.5
done
tmux -L "$sock" send-keys -t set q
for _ in $(seq 100); do [ -s "$work/set-watched.time" ] && break; sleep 0.1; done
k=$(awk '/Maximum resident set size/ {print $NF}' "$work/set-watched.time")
row "set memory, watched" "peak RSS, all 200 watched" "$((k / 1024)) MiB" "$((p / 1024)) MiB (kubectl get -l -o yaml)" "≤ kubectl" "$(ok "$k <= $p")"
tmux -L "$sock" kill-session -t set

echo
echo "== merge, whole process, beside git merge-file"
for lines in 20000 200000; do
	mkdir -p "$work/m$lines"
	go run ./diff/testdata/gentext -o "$work/m$lines" -lines "$lines"
	(
		cd "$work/m$lines"
		rounds "$root/bin/kedit merge mine.yaml base.yaml theirs.yaml" \
			"git merge-file -p --diff3 -L mine -L base -L theirs mine.yaml base.yaml theirs.yaml"
	) >"$work/m.out"
	read -r k p < <(tr '\n' ' ' <"$work/m.out"; echo)
	size=$(du -m "$work/m$lines/base.yaml" | cut -f1)
	row "merge" "kedit merge, $lines lines (${size} MiB), 50 edits a side" "$k ms" "$p ms" "≤ 1.0×" "$(ok "$k <= $p")"
done
(
	cd testdata/merge/deployment-image-and-container
	rounds "$root/bin/kedit merge mine.yaml base.yaml theirs.yaml" "git merge-file -p --diff3 mine.yaml base.yaml theirs.yaml"
) >"$work/m.out"
read -r k p < <(tr '\n' ' ' <"$work/m.out"; echo)
row "merge, first object" "kedit merge on a Deployment" "$k ms" "$p ms" "≤ 2× git" "$(ok "$k <= 2 * $p")"

echo
echo "== keystroke in the in-app editor on 1 MiB, beside bubbles' textarea"
go test ./ui -run '^$' -bench 'AppKeystroke/^1MiB$' -benchtime 2000x | tee "$work/ks.out" | grep '^Bench'
go test ./ui/textedit -run '^$' -bench 'BenchmarkKeystroke$/^textarea/cap' -benchtime 100x | tee "$work/ta.out" | grep '^Bench'
k=$(metric "$work/ks.out" AppKeystroke p99-ns)
p=$(metric "$work/ta.out" textarea p99-ns)
row keystroke "p99, App.Update+View, 1 MiB, the server's checks on" "$(python3 -c "print('%.2f ms' % ($k/1e6))")" \
	"$(python3 -c "print('%.1f ms (textarea, its first 10,000 lines)' % ($p/1e6))")" "≤ 16 ms" "$(ok "$k <= 16e6")"

echo
echo "== keystroke with diagnostics (App.Update+View), and the schema's check off the UI's goroutine"
go test ./ui -run '^$' -bench 'AppKeystrokeDiagnostics' -benchtime 2000x | tee "$work/kd.out" | grep '^Bench'
LOCALCLUSTER_BIN="$root/bin/localcluster" go test ./kube/schemacheck -run '^$' -bench 'Check(Deployment20|Large)' -benchtime 20x | tee "$work/check.out" | grep '^Bench'
for c in "AppKeystrokeDiagnostics/keystroke 20-container Deployment, 20 lines refused" \
	"DiagnosticsLarge/CRD1000/keystroke custom resource, 1,000 list items, each refused" \
	"DiagnosticsLarge/ConfigMap1MiB/keystroke 1 MiB ConfigMap, 1 field refused"; do
	read -r name what <<<"$c"
	k50=$(metric "$work/kd.out" "$name" p50-ns)
	k99=$(metric "$work/kd.out" "$name" p99-ns)
	row "keystroke with diagnostics" "$what, the server's checks on, p99 (p50)" "$(python3 -c "print('%.2f ms (%.2f)' % ($k99/1e6, $k50/1e6))")" none "≤ 16 ms" "$(ok "$k99 <= 16e6")"
done
for c in "CheckDeployment20/typos 20-container Deployment, 20 fields refused" \
	"CheckLarge/CRD1000/refused custom resource, 1,000 list items, each refused" \
	"CheckLarge/ConfigMap1MiB/refused 1 MiB ConfigMap, 1 field refused"; do
	read -r name what <<<"$c"
	k50=$(metric "$work/check.out" "$name" p50-ns)
	k99=$(metric "$work/check.out" "$name" p99-ns)
	row "schema check" "$what, off the UI's goroutine, p50 (p99)" "$(python3 -c "print('%.1f ms (%.0f)' % ($k50/1e6, $k99/1e6))")" none "within the pause, ≤ 300 ms" "$(ok "$k50 <= 300e6")"
done

echo
echo "== the server's checks as you type: dry runs per 100 keystrokes, from the request log, through the real binary"
go test ./e2e -run '^$' -bench DryRunsPer100Keys -benchtime 1x | tee "$work/dryruns.out" | grep '^Bench'
s=$(metric "$work/dryruns.out" 'DryRunsPer100Keys/steady' dryruns/100keys)
p=$(metric "$work/dryruns.out" 'DryRunsPer100Keys/pauses' dryruns/100keys)
row "dry runs as you type" "per 100 keystrokes: a key every 150 ms / a 1 s pause after each of 10 words" "$(python3 -c "print('%d / %d' % ($s, $p))")" \
	"none (kubectl edit asks the server at the save)" "one per pause: ≤ 1 / ≤ 10" "$(ok "0 < $s <= 1 and 0 < $p <= 10")"

echo
echo "== live change: kubectl patch returning to the banner drawn, beside kubectl get -w"
go test ./e2e -run '^$' -bench LiveChange -benchtime 100x | tee "$work/live.out" | grep '^Bench'
k50=$(metric "$work/live.out" 'LiveChange/kedit' p50-ms)
k99=$(metric "$work/live.out" 'LiveChange/kedit' p99-ms)
p50=$(metric "$work/live.out" 'kubectl-get-w' p50-ms)
p99=$(metric "$work/live.out" 'kubectl-get-w' p99-ms)
row "live change" "p50 / p99" "$k50 / $k99 ms" "$p50 / $p99 ms" "p50 ≤ 20, p99 ≤ 100 ms" "$(ok "$k50 <= 20 and $k99 <= 100")"

echo
echo "== rebase: from the 409 to the conflict view drawn"
go test ./ui -run '^$' -bench Rebase -benchtime 20x | tee "$work/rebase.out" | grep '^Bench'
for c in ConfigMap1MiB Deployment20; do
	k=$(metric "$work/rebase.out" "Rebase/$c" p50-ns)
	k99=$(metric "$work/rebase.out" "Rebase/$c" p99-ns)
	row rebase "$c, p50 (p99)" "$(python3 -c "print('%.1f ms (%.1f)' % ($k/1e6, $k99/1e6))")" none "≤ 50 ms" "$(ok "$k <= 50e6")"
done

echo
echo "== source: an object's source found by search, and an edit planned and verified, in a repository of 500 kustomizations"
go test ./source -run '^$' -bench 'SourceIn500Kustomizations' -benchtime 5x | tee "$work/source.out" | grep '^Bench'
for c in find/namespaces find/name-prefixes plan/namespaces plan/name-prefixes; do
	k=$(metric "$work/source.out" "SourceIn500Kustomizations/$c" ns/op)
	m=$(metric "$work/source.out" "SourceIn500Kustomizations/$c" B/op)
	row source "$c, 500 kustomizations (allocated)" "$(python3 -c "print('%.0f ms (%.0f MB)' % ($k/1e6, $m/1e6))")" none "≤ 1 s" "$(ok "$k <= 1e9")"
done

echo
echo "== clean rebase cost: requests beyond the refused save, through the real binary"
if go test ./e2e -count=1 -run 'TestE2ECleanRebaseCostsOneRequest$' >"$work/cost.out" 2>&1; then
	row "clean rebase cost" "extra requests per clean rebase" "1 (the resubmit)" "kubectl edit: 0 and a lost update" "exactly 1" ✔
else
	cat "$work/cost.out"
	row "clean rebase cost" "extra requests per clean rebase" "see the test's output" "kubectl edit: 0" "exactly 1" ✘
fi

echo
echo "== memory, editing the 1 MiB ConfigMap through one conflict, beside kubectl edit"
tmux -L "$sock" new-session -d -s edit -x 160 -y 50 \
	"env KUBE_EDITOR=$editor $GNU_TIME -v -o $work/edit.time $root/bin/kedit cm/bench-big; sleep 600"
waitpane edit "apiVersion: "
tmux -L "$sock" send-keys -t edit e
waitpane edit "unsaved draft"
"$kubectl" get cm bench-big -o json | python3 -c '
import json, sys
o = json.load(sys.stdin)
o["data"]["app.conf"] = o["data"]["app.conf"].replace("option00100 = value 100 ", "option00100 = theirs ", 1)
json.dump(o, open(sys.argv[1], "w"))' "$work/theirs.json"
"$kubectl" replace -f "$work/theirs.json" >/dev/null
waitpane edit "changed on server"
tmux -L "$sock" send-keys -t edit s
waitpane edit "1 conflict"
tmux -L "$sock" send-keys -t edit m
sleep 0.3
tmux -L "$sock" send-keys -t edit s
waitpane edit "saved rv"
tmux -L "$sock" send-keys -t edit q
for _ in $(seq 100); do [ -s "$work/edit.time" ] && break; sleep 0.1; done
k=$(awk '/Maximum resident set size/ {print $NF}' "$work/edit.time")
KUBE_EDITOR=$(editor 200 kubectl) "$GNU_TIME" -v -o "$work/kedit.time" "$kubectl" edit cm/bench-big >/dev/null 2>&1 || true
p=$(awk '/Maximum resident set size/ {print $NF}' "$work/kedit.time")
row "memory, editing" "peak RSS, 1 MiB ConfigMap, one conflict" "$((k / 1024)) MiB" "$((p / 1024)) MiB (kubectl edit)" "≤ 80 MiB and ≤ kubectl edit" "$(ok "$k <= 80 * 1024 and $k <= $p")"

echo
echo "== memory, a long session: RSS after 500 live changes of the 1 MiB ConfigMap"
tmux -L "$sock" new-session -d -s long -x 160 -y 50 "env KUBE_EDITOR=$(editor 300 mine) $root/bin/kedit cm/bench-big; sleep 600"
waitpane long "apiVersion: "
tmux -L "$sock" send-keys -t long e
waitpane long "unsaved draft"
"$kubectl" proxy --port=0 >"$work/proxy.out" 2>&1 &
proxy_pid=$!
for _ in $(seq 100); do grep -q 'Starting to serve' "$work/proxy.out" && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$work/proxy.out" | head -1)
python3 - "$port" <<'PY'
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
for i in range(1, 501):
    c.request("PATCH", "/api/v1/namespaces/default/configmaps/bench-big", json.dumps({"data": {"n": str(i)}}),
              {"Content-Type": "application/merge-patch+json"})
    r = c.getresponse(); r.read()
    assert r.status == 200, r.status
PY
pid=$(tmux -L "$sock" display -p -t long '#{pane_pid}')
while [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm")" != kedit ]; do pid=$(pgrep -P "$pid" | head -1); done
last=$("$kubectl" get cm bench-big -o jsonpath='{.metadata.resourceVersion}')
waitpane long "-> $last by"
k=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
row "memory, long session" "RSS after 500 live changes" "$((k / 1024)) MiB" none "≤ 150 MiB" "$(ok "$k <= 150 * 1024")"

echo
echo "== idle with a draft open: requests over 60 s beyond the one watch"
while [ $(($(date +%s) - idle_start)) -lt 60 ]; do sleep 1; done
n=$(($(grep -c ' request ' "$work/idle.log" || true) - idle_from))
row idle "requests over 60 s, a draft open" "$n" none "0" "$(ok "$n == 0")"

if [ -z "${NO_BROWSER:-}" ]; then
	echo
	echo "== the browser (scripts/bench-browser.sh, a cluster of its own)"
	kill "$lc_pid" 2>/dev/null || true
	wait "$lc_pid" 2>/dev/null || true
	lc_pid=
	unset KEDIT_TEST_KUBECONFIG
	ROUNDS=$ROUNDS RUNS=$RUNS scripts/bench-browser.sh | tee "$work/browser.out"
	read -r k p < <(grep 'ratio to kubectl' "$work/browser.out" | awk '{print $1}' | tr '\n' ' '; echo)
	row "open the browser" "5,000 ConfigMaps to the first screen with rows" "$k ms" "$p ms (kubectl get cm)" "≤ 1.0×" "$(ok "$k <= $p")"
	f=$(awk '/BrowserFilterKeystroke/ {print $3; exit}' "$work/browser.out")
	row "browser filter" "one keystroke at 5,000 rows" "$(python3 -c "print('%.2f ms' % ($f/1e6))")" none "≤ 5 ms" "$(ok "$f <= 5e6")"
	r=$(awk '/--exit-after-first-frame cm$/ && /MiB/ {print $1; exit}' "$work/browser.out")
	row "browser memory" "peak RSS, 200 ConfigMaps of 1 MiB" "$r MiB" "$(awk '/get cm$/ && /MiB/ {print $1; exit}' "$work/browser.out") MiB (kubectl get cm)" "≤ 60 MiB" "$(ok "$r <= 60")"
fi

if [ -z "${NO_HISTORY:-}" ]; then
	echo
	echo "== kedit history on a 1 GiB audit log (scripts/bench-history.sh, a cluster of its own)"
	scripts/bench-history.sh | tee "$work/history.out"
	read -r k p < <(awk '/^history plain/ {print $3, $6}' "$work/history.out")
	row "history, plain log" "kedit history on a 1 GiB audit log" "$k s" "$p s (grep -c NAME)" "≤ 2×" "$(ok "$k <= 2 * $p")"
	read -r k p < <(awk '/^history gzip/ {print $3, $6}' "$work/history.out")
	row "history, gzip log" "the same log gzip" "$k s" "$p s (zcat | wc -l)" "≤ 2×" "$(ok "$k <= 2 * $p")"
	read -r mp mg < <(awk '/^history memory/ {print $4, $7}' "$work/history.out")
	row "history memory" "peak RSS, the 1 GiB log, plain / gzip" "$mp / $mg MiB" none "bounded by the object's history" "$(ok "$mp <= 100 and $mg <= 100")"
	if [ -z "${NO_ENGINE:-}" ]; then
		read -r k g < <(awk '/^history engine [0-9.]+ s/ {print $3, $6}' "$work/history.out")
		row "history, VictoriaLogs" "the same events asked of VictoriaLogs" "$k s" "$g s (kedit history on the gzip)" "≤ 2 s, ≤ 0.1×" "$(ok "$k <= 2 and $k <= 0.1 * $g")"
		read -r m d < <(awk '/^history engine memory/ {print $4, $7}' "$work/history.out")
		row "history, VictoriaLogs memory" "peak RSS; KiB downloaded" "$m MiB; $d KiB" "$(awk '/^history baseline/ {print $3}' "$work/history.out") MiB (kedit version)" "≤ 64 MiB" "$(ok "$m <= 64")"
	fi
fi

echo
echo "== the goals ($(($(date +%s) - began)) s)"
python3 - "$rows" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
head = ["step", "measure", "kedit", "peer, same run", "goal", ""]
w = [max(len(r[i]) for r in rows + [head]) for i in range(6)]
for r in [head] + rows:
    print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())
PY
