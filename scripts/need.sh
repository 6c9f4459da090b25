# need.sh is sourced by the bench scripts before they do anything else: it
# checks for every tool they run and installs what Debian's packages
# provide when it can (apt-get, as root or through sudo without a
# password), as .ci/run does; otherwise it names what is missing and how to
# get it, and exits 1.
#
# GNU_TIME names GNU time's binary (default /usr/bin/time; the shell's own
# `time` has no -v).

GNU_TIME=${GNU_TIME:-/usr/bin/time}

# need_tools checks hyperfine, GNU time, tmux, python3, git, curl, go and kubectl.
need_tools() {
	local missing=() pkgs=() other=()
	command -v hyperfine >/dev/null 2>&1 || { missing+=(hyperfine) && pkgs+=(hyperfine); }
	"$GNU_TIME" --version 2>&1 | grep -q GNU || { missing+=("GNU time ($GNU_TIME)") && pkgs+=(time); }
	local t
	for t in tmux python3 git curl; do
		command -v "$t" >/dev/null 2>&1 || { missing+=("$t") && pkgs+=("$t"); }
	done
	for t in go kubectl; do
		command -v "$t" >/dev/null 2>&1 || other+=("$t")
	done
	if ((${#other[@]})); then
		echo "make bench needs ${other[*]} on PATH (Go from https://go.dev/dl, kubectl from https://kubernetes.io/docs/tasks/tools/); Debian's packages do not have the versions kedit needs" >&2
		exit 1
	fi
	((${#pkgs[@]})) || return 0
	local sudo=()
	if [ "$(id -u)" != 0 ]; then
		sudo=(sudo -n)
	fi
	if command -v apt-get >/dev/null 2>&1 && { ((${#sudo[@]} == 0)) || sudo -n true 2>/dev/null; }; then
		echo "bench: installing ${pkgs[*]} (missing: ${missing[*]})"
		if "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
			"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null; then
			hash -r
			return 0
		fi
		echo "bench: apt-get could not install ${pkgs[*]}" >&2
	fi
	local list
	list=$(printf ', %s' "${missing[@]}")
	echo "make bench needs ${list:2}, which this machine lacks." >&2
	echo "  Debian or Ubuntu: sudo apt-get install ${pkgs[*]}" >&2
	echo "  macOS: brew install ${pkgs[*]/time/gnu-time} (and GNU_TIME=\$(brew --prefix)/bin/gtime)" >&2
	exit 1
}
