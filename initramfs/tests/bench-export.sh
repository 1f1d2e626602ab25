#!/bin/sh
# Benchmark (not a test): time reading the whole debugfs export against
# reading /proc/lockdep on the same boot and graph, first on the graph this
# boot has, then after the lockdep_scenarios 'graph' load has grown it to a
# big kernel's size (GRAPH classes, about 6 dependencies each).
#
# One cat reads a file many times, so that starting a process (tens of
# milliseconds under TCG) is paid once per round, not once per read; the
# number of reads is chosen so that a round lasts about half a second, far
# above the 10 ms resolution of /proc/uptime.  Prints medians and ratios;
# never fails on numbers.
ROUNDS=${ROUNDS:-5}
GRAPH=${GRAPH:-2000}
EXP=/sys/kernel/debug/lockdep
RUN=/sys/kernel/debug/lockdep-scenarios/run

now() { cut -d' ' -f1 /proc/uptime; }

# repeat N WORDS...: WORDS, N times
repeat() {
	n=$1
	shift
	r=
	while [ "$n" -gt 0 ]; do r="$r $*"; n=$((n - 1)); done
	echo "$r"
}

# time_reads FILES...: seconds per read of all FILES, median of ROUNDS
time_reads() {
	t0=$(now)
	cat "$@" >/dev/null
	t1=$(now)
	reads=$(awk -v a="$t0" -v b="$t1" 'BEGIN {
		n = (b - a > 0) ? int(0.5 / (b - a)) : 50
		print (n < 1) ? 1 : (n > 50) ? 50 : n }')
	# shellcheck disable=SC2046
	set -- $(repeat "$reads" "$@")
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		t0=$(now)
		cat "$@" >/dev/null
		t1=$(now)
		awk -v a="$t0" -v b="$t1" -v n="$reads" \
			'BEGIN { printf "%.5f\n", (b - a) / n }'
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

ms() { awk -v s="$1" 'BEGIN { printf "%.1f ms", s * 1000 }'; }

# time_tool ARGS...: seconds per run of lockdep-tool ARGS, whole process,
# median of ROUNDS
time_tool() {
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		t0=$(now)
		lockdep-tool "$@" >/dev/null 2>&1
		t1=$(now)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.5f\n", b - a }'
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# lockdep-tool run alone reads what its command looks at: 'stats' the
# counters, 'classes' the graph, 'info' everything; from the export and,
# through a sysroot without debugfs, from the stock /proc files
tool_times() {
	mkdir -p /tmp/stock
	ln -sfn /proc /tmp/stock/proc
	for src in "" "--sysroot /tmp/stock"; do
		line=
		for c in info "classes --count" stats; do
			# shellcheck disable=SC2086 # several words each
			line="$line${line:+, }${c%% *} $(ms "$(time_tool $src $c)")"
		done
		label=export
		[ -n "$src" ] && label="/proc files"
		echo "  lockdep-tool, $label: $line"
	done
}

compare() {	# LABEL GOAL-NOTE
	cat /proc/lockdep >/dev/null	# the first read adds chains of its own
	[ -d $EXP ] && cat $EXP/* >/dev/null
	classes=$(grep -c ' FD: *[0-9]' /proc/lockdep)
	edges=$(grep -c '^ ->' /proc/lockdep)
	echo "$1: $classes classes, $edges distance-1 dependencies"
	proc=$(time_reads /proc/lockdep)
	pbytes=$(wc -c </proc/lockdep)
	echo "  read /proc/lockdep:  $(ms "$proc") per read ($pbytes bytes)"
	if [ ! -d $EXP ]; then
		echo "  no $EXP: this kernel has no export"
		return
	fi
	exp=$(time_reads $EXP/*)
	ebytes=$(cat $EXP/* | wc -c)
	echo "  read $EXP/*: $(ms "$exp") per read ($ebytes bytes, $(awk -v e="$ebytes" -v p="$pbytes" 'BEGIN { printf "%.1f", e / p }')x those of /proc/lockdep)"
	line="   "
	for f in $EXP/*; do
		line="$line ${f##*/} $(ms "$(time_reads "$f")"),"
	done
	echo "${line%,}"
	awk -v p="$proc" -v e="$exp" -v g="$2" 'BEGIN {
		if (e > 0) printf "  export/proc: the export is %.2fx as fast as /proc/lockdep (%s)\n", p / e, g }'
	tool_times
}

# The goal (an export at least twice as fast, despite carrying more) is
# about graphs where /proc/lockdep's two searches per class cost: a real
# kernel's.  The tinyconfig guest's own graph is far smaller, and there the
# export's bytes decide; both are printed.
compare "boot graph" "small graph: /proc/lockdep's per-class searches are cheap, bytes decide"
if modprobe lockdep_scenarios 2>/dev/null && [ -w $RUN ]; then
	t0=$(now)
	if echo "graph $GRAPH" >$RUN; then
		t1=$(now)
		echo "graph load: $GRAPH classes added in $(ms "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")"
		compare "grown graph" "goal: >= 2x"
	else
		echo "graph load failed: no grown-graph figures"
	fi
else
	echo "no lockdep_scenarios module: no grown-graph figures"
fi
