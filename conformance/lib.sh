# Shared by the conformance scripts (official-sdks/run.sh, browser/run.sh):
# a scratch directory, the servers they start, and their cleanup.
#
#   . "$here/../lib.sh"; conformance_scratch NAME
#
# sets $work (a new temporary directory) and $pids (append the pid of each
# background process); on exit every process in $pids is killed and
# waited for and $work removed; an interrupt prints "NAME: interrupted"
# and exits 124, as timeout(1) does.

conformance_cleanup() {
	local pid
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$work"
}

conformance_scratch() {
	work=$(mktemp -d)
	pids=()
	trap conformance_cleanup EXIT
	# shellcheck disable=SC2064 # the name is fixed now, on purpose
	trap "echo '$1: interrupted' >&2; exit 124" INT TERM
}
