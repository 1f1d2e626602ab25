#!/bin/sh
# Harness self-test, never part of the default run: every check passes but
# the kernel log gets an undeclared report title, which the host's console
# scan must turn into a failed run.
. /tests/ktap.sh
echo "WARNING: lockdep harness self-test: this report is undeclared" >/dev/kmsg
ktap_result ok "wrote-undeclared-warning"
