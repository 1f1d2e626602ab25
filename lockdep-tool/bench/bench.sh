#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - load and query timings at full capacity (8191 classes,
# 262144 dependencies, 262144 chains), printed as medians and ratios.
# Never asserts: machines differ.  Called by `make -C lockdep-tool bench`
# with BIN, GEN and OUT set.  RUNS=N repetitions (default 7);
# BENCH_LOAD_ONLY=1 leaves out the analysis benchmarks (bench-analysis.sh).
set -eu
RUNS=${RUNS:-7}
SNAP=$OUT/bench-snapshot
# made again when the generator changed since
if [ ! -f "$SNAP/proc/lockdep" ] || [ "$GEN" -nt "$SNAP/proc/lockdep" ]; then
	rm -rf "$SNAP"
	echo "generating $SNAP ..."
	"$GEN" "$SNAP"
fi
export LC_ALL=C	# EPOCHREALTIME with a '.'
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
minimum() { tr ' ' '\n' | grep . | sort -n | head -n 1; }
# wall-clock ms of one run: EPOCHREALTIME has microseconds where
# /usr/bin/time has 10 ms, as long as cat takes
run_ms() {
	local t0=$EPOCHREALTIME t1
	if ! "$@" > /dev/null 2>&1; then
		echo "bench: failed: $*" >&2
		exit 1
	fi
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", (b - a) * 1000}'
}
cpu_ms() {
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -n 1 |
			awk '{print $1 + $2}'
	done | median | awk '{printf "%.0f", $1 * 1000}'
}
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }

echo "lockdep-tool bench: $(nproc) cpus, medians of $RUNS runs"
for fmt in proc export; do
	dir=$SNAP/$fmt
	[ $fmt = export ] && dir=$SNAP/export/lockdep
	size=$(du -sb "$dir" | cut -f1)
	cat "$dir"/* > /dev/null
	# alternate the two, so that a busy moment hits both alike
	cat_t='' load_t=''
	for _ in $(seq "$RUNS"); do
		# cat itself, as a user runs it: not through a shell, whose
		# start (3-4 ms) would count on cat's side
		cat_t="$cat_t $(run_ms cat "$dir"/*)"
		load_t="$load_t $(run_ms "$BIN" -s "$dir" info)"
	done
	cat_ms=$(echo "$cat_t" | median)
	load_ms=$(echo "$load_t" | median)
	cat_min=$(echo "$cat_t" | minimum)
	load_min=$(echo "$load_t" | minimum)
	load_cpu=$(cpu_ms "$BIN" -s "$dir" info)
	mem=$(peak_kb "$BIN" -s "$dir" info)
	echo
	echo "== $fmt files: $((size / 1048576)) MiB"
	echo "cat:            ${cat_ms} ms"
	echo "load+index:     ${load_ms} ms elapsed, ${load_cpu} ms cpu" \
	     "(ratio to cat: $(awk -v a="$load_ms" -v b="$cat_ms" \
		'BEGIN {printf "%.1f", b ? a / b : 0}')x, goal <= 2x)"
	# the host's load swings the medians by a third; the fastest runs
	# are what each side takes when nothing else runs
	echo "fastest runs:   cat ${cat_min} ms, load+index ${load_min} ms" \
	     "(ratio $(awk -v a="$load_min" -v b="$cat_min" \
		'BEGIN {printf "%.1f", b ? a / b : 0}')x)"
	echo "peak memory:    $((mem / 1024)) MiB"
	# where the load's time goes, median per phase (LOCKDEP_TOOL_TIMING)
	timing=$(for _ in $(seq "$RUNS"); do
		LOCKDEP_TOOL_TIMING=1 "$BIN" -s "$dir" info 2>&1 >/dev/null
	done)
	phases=$(printf '%s\n' "$timing" |
		 sed -n 's/^time load:\(.*\) \([0-9.]*\) ms$/\1\t\2/p')
	# both sides' elapsed time starts with starting a process: cat or
	# lockdep-tool; what is left is reading, or loading
	start_cat=$(for _ in $(seq "$RUNS"); do
		run_ms cat /dev/null; echo
	done | median)
	start_tool=$(for _ in $(seq "$RUNS"); do
		run_ms "$BIN" --version; echo
	done | median)
	inproc=$(printf '%s\n' "$timing" | awk '/^time load [0-9.]+ ms$/ {print $3}' |
		 median | awk '{printf "%.1f", $1}')
	echo "process start:  ${start_cat} ms of cat's (cat /dev/null)," \
	     "${start_tool} ms of the load's (lockdep-tool --version);" \
	     "load inside the process ${inproc} ms"
	line=
	while IFS= read -r name; do
		v=$(printf '%s\n' "$phases" |
		    awk -F '\t' -v n="$name" '$1 == n {print $2}' | median)
		line="$line${line:+, }$name $v"
	done < <(printf '%s\n' "$phases" | cut -f1 | awk '!seen[$0]++')
	echo "load phases:    $line ms (medians)"
	anon=$(LOCKDEP_TOOL_TIMING=1 "$BIN" -s "$dir" info 2>&1 >/dev/null |
	       awk '/^memory anon/ {print int($3 / 1024)}')
	if [ -n "$anon" ]; then
		cost() { for _ in $(seq "$RUNS"); do "$GEN" "$1" "$anon"; done | median; }
		fault=$(cost --fault-cost)
		pop=$(cost --populate-cost)
		huge=$(cost --huge-cost)
		echo "model memory:   ${anon} MiB anonymous; making that much fresh" \
		     "memory usable takes ${fault} ms here page by page" \
		     "($(awk -v a="$fault" -v b="$cat_ms" \
			'BEGIN {printf "%.1f", b ? a / b : 0}')x cat), ${pop} ms" \
		     "populated in 4 KiB pages, ${huge} ms in 2 MiB pages" \
		     "(as the load's large arrays)"
	fi
	# a command line reads only what its command looks at (cmd.h)
	line=
	for q in "stats" "classes --count" "chains --count" "deps @0"; do
		t=
		for _ in $(seq "$RUNS"); do
			# shellcheck disable=SC2086 # q is several words
			t="$t $(run_ms "$BIN" -s "$dir" $q)"
		done
		line="$line${line:+, }${q%% *} $(echo "$t" | median)"
	done
	echo "command lines:  $line ms, whole process (info, reading all: $load_ms)"
	# per-command times inside one process (load excluded)
	cls=$("$BIN" -s "$dir" -j classes --sort fd --reverse 2>/dev/null |
	      jq -r '.classes[0].id')
	for q in "show @$cls" "deps @$cls --depth 3" "dot @$cls --depth 2"; do
		times=$( (echo info; for _ in $(seq "$RUNS"); do echo "$q"; done) |
			LOCKDEP_TOOL_TIMING=1 "$BIN" -s "$dir" 2>&1 >/dev/null |
			grep '^time ' | tail -n "$RUNS" | awk '{print $3}' | median)
		printf "%-24s %s ms (goal < 50 ms)\n" "$q:" "$times"
	done
	if [ $fmt = export ]; then
		t=$(echo "classes --sort fd" | LOCKDEP_TOOL_TIMING=1 \
			"$BIN" -s "$dir" 2>&1 >/dev/null | awk '/^time classes/ {print $3}')
		echo "classes (FD/BD of all, computed): $t ms"
	fi
done
[ -n "${BENCH_LOAD_ONLY:-}" ] || "$(dirname "$0")/bench-analysis.sh"	# issue 6
