#!/bin/bash
# bench-history.sh measures `kedit history` on a 1 GiB audit log beside the
# time it takes to read the log: `zcat | wc -l` on its gzip and `grep -c`
# of the object's name on the plain file, in the same run, and kedit's
# peak memory. bench.sh runs it; alone:
#
#   scripts/bench-history.sh                 # 1 GiB
#   SIZE=268435456 scripts/bench-history.sh  # a smaller log
#
# The log is made from real events: a localcluster with --audit-log, where
# kubectl creates, patches, reads and lists 300 ConfigMaps, 30 Secrets and
# 20 Deployments in namespace bench and plays a kubectl edit race on
# configmap bench-target (alice edits while bob patches); then
# scripts/genaudit copies the other objects' lines (each copy in
# namespaces of its own) to SIZE bytes, with the target's lines spread
# through it. It prints "history ..." lines that bench.sh reads.
#
# Then the same log is sent to a VictoriaLogs (bin/victoria-logs, as the
# README's shippers send it) and kedit history asks it for the object
# (--audit-log victorialogs://...), beside kedit history on the gzip file:
# the time to the answer, kedit's peak memory, the bytes downloaded
# (--debug's count), and the engine's ingest time, disk and memory.
# NO_ENGINE=1 leaves it out; ENGINE_ONLY=1 leaves the file's rows out (for
# a log too large to read many times: SIZE=10737418240 HISTORY_RUNS=1).
set -euo pipefail
SIZE=${SIZE:-1073741824}
RUNS=${HISTORY_RUNS:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
lc_pid=
vl_pid=
cleanup() {
	[ -n "$lc_pid" ] && { kill "$lc_pid" 2>/dev/null || true; wait "$lc_pid" 2>/dev/null || true; }
	[ -n "$vl_pid" ] && { kill "$vl_pid" 2>/dev/null || true; wait "$vl_pid" 2>/dev/null || true; }
	[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
cd "$root"
kubectl=$(command -v kubectl)
if [ -x "$(readlink -f "$kubectl").1.33" ]; then
	kubectl=$(readlink -f "$kubectl").1.33
fi
make -s build localcluster
bin/localcluster --dir "$work/lc" --audit-log "$work/seed.log" >"$work/lc.out" 2>"$work/lc.err" &
lc_pid=$!
for _ in $(seq 300); do
	grep -q '^ready ' "$work/lc.out" 2>/dev/null && break
	kill -0 "$lc_pid" 2>/dev/null || { cat "$work/lc.err" >&2; exit 1; }
	sleep 0.2
done
k() { "$kubectl" --kubeconfig "$work/lc/kubeconfig" "$@"; }
export KUBECACHEDIR=$work/cache
k create namespace bench >/dev/null
k create clusterrolebinding bench-writers --clusterrole=cluster-admin --user=alice --user=bob >/dev/null
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
docs = []
for i in range(300):
    docs.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app-%03d" % i, "namespace": "bench", "labels": {"app": "app-%03d" % i}},
                 "data": {"app.properties": "".join("key%02d=value %d of app %d\n" % (k, k, i) for k in range(20)), "replicas": str(i % 5)}})
for i in range(30):
    docs.append({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "creds-%02d" % i, "namespace": "bench"}, "stringData": {"password": "p%d" % i}})
for i in range(20):
    docs.append({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web-%02d" % i, "namespace": "bench"},
                 "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web-%02d" % i}},
                          "template": {"metadata": {"labels": {"app": "web-%02d" % i}},
                                       "spec": {"containers": [{"name": "web", "image": "nginx:1.27", "env": [{"name": "E%d" % e, "value": str(e)} for e in range(8)]}]}}}})
json.dump({"apiVersion": "v1", "kind": "List", "items": docs}, open(work + "/objects.json", "w"))
PY
k apply -f "$work/objects.json" >/dev/null
k create configmap bench-target -n bench --from-literal=foo=1 >/dev/null
for i in $(seq 0 3 299); do
	k patch configmap "app-$(printf %03d "$i")" -n bench -p "{\"data\":{\"replicas\":\"$((i % 7))\"}}" >/dev/null
