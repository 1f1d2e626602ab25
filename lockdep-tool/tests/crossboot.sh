#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# crossboot.sh - the host half of the cross-boot test (issue 6): boot 1
# ran the A -> B half scenario and saved SNAP1, boot 2 ran B -> A and saved
# SNAP2.  Checks, as KTAP on stdout:
#   - `cycles` finds no cycle through A and B in SNAP1 alone, nor in SNAP2;
#   - SNAP1 records A -> B and SNAP2 records B -> A (`why`);
#   - `cycles` on the union (-s SNAP1 -s SNAP2) finds exactly one cycle
#     through A and B, of those two classes, and exits 1;
#   - its id is the canonical id of "A -> B": the same from the union in
#     the other order and from a ring of the two names alone, another one
#     for other names; `dot --cycle` on the names finds it;
#   - with CONSOLE=FILE (a boot's console with a circular report of the
#     classes CONSOLE_A, CONSOLE_B): `report` finds that report and gives
#     it the id `cycles` gives the same two classes.
#
# usage: crossboot.sh SNAP1 SNAP2 [CLASS_A CLASS_B]
#   CLASS_A, CLASS_B default to the half scenarios' lds_half_a, lds_half_b
#   (kernel/locking/lockdep-scenarios.c).
# environment: TOOL (default: build/lockdep-tool, else lockdep-tool on
#   PATH), CONSOLE, CONSOLE_A, CONSOLE_B (default lds_abba_a, lds_abba_b).
# Exit status: 0 when every check passed, 1 otherwise, 2 usage.

