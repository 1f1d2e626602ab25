#!/usr/bin/env bash
# Benchmarks: figures and ratios, never pass/fail.  Runs the tool's host
# benchmarks and, in the guest, times reading the lockdep export against
# reading /proc/lockdep on the same boot and graph.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$LOCKDEP_TOP"

echo "== lockdep-tool (host)"
make -s --no-print-directory -C lockdep-tool bench

echo "== kernel export vs /proc/lockdep (guest, same boot)"
./run-qemu.sh -q --no-share -- sh /tests/bench-export.sh
