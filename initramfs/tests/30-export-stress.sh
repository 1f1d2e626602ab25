#!/bin/sh
# Stress: 30 s of reading the whole export while lock classes come and go
# (module load/unload, dynamic keys): no crash, no report, and every read
# whose generations agree is internally consistent.
. /tests/ktap.sh
export_present || exit 0
ktap_import sh /tests/export-stress.sh "${EXPORT_STRESS_SECONDS:-30}"
