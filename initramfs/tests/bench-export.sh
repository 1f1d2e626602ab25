#!/bin/sh
# Benchmark (not a test): time reading the whole debugfs export against
# reading /proc/lockdep on the same boot and graph.  Prints medians and the
# ratio; never fails on numbers.
ROUNDS=${ROUNDS:-7}
READS=${READS:-5}
EXP=/sys/kernel/debug/lockdep

now() { cut -d' ' -f1 /proc/uptime; }

# time_reads FILES...: seconds per full read of FILES, median of ROUNDS
time_reads() {
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		t0=$(now)
		j=0
		while [ $j -lt "$READS" ]; do cat "$@" >/dev/null; j=$((j + 1)); done
		t1=$(now)
		awk -v a="$t0" -v b="$t1" -v n="$READS" 'BEGIN { printf "%.4f\n", (b - a) / n }'
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# warm up: the first read adds lock chains of its own
cat /proc/lockdep >/dev/null
[ -d $EXP ] && cat $EXP/* >/dev/null
classes=$(grep -c ' FD: *[0-9]' /proc/lockdep)
edges=$(grep -c '^ ->' /proc/lockdep)
echo "graph: $classes classes, $edges distance-1 edges in /proc/lockdep"
proc=$(time_reads /proc/lockdep)
echo "read /proc/lockdep:        ${proc}s (median of $ROUNDS x $READS reads, $(wc -c </proc/lockdep) bytes)"
if [ -d $EXP ]; then
	exp=$(time_reads $EXP/*)
	echo "read $EXP/*: ${exp}s ($(cat $EXP/* | wc -c) bytes)"
	awk -v p="$proc" -v e="$exp" 'BEGIN { if (e > 0) printf "export is %.1fx faster than /proc/lockdep (goal: >= 2x)\n", p / e; else print "export too fast to time at 10 ms resolution" }'
else
	echo "no $EXP: this kernel has no export"
fi
