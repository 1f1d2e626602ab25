#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-analysis.sh - timings of the issue 6 commands at full capacity
# (gen-snapshot's 8191 classes, 262144 dependencies, 262144 chains), as
# medians.  Called at the end of bench.sh with BIN, GEN and OUT set.
# Never asserts.  Per-command times are measured inside one process
# (LOCKDEP_TOOL_TIMING, after a first command loaded the snapshot).
#
# Inputs: the full snapshot bench.sh generated; a second one with the
# same classes and 5000 fewer dependencies (gen-snapshot's graph is a
# prefix, so diff has real work); the full export with every 262nd
# dependency reversed (1000 of them), so that the union of the two holds
# one strongly connected component of ~7800 classes; and a log of many
# lockdep reports for `report`.
set -eu
RUNS=${RUNS:-7}
SNAP=$OUT/bench-snapshot
SNAP2=$OUT/bench-snapshot-fewer
REV=$OUT/bench-reversed
LOG=$OUT/bench-reports.log
HERE=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$SNAP/proc/lockdep" ] || "$GEN" "$SNAP" > /dev/null
[ -f "$SNAP2/proc/lockdep" ] || "$GEN" "$SNAP2" 8191 257144 262144 > /dev/null
if [ ! -f "$REV/lockdep/deps" ]; then
	mkdir -p "$REV/lockdep"
	for f in classes traces usage chains stats; do
		ln -sf "$SNAP/export/lockdep/$f" "$REV/lockdep/$f"
	done
	awk '/^#/ { print; next } { if (++n % 262 == 0) { t = $1; $1 = $2; $2 = t } print }' \
		"$SNAP/export/lockdep/deps" > "$REV/lockdep/deps"
fi
if [ ! -f "$LOG" ]; then
	for i in $(seq 40); do
		cat "$HERE"/proc-interface/fixtures/reports/*.console \
		    "$HERE"/proc-interface/fixtures/reports-handmade/* 2>/dev/null
	done > "$LOG"
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# in-process median of QUERY on SOURCE-ARGS: cmd_ms "ARGS" "QUERY"
cmd_ms() {
	local src=$1 q=$2
	# shellcheck disable=SC2086
	(echo info; for _ in $(seq "$RUNS"); do echo "$q"; done) |
		LOCKDEP_TOOL_TIMING=1 "$BIN" $src 2>&1 >/dev/null |
		grep '^time ' | tail -n "$RUNS" | awk '{print $3}' | median
}
wall_ms() {
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -n 1
	done | median | awk '{printf "%.0f", $1 * 1000}'
}
row() { printf '  %-44s %9s ms   (goal %s)\n' "$1" "$2" "$3"; }

echo
echo "== issue 6 analysis: medians of $RUNS runs, load excluded unless said"
for fmt in export proc; do
	dir=$SNAP/$fmt
	[ $fmt = export ] && dir=$SNAP/export/lockdep
	top=$("$BIN" -s "$dir" -j classes --sort fd --reverse | jq -r '.classes[0].id')
	far=$("$BIN" -s "$dir" -j deps "@$top" --depth 3 |
	      jq -r '[.classes[] | select(.level == 3)][0].class.id')
	# a class that @top cannot reach: `path` must search all it reaches
	pred=$("$BIN" -s "$dir" -j deps "@$top" --depth 1000 |
	       jq -r '[.classes[].class.id] as $r | [range(0; 8191)] - $r | .[0]')
	pairs=$("$BIN" -s "$dir" -j irq-check --max 1 | jq '.total.hardirq + .total.softirq')
	echo "-- $fmt files (irq-check finds $pairs safe -> unsafe pairs)"
	row "cycles" "$(cmd_ms "-s $dir" "cycles --brief")" "< 1000"
	row "cycles --weak --max 0" "$(cmd_ms "-s $dir" "cycles --brief --weak --max 0")" "< 1000"
	row "irq-check" "$(cmd_ms "-s $dir" "irq-check --brief")" "< 1000"
	row "why @$top @$far" "$(cmd_ms "-s $dir" "why @$top @$far")" "< 50"
	row "path @$top @$far" "$(cmd_ms "-s $dir" "path @$top @$far")" "< 50"
	row "path @$top @$pred (none: searches all)" \
		"$(cmd_ms "-s $dir" "path @$top @$pred")" "< 50"
	row "path --all --max 20 @$top @$far" \
		"$(cmd_ms "-s $dir" "path --all --max 20 @$top @$far")" "< 50"
	row "dot --path @$top @$far" "$(cmd_ms "-s $dir" "dot --path @$top @$far")" "< 50"
	fewer=$SNAP2/$fmt
	[ $fmt = export ] && fewer=$SNAP2/export/lockdep
	row "diff OLD (loading OLD included)" \
		"$(cmd_ms "-s $fewer" "diff $dir --brief")" "< 1000"
	row "diff OLD NEW, whole process (2 loads)" \
		"$(wall_ms "$BIN" diff "$dir" "$fewer" --brief)" "< 1000"
done
u="-s $SNAP/export/lockdep -s $REV"
echo "-- union of the export with 1000 of its dependencies reversed"
row "load and merge both, whole process" \
	"$(wall_ms "$BIN" $u info)" "-"
row "cycles (--max 100)" "$(cmd_ms "$u" "cycles --brief")" "< 1000"
row "cycles --max 0 --length 3" "$(cmd_ms "$u" "cycles --brief --max 0 --length 3")" "< 1000"
row "irq-check" "$(cmd_ms "$u" "irq-check --brief")" "< 1000"
WALKS=$OUT/bench-walks
[ -f "$WALKS/lockdep/deps" ] || python3 "$(dirname "$0")/gen-walks.py" "$WALKS" 9 40 40
echo "-- 40 x 40 irq pairs joined only through a deadlock cycle with a 9-clique"
row "irq-check --max 0" "$(cmd_ms "-s $WALKS" "irq-check --brief --max 0")" "< 1000"
echo "-- report on a log of $(grep -c 'WARNING: \|BUG: ' "$LOG") report lines, $(( $(wc -c < "$LOG") / 1048576 )) MiB"
row "report --brief, whole process" "$(wall_ms "$BIN" report --brief "$LOG")" "-"
