#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress test (KTAP) for the lockdep debugfs export: read the whole export
# in a loop while lock classes are created and destroyed: the conformance
# scenarios module is loaded, registers and unregisters dynamic keys
# ("churn"), creates the classes of its module-unload scenario and is
# unloaded, in a loop (or MODULE.ko is loaded and unloaded, if given).
# Every read whose headers and trailers carry one generation must pass the
# internal checks of export-tests.sh (tests 1-7); the others are retried.
#
# usage: export-stress.sh [SECONDS [MODULE.ko]]    (default 30 seconds)
#
# Needs busybox sh, modprobe, insmod, rmmod, dmesg, and export-tests.sh
# next to it.

SECS=${1:-30}
KO=${2:-}
RUN=/sys/kernel/debug/lockdep-scenarios/run
DIR=$(cd "$(dirname "$0")" && pwd)
EXPORT=${LOCKDEP_EXPORT:-/sys/kernel/debug/lockdep}
FILES="classes deps traces usage chains stats"

case "$SECS" in ''|*[!0-9]*) echo "usage: export-stress.sh [SECONDS [MODULE.ko]]" >&2; exit 2 ;; esac
if [ -n "$KO" ]; then
	MOD=$(basename "$KO" .ko)
	churn_once() { insmod "$KO" && rmmod "$MOD"; }
else
	MOD=lockdep_scenarios
	churn_once() {
		modprobe "$MOD" && echo 'churn 5' >"$RUN" &&
			echo module-unload >"$RUN" && rmmod "$MOD"
	}
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/export-stress.XXXXXX") || exit 1
CHURN=
cleanup() {
	[ -n "$CHURN" ] && kill "$CHURN" 2>/dev/null && wait "$CHURN"
	rmmod "$MOD" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

echo "KTAP version 1"
echo "1..5"

dmesg >"$T/dmesg.before"
zapped() { awk -F: '/zapped classes/ { gsub(/ /, "", $2); print $2 }' /proc/lockdep_stats; }
zapped_before=$(zapped)

# bursts of five load/unload cycles, then a pause long enough for a whole
# read of the export under TCG, so that some reads see one generation
(
	while :; do
		i=0
		while [ $i -lt 5 ]; do
			churn_once && echo cycle
			i=$((i + 1))
		done
		sleep 3
	done
) >"$T/churn.log" 2>&1 &
CHURN=$!

reads=0 consistent=0 bad=0 rerr=0
end=$(($(date +%s) + SECS))
while [ "$(date +%s)" -lt "$end" ]; do
	mkdir -p "$T/snap"
	for f in $FILES; do
		cat "$EXPORT/$f" >"$T/snap/$f" || rerr=$((rerr + 1))
	done
	reads=$((reads + 1))
	n=$(for f in $FILES; do
		sed -n '1s/.* generation //p' "$T/snap/$f"
		tail -n 1 "$T/snap/$f" | sed -n 's/^# end generation //p'
	done | sort -u | wc -l)
	[ "$n" = 1 ] || continue
	consistent=$((consistent + 1))
	if ! EXPORT_TESTS_INTERNAL=1 sh "$DIR/export-tests.sh" "$T/snap" \
		>"$T/check.out"; then
		bad=$((bad + 1))
		grep -v '^ok' "$T/check.out" | sed 's/^\([^#]\)/# \1/' | head -n 20
	fi
done
kill "$CHURN" 2>/dev/null && wait "$CHURN" 2>/dev/null
CHURN=
cycles=$(grep -c '^cycle$' "$T/churn.log")

echo "# $reads reads, $consistent consistent, $bad failed, $rerr read errors"
# every read() ends well while the graph changes (a crash: the host sees it)
if [ "$reads" -gt 0 ] && [ "$rerr" = 0 ]; then
	echo "ok 1 reads_succeed"
else
	echo "not ok 1 reads_succeed # $rerr read errors in $reads rounds"
fi
if [ "$consistent" -gt 0 ]; then
	echo "ok 2 consistent_reads"
else
	echo "not ok 2 consistent_reads # no read saw one generation"
fi
[ "$bad" = 0 ] && echo "ok 3 consistent_reads_pass" ||
	echo "not ok 3 consistent_reads_pass"
dmesg >"$T/dmesg.after"
new=$(awk 'NR == FNR { old[$0] = 1; next } !($0 in old)' \
	"$T/dmesg.before" "$T/dmesg.after" |
	grep -E 'WARNING:|BUG:|Oops|INFO: |possible (circular|recursive)|inconsistent lock state|RCU stall|turning off the locking correctness validator')
if [ -z "$new" ]; then
	echo "ok 4 no_kernel_reports"
else
	echo "$new" | head -n 20 | sed 's/^/# /'
	echo "not ok 4 no_kernel_reports"
fi
# the load must really have created and destroyed classes
zapped_after=$(zapped)
echo "# $cycles churn cycles, zapped classes $zapped_before -> $zapped_after"
if [ "$cycles" -gt 0 ] && [ "$zapped_after" -gt "$zapped_before" ]; then
	echo "ok 5 classes_churned"
else
	grep -v '^cycle$' "$T/churn.log" | head -n 5 | sed 's/^/# /'
	echo "not ok 5 classes_churned"
fi
