#!/bin/sh
# The live tool in the guest agrees with the kernel's own /proc/lockdep:
# the same classes with the same FD, BD and usage characters, whichever
# source the tool reads (the debugfs export when present, else /proc).
. /tests/ktap.sh

ktap_check tool-on-path command -v lockdep-tool

# name FD BD usage, one line per class, sorted
from_proc() {
	awk '/ FD: *[0-9]/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "FD:") fd = $(i + 1)
			if ($i == "BD:") { bd = $(i + 1); u = $(i + 2); sub(/:$/, "", u)
				name = ""; for (j = i + 3; j <= NF; j++) name = name (j > i + 3 ? " " : "") $j }
		}
		print name, fd, bd, u
	}' /proc/lockdep | sort
}
from_tool() {
	lockdep-tool classes | awk 'NR > 1 {
		name = ""; for (j = 6; j <= NF; j++) name = name (j > 6 ? " " : "") $j
		print name, $2, $3, $4 }' | sort
}

agree() {
	# the graph may grow while we read: retry a few times for a quiet moment
	n=0
	while [ $n -lt 5 ]; do
		from_tool >/tmp/tool.cls && from_proc >/tmp/proc.cls &&
			cmp -s /tmp/tool.cls /tmp/proc.cls && return 0
		n=$((n + 1))
	done
	echo "$(wc -l </tmp/proc.cls) classes in /proc, $(wc -l </tmp/tool.cls) from the tool"
	diff /tmp/proc.cls /tmp/tool.cls | head -n 5
	return 1
}
ktap_check live-classes-agree-with-proc-lockdep agree

count_agrees() {
	t=$(lockdep-tool classes --count)
	p=$(grep -c ' FD: *[0-9]' /proc/lockdep)
	[ "$t" = "$p" ] || { echo "tool $t, /proc/lockdep $p"; return 1; }
}
ktap_check live-class-count count_agrees

json_ok() {
	lockdep-tool -j stats | grep -q '"format_version"'
}
ktap_check live-json-stats json_ok

snapshot_roundtrip() {
	mkdir -p /tmp/snap
	cat /proc/lockdep >/tmp/snap/lockdep
	cat /proc/lockdep_chains >/tmp/snap/lockdep_chains
	cat /proc/lockdep_stats >/tmp/snap/lockdep_stats
	cat /proc/lock_stat >/tmp/snap/lock_stat
	lockdep-tool -s /tmp/snap save /tmp/s1.ldsnap &&
	lockdep-tool -s /tmp/s1.ldsnap save /tmp/s2.ldsnap &&
	cmp /tmp/s1.ldsnap /tmp/s2.ldsnap
}
ktap_check snapshot-save-roundtrip snapshot_roundtrip