done
k get configmaps -n bench >/dev/null
k get deployments,secrets -n bench >/dev/null
k scale deployment -n bench web-01 web-02 web-03 --replicas=3 >/dev/null
printf '#!/bin/sh\nwhile [ ! -f %s/go ]; do sleep 0.05; done\nsed -i "s/foo: \\"1\\"/foo: alice/" "$1"\n' "$work" >"$work/editor.sh"
chmod +x "$work/editor.sh"
KUBE_EDITOR=$work/editor.sh k edit configmap bench-target -n bench --as alice >/dev/null &
edit=$!
sleep 2
k patch configmap bench-target -n bench --as bob -p '{"data":{"foo":"bob"}}' >/dev/null
touch "$work/go"
wait "$edit"
kill "$lc_pid"; wait "$lc_pid" 2>/dev/null || true; lc_pid=
echo "seed: $(wc -l <"$work/seed.log") real events, $(du -k "$work/seed.log" | cut -f1) KiB"
go run ./scripts/genaudit -seed "$work/seed.log" -namespace bench -target bench-target -size "$SIZE" -o "$work/audit.log"
gzip -1 -c "$work/audit.log" >"$work/audit.log.gz"
echo "log: $(wc -l <"$work/audit.log") lines, $(du -m "$work/audit.log" | cut -f1) MiB; gzip $(du -m "$work/audit.log.gz" | cut -f1) MiB"
# kedit with no cluster to ask: the type and namespace come from the log
# and -n.
: >"$work/empty-kubeconfig"
export KUBECONFIG=$work/empty-kubeconfig
kh="$root/bin/kedit history cm/bench-target -n bench --audit-log"
set +e
$kh "$work/audit.log" >/dev/null
code=$?
set -e
[ "$code" = 1 ] || { echo "kedit history found no lost update (exit $code)" >&2; exit 1; }
if [ -z "${ENGINE_ONLY:-}" ]; then
	# --output=pipe: GNU grep stops at the first match when its output is
	# /dev/null (hyperfine's default), which would not read the log.
	hyperfine -N -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$work/plain.json" \
		"$kh $work/audit.log" "grep -c bench-target $work/audit.log" >/dev/null 2>&1
	hyperfine -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$work/gz.json" \
		"$kh $work/audit.log.gz" "zcat $work/audit.log.gz | wc -l" >/dev/null 2>&1
	# kedit exits 1 (lost updates found): the pipeline's status is not its.
	rss_plain=$( (/usr/bin/time -f %M $kh "$work/audit.log" 2>&1 >/dev/null || true) | tail -1)
	rss_gz=$( (/usr/bin/time -f %M $kh "$work/audit.log.gz" 2>&1 >/dev/null || true) | tail -1)
	python3 - "$work" "$rss_plain" "$rss_gz" <<-'PY'
	import json, statistics, sys
	work, rp, rg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
	def med(f):
	    return [statistics.median(r["times"]) for r in json.load(open(work + "/" + f))["results"]]
	kp, gp = med("plain.json")
	kg, zg = med("gz.json")
	print("history plain %.2f s grep %.2f s ratio %.2f" % (kp, gp, kp / gp))
	print("history gzip %.2f s zcat %.2f s ratio %.2f" % (kg, zg, kg / zg))
	print("history memory plain %d MiB gzip %d MiB" % (rp // 1024, rg // 1024))
	PY
fi
[ -n "${NO_ENGINE:-}" ] && exit 0
make -s victorialogs >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bin/victoria-logs -storageDataPath="$work/vl" -httpListenAddr="127.0.0.1:$port" -retentionPeriod=100y -futureRetention=100y \
	-insert.maxLineSizeBytes=16MiB -loggerLevel=WARN >"$work/vl.log" 2>&1 &
vl_pid=$!
for _ in $(seq 300); do
	curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
	kill -0 "$vl_pid" 2>/dev/null || { cat "$work/vl.log" >&2; exit 1; }
	sleep 0.1
done
t0=$(date +%s.%N)
curl -sS -X POST -H 'Content-Type: application/stream+json' -T "$work/audit.log" \
	"http://127.0.0.1:$port/insert/jsonline?_time_field=stageTimestamp&preserve_json_keys=requestObject,responseObject&_stream_fields=objectRef.resource,objectRef.namespace"
curl -sS "http://127.0.0.1:$port/internal/force_flush"
t1=$(date +%s.%N)
rows=$(curl -sS "http://127.0.0.1:$port/select/logsql/query" --data-urlencode 'query=* | count() as n' | python3 -c 'import json,sys; print(json.load(sys.stdin)["n"])')
lines=$(wc -l <"$work/audit.log")
[ "$rows" = "$lines" ] || { echo "VictoriaLogs holds $rows events of the log's $lines" >&2; exit 1; }
url="victorialogs://127.0.0.1:$port"
set +e
$kh "$url" >/dev/null
code=$?
set -e
[ "$code" = 1 ] || { echo "kedit history from VictoriaLogs found no lost update (exit $code)" >&2; exit 1; }
bytes=$( ($kh "$url" --debug 2>&1 >/dev/null || true) | sed -n 's/.* \([0-9][0-9]*\) bytes in .*/\1/p' | awk '{s += $1} END {print s}')
hyperfine -N -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$work/engine.json" \
	"$kh $url" "$kh $work/audit.log.gz" >/dev/null 2>&1
rss_engine=$( (/usr/bin/time -f %M $kh "$url" 2>&1 >/dev/null || true) | tail -1)
vl_rss=$(ps -o rss= -p "$vl_pid" | tr -d ' ')
rss_base=$( (/usr/bin/time -f %M "$root/bin/kedit" version 2>&1 >/dev/null || true) | tail -1)
python3 - "$work" "$rss_engine" "$bytes" "$t0" "$t1" "$(du -sm "$work/vl" | cut -f1)" "$(du -m "$work/audit.log" | cut -f1)" "$rss_base" "$vl_rss" <<'PY'
import json, statistics, sys
work, rss, nbytes, t0, t1, disk, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7]
ke, kg = [statistics.median(r["times"]) for r in json.load(open(work + "/engine.json"))["results"]]
print("history engine %.3f s gzip %.2f s ratio %.3f" % (ke, kg, ke / kg))
print("history engine memory %d MiB downloaded %d KiB" % (rss // 1024, nbytes // 1024))
print("history baseline %d MiB" % (int(sys.argv[8]) // 1024))
print("history engine ingest %s MiB in %.0f s (%.0f MiB/s), %s MiB on disk; VictoriaLogs RSS %d MiB" % (size, t1 - t0, int(size) / (t1 - t0), disk, int(sys.argv[9]) // 1024))
PY
