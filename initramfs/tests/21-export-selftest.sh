#!/bin/sh
# The export checks can fail: each invariant is broken in a copy of a
# snapshot and the check guarding it must turn red (export-tests.sh
# --selftest).
. /tests/ktap.sh
export_present || exit 0
ktap_import sh /tests/export-tests.sh --selftest
