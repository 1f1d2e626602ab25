#!/bin/sh
# The debugfs export (Documentation/locking/lockdep-debugfs.rst): a quiet
# snapshot is complete and agrees with /proc/lockdep* (export-tests.sh).
. /tests/ktap.sh
if [ ! -d /sys/kernel/debug/lockdep ]; then
	ktap_result skip export-present "this kernel has no /sys/kernel/debug/lockdep"
	exit 0
fi
ktap_import sh /tests/export-tests.sh