set -u
if [ $# -ne 2 ] && [ $# -ne 4 ]; then
	echo "usage: $0 SNAP1 SNAP2 [CLASS_A CLASS_B]" >&2
	exit 2
fi
SNAP1=$1 SNAP2=$2 A=${3:-lds_half_a} B=${4:-lds_half_b}
here=$(cd "$(dirname "$0")/../.." && pwd)
TOOL=${TOOL:-$here/build/lockdep-tool}
[ -x "$TOOL" ] || TOOL=$(command -v lockdep-tool) || {
	echo "crossboot.sh: no lockdep-tool (set TOOL)" >&2; exit 2; }
command -v jq > /dev/null || { echo "crossboot.sh: needs jq" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=0 failed=0 results=
ok()   { n=$((n + 1)); results+="ok $n $1"$'\n'; }
fail() { n=$((n + 1)); failed=$((failed + 1)); results+="not ok $n $1"$'\n'
	 shift; for l in "$@"; do results+="# ${l//$'\n'/$'\n'# }"$'\n'; done; }

# cycles through both A and B, as "id classes..." lines
ab_cycles() {
	jq -r --arg a "$A" --arg b "$B" '.cycles[]
		| select((.classes | index($a)) != null and
			 (.classes | index($b)) != null)
		| "\(.id) \(.classes | join(" "))"' "$1"
}

for i in 1 2; do
	snap=$SNAP1; [ $i = 2 ] && snap=$SNAP2
	"$TOOL" -s "$snap" -j cycles --max 0 > "$work/c$i.json" 2> "$work/c$i.err"
	rc=$?
	if [ $rc -gt 1 ] || ! jq -e . "$work/c$i.json" > /dev/null 2>&1; then
		fail "snapshot${i}_cycles_runs" "exit $rc" "$(head -c 300 "$work/c$i.err")"
	elif [ -n "$(ab_cycles "$work/c$i.json")" ]; then
		fail "snapshot${i}_alone_no_ab_cycle" "$(ab_cycles "$work/c$i.json")"
	else
		ok "snapshot${i}_alone_no_ab_cycle"
	fi
done
if "$TOOL" -s "$SNAP1" why "$A" "$B" > "$work/w1" 2>&1; then
	ok "snapshot1_records_a_to_b"
else
	fail "snapshot1_records_a_to_b" "$(head -n 3 "$work/w1")"
fi
if "$TOOL" -s "$SNAP2" why "$B" "$A" > "$work/w2" 2>&1; then
	ok "snapshot2_records_b_to_a"
else
	fail "snapshot2_records_b_to_a" "$(head -n 3 "$work/w2")"
fi

"$TOOL" -s "$SNAP1" -s "$SNAP2" -j cycles --max 0 > "$work/u.json" 2> "$work/u.err"
rc=$?
found=$(ab_cycles "$work/u.json" 2>/dev/null)
if [ $rc = 1 ] && [ "$(printf '%s\n' "$found" | grep -c .)" = 1 ] &&
   [ "$(printf '%s' "$found" | wc -w)" = 3 ]; then
	ok "union_finds_the_ab_cycle"
else
	fail "union_finds_the_ab_cycle" "exit $rc" "cycles: ${found:-none}" \
		"$(head -c 300 "$work/u.err")"
fi
id=${found%% *}
# a two-class graph of their own: the id of a ring of these names
ring_id() {	# NAME1 NAME2 -> the id `cycles` gives the ring
	mkdir -p "$work/ring"
	printf 'all lock classes:\n%016x OPS:       1 FD:    2 BD:    2 ....: %s\n -> [%016x] %s\n\n%016x OPS:       1 FD:    2 BD:    2 ....: %s\n -> [%016x] %s\n\n' \
		1 "$1" 2 "$2" 2 "$2" 1 "$1" > "$work/ring/lockdep"
	"$TOOL" -s "$work/ring" -j cycles 2> /dev/null | jq -r '.cycles[0].id'
}
# the id depends on the names only: the same from the union in the
# other order and from a ring of the two names alone, another for
# other names; `dot --cycle` finds the cycle by its names
rid=$(ring_id "$A" "$B") oid=$(ring_id "$A" "${B}_other")
rev=$("$TOOL" -s "$SNAP2" -s "$SNAP1" -j cycles --max 0 2> /dev/null |
      ab_cycles /dev/stdin 2> /dev/null)
if [ -n "$id" ] && [ "$id" = "$rid" ] && [ "$id" = "${rev%% *}" ] &&
   [ -n "$oid" ] && [ "$oid" != "$id" ] &&
   "$TOOL" -s "$SNAP1" -s "$SNAP2" -j dot --cycle "$A -> $B" > "$work/d.json" \
	2> "$work/d.err" && jq -e '.nodes | length == 2' "$work/d.json" > /dev/null
then
	ok "union_cycle_id_is_canonical"
else
	fail "union_cycle_id_is_canonical" "union ${id:-none}, reversed union ${rev%% *}" \
		"ring of the names ${rid:-none}, of other names ${oid:-none}" \
		"$(head -c 300 "$work/d.err" 2>/dev/null)"
fi
echo "# union cycle: ${found:-none}" >> "$work/notes"

if [ -n "${CONSOLE:-}" ]; then
	ca=${CONSOLE_A:-lds_abba_a} cb=${CONSOLE_B:-lds_abba_b}
	# the id `cycles` gives these two classes, from a graph holding both
	mkdir -p "$work/ab"
	printf 'all lock classes:\n%016x OPS:       1 FD:    2 BD:    2 ....: %s\n -> [%016x] %s\n\n%016x OPS:       1 FD:    2 BD:    2 ....: %s\n -> [%016x] %s\n\n' \
		1 "$ca" 2 "$cb" 2 "$cb" 1 "$ca" > "$work/ab/lockdep"
	want=$("$TOOL" -s "$work/ab" -j cycles | jq -r '.cycles[0].id')
	"$TOOL" -j report "$CONSOLE" > "$work/r.json" 2> "$work/r.err"
	got=$(jq -r --arg a "$ca" --arg b "$cb" '.reports[]
		| select(.kind == "circular" and (.cycle | index($a)) != null
			 and (.cycle | index($b)) != null) | .id' "$work/r.json" 2>/dev/null)
	if [ -n "$got" ] && [ "$got" = "$want" ]; then
		ok "console_report_has_the_cycles_id"
	else
		fail "console_report_has_the_cycles_id" "cycles: $want" "report: ${got:-none}" \
			"$(head -c 300 "$work/r.err")"
	fi
fi

echo "KTAP version 1"
echo "1..$n"
printf '%s' "$results"
cat "$work/notes" 2>/dev/null
echo "# crossboot: $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
