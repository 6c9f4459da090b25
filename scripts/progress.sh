#!/usr/bin/env bash
# progress.sh WHAT GO-SUBCOMMAND ARGS...: runs a Go command that may take
# minutes on a fresh machine and says what it does meanwhile, so that a
# first build does not look like a hang.
#
#   scripts/progress.sh "localcluster (kube-apiserver and etcd)" build -C localcluster -o ../bin/localcluster .
#   scripts/progress.sh "vet of localcluster" vet -C localcluster ./...
#
# For build, it first counts the packages Go's build cache does not hold,
# then prints a line at every tenth of them compiled and at least one a
# minute:
#
#   localcluster (kube-apiserver and etcd): 1412 packages to compile
#   localcluster (kube-apiserver and etcd): 283 of 1412 packages compiled (20%), 1m12s
#
# For any other subcommand (vet names nothing as it goes) it prints a line
# a minute (PROGRESS_INTERVAL seconds). Go's own messages (errors) pass through unchanged, and Go's
# exit status is the script's.
set -uo pipefail
what=$1
verb=$2
shift 2
go=${GO:-go}
args=("$@")
# PROGRESS_INTERVAL: the seconds between two lines when nothing else is said.
interval=${PROGRESS_INTERVAL:-60}

# -C must come first on go's command line; go list gets it too.
pre=()
if [ "${1:-}" = "-C" ]; then
	pre=(-C "$2")
	shift 2
fi

start=$(date +%s)
elapsed() {
	local s=$(($(date +%s) - start))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

total=0
if [ "$verb" = build ]; then
	# What is compiled depends on the packages (the words that are not
	# flags) and on the flags that change the build (-race, -tags).
	flags=() pkgs=()
	parse() {
		while (($#)); do
			case $1 in
			-race | -msan | -asan) flags+=("$1") ;;
			-tags) flags+=("$1" "$2") && shift ;;
			-o | -ldflags | -gcflags | -p) shift ;;
			-*) ;;
			*) pkgs+=("$1") ;;
			esac
			shift
		done
	}
	parse "$@"
	# go list calls a main package stale whenever its binary is not where
	# go install would put it, so only the other packages tell whether
	# anything needs compiling; the main ones count once something does.
	stale=$("$go" list "${pre[@]}" "${flags[@]}" -deps -f '{{if .Stale}}{{.Name}}{{end}}' "${pkgs[@]}" 2>/dev/null)
	libs=$(grep -cvxE 'main|' <<<"$stale")
	total=$(grep -c . <<<"$stale")
	if ((libs == 0)); then
		exec "$go" "$verb" "${args[@]}"
	fi
	if ((total == 1)); then
		echo "$what: 1 package to compile"
	else
		echo "$what: $total packages to compile"
	fi
	# PROGRESS_WHY: why this build takes long, said once when it does.
	[ -z "${PROGRESS_WHY:-}" ] || echo "$what: $PROGRESS_WHY"
	args=("${pre[@]}" -v "$@")
else
	echo "$what: started"
fi

# Go's -v names each package as it compiles it, on stderr: count those
# lines and pass every other one through. A read that times out is the
# minute's line.
fifo=$(mktemp -u "${TMPDIR:-/tmp}/progress.XXXXXX")
mkfifo "$fifo"
"$go" "$verb" "${args[@]}" 2>"$fifo" &
pid=$!
trap 'kill "$pid" 2>/dev/null' INT TERM
exec 3<"$fifo"
rm -f "$fifo"
compiled=0 last=$start step=$(((total + 9) / 10))
while :; do
	if IFS= read -r -t "$interval" line <&3; then
		if ((total > 0)) && [[ $line =~ ^[A-Za-z0-9._~/+-]+$ ]]; then
			compiled=$((compiled + 1))
			now=$(date +%s)
			if ((compiled % step == 0 || now - last >= interval)); then
				echo "$what: $compiled of $total packages compiled ($((100 * compiled / total))%), $(elapsed)"
				last=$now
			fi
		else
			printf '%s\n' "$line" >&2
		fi
	elif (($? > 128)); then
		if ((total > 0)); then
			echo "$what: $compiled of $total packages compiled ($((100 * compiled / total))%), $(elapsed)"
		else
			echo "$what: still working, $(elapsed)"
		fi
		last=$(date +%s)
	else
		break
	fi
done
wait "$pid"
status=$?
if ((status == 0)); then
	echo "$what: done, $(elapsed)"
fi
exit "$status"
