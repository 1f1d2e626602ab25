#!/bin/sh
# The debugfs export (Documentation/locking/lockdep-debugfs.rst): a quiet
# snapshot is complete and agrees with /proc/lockdep* (export-tests.sh).
. /tests/ktap.sh
export_present || exit 0
ktap_import sh /tests/export-tests.sh
