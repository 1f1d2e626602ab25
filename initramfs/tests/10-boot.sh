#!/bin/sh
# The kernel we ship: lockdep is on, its /proc files are populated, the
# boot-time locking API selftests passed, and an ordinary workload (tmpfs,
# ext4 on a loop device, loopback TCP, UNIX sockets) runs without a report.
. /tests/ktap.sh

stat_val() {	# value of a /proc/lockdep_stats label
	awk -F: -v k="$1" '{ l = $1; sub(/^ +/, "", l) } l == k { gsub(/[^0-9]/, "", $2); print $2; exit }' /proc/lockdep_stats
}

selftests() {
	dmesg | grep -q 'Good, all [0-9]* testcases passed' || {
		dmesg | grep -i -A3 'testcases\|FAILED' | head -n 5
		return 1
	}
}
ktap_check locking-api-selftests-passed selftests

nontrivial() {	# FILE MIN-LINES
	[ -r "$1" ] || { echo "$1 missing"; return 1; }
	n=$(wc -l <"$1")
	[ "$n" -ge "$2" ] || { echo "$1 has $n lines, want >= $2"; return 1; }
}
ktap_check proc-lockdep nontrivial /proc/lockdep 100
ktap_check proc-lockdep-chains nontrivial /proc/lockdep_chains 100
ktap_check proc-lockdep-stats nontrivial /proc/lockdep_stats 20
ktap_check proc-lock-stat nontrivial /proc/lock_stat 20
ktap_check lock-stat-version grep -q '^lock_stat version 0.4' /proc/lock_stat

debug_locks_on() {
	v=$(stat_val debug_locks)
	[ "$v" = 1 ] || { echo "debug_locks is '$v'"; return 1; }
}
ktap_check debug-locks-after-boot debug_locks_on

classes_before=$(stat_val "lock-classes")

workload() {
	set -e
	# tmpfs
	mkdir -p /tmp/w
	i=0
	while [ $i -lt 50 ]; do echo "$i" >/tmp/w/f$i; i=$((i + 1)); done
	cat /tmp/w/* >/dev/null
	rm -r /tmp/w
	# ext4 on a loop device
	dd if=/dev/zero of=/tmp/ext4.img bs=1M count=8 2>/dev/null
	losetup /dev/loop0 /tmp/ext4.img
	mke2fs -q /dev/loop0
	mkdir -p /mnt/e
	mount -t ext4 /dev/loop0 /mnt/e
	echo hello >/mnt/e/file
	mkdir /mnt/e/dir
	mv /mnt/e/file /mnt/e/dir/
	sync
	umount /mnt/e
	losetup -d /dev/loop0
	rm /tmp/ext4.img
	# loopback TCP
	nc -l -p 4711 >/tmp/nc.out &
	sleep 1
	echo ping | nc 127.0.0.1 4711
	wait
	grep -q ping /tmp/nc.out
	# UNIX datagram sockets (syslogd + logger)
	syslogd -n -O /tmp/syslog &
	pid=$!
	sleep 1
	logger lockdep-workload
	sleep 1
	kill $pid
	grep -q lockdep-workload /tmp/syslog
}
ktap_check workload workload

ktap_check debug-locks-after-workload debug_locks_on

grew() {
	after=$(stat_val "lock-classes")
	[ "$after" -gt "$classes_before" ] || { echo "lock-classes $classes_before -> $after"; return 1; }
}
ktap_check workload-registered-new-classes grew

no_report() {
	! dmesg | grep -E 'WARNING:|BUG:|INFO: |Oops'
}
ktap_check no-kernel-report no_report
