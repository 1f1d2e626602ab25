# Shared helpers for the build scripts: one line per stage with elapsed time.
# Sourced, not run.  V=1 in the environment shows every command's output.

LOCKDEP_TOP=${LOCKDEP_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$LOCKDEP_TOP/build}
LOGDIR=$BUILD/logs
mkdir -p "$LOGDIR"

_stage_name=
_stage_t0=

die() {
	echo "error: $*" >&2
	exit 1
}

# stage NAME: announce a long step; stage_done closes it with its duration.
stage() {
	_stage_name=$1
	_stage_t0=$(date +%s)
	printf '  %-11s %s\n' "$1" "${2:-}"
}

stage_done() {
	local t=$(( $(date +%s) - _stage_t0 ))
	printf '  %-11s done in %dm%02ds\n' "$_stage_name" $((t / 60)) $((t % 60))
}

# quiet LOG CMD...: run CMD, output to LOG (or the terminal with V=1);
# on failure show the log's tail and where the whole log is.
quiet() {
	local log=$1
	shift
	if [ "${V:-0}" = 1 ]; then
		"$@" 2>&1 | tee "$log"
		return "${PIPESTATUS[0]}"
	fi
	if ! "$@" >"$log" 2>&1; then
		echo "---- last lines of $log ----" >&2
		tail -n 40 "$log" >&2
		echo "---- command failed: $* (full log: $log) ----" >&2
		return 1
	fi
}
