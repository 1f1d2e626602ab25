#!/usr/bin/env bash
# Host unit tests of the harness's own checkers (console-scan.sh and
# ktap-check.sh) on small synthetic inputs.  Prints KTAP.
set -uo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. ./selftest-lib.sh

printf '[    0.000000] Linux version 6.12\r\n[    1.000000] Good, all 261 testcases passed! |\r\n' >"$tmp/clean.log"
cp "$tmp/clean.log" "$tmp/circular.log"
printf '[    5.000000] ======================================================\r\n[    5.000000] WARNING: possible circular locking dependency detected\r\n[    5.000000] 6.12.118 #1 Not tainted\r\n' >>"$tmp/circular.log"
cp "$tmp/circular.log" "$tmp/two.log"
printf '[    6.000000] BUG: sleeping function called from invalid context at x.c:1\r\n' >>"$tmp/two.log"
printf 'Kernel panic - not syncing: Attempted to kill init!\n' >"$tmp/panic.log"
cp "$tmp/clean.log" "$tmp/wait.log"
printf '[    7.000000] [ BUG: Invalid wait context ]\r\n' >>"$tmp/wait.log"
C="WARNING: possible circular locking dependency detected"
cp "$tmp/clean.log" "$tmp/exit.log"
printf '[    8.000000] WARNING: lds/held-exit/93 still has locks held!\r\n' >>"$tmp/exit.log"
X="WARNING: lds/held-exit/* still has locks held!"

t "console-scan: a clean log passes" 0 ./console-scan.sh "$tmp/clean.log"
: >"$tmp/empty.log"
t "console-scan: an empty log fails" 1 ./console-scan.sh "$tmp/empty.log"
printf 'Run /init as init process\r\n' >"$tmp/nobanner.log"
t "console-scan: a log without the kernel's banner fails" 1 ./console-scan.sh "$tmp/nobanner.log"
# the banner is the first line, and more than a pipe holds follows it: a
# search that stops at the banner must not fail the scan (pipefail saw
# the writer of a pipe it closed early killed by SIGPIPE)
{ cat "$tmp/clean.log"; for i in $(seq 4000); do
	printf '[    2.%06d] random: crng init done, some padding to be long\r\n' "$i"
done; } >"$tmp/long.log"
t "console-scan: a long clean log passes" 0 ./console-scan.sh "$tmp/long.log"
t "console-scan: an undeclared report fails" 1 ./console-scan.sh "$tmp/circular.log"
t "console-scan: a declared report passes" 0 ./console-scan.sh --expect "$C" "$tmp/circular.log"
t "console-scan: a second, undeclared report fails" 1 ./console-scan.sh --expect "$C" "$tmp/two.log"
t "console-scan: a required report that is missing fails" 1 ./console-scan.sh --expect "$C" --require-expected "$tmp/clean.log"
t "console-scan: another title is not the declared one" 1 ./console-scan.sh --expect "WARNING: possible recursive locking detected" "$tmp/circular.log"
t "console-scan: a panic without time stamp fails" 1 ./console-scan.sh "$tmp/panic.log"
t "console-scan: --warn-only never fails" 0 ./console-scan.sh --warn-only "$tmp/two.log"
t "console-scan: lockdep's bracketed '[ BUG: ...]' title is a report" 1 ./console-scan.sh "$tmp/wait.log"
t "console-scan: a declared bracketed title passes" 0 ./console-scan.sh --expect "[ BUG: Invalid wait context ]" --require-expected "$tmp/wait.log"
t "console-scan: '*' in a title matches a task name and pid" 0 ./console-scan.sh --expect "$X" --require-expected "$tmp/exit.log"
t "console-scan: a title with '*' matches whole lines only" 1 ./console-scan.sh --expect "lds/held-exit/* still has locks held!" --expect "WARNING: lds/held-exit/* still has locks" "$tmp/exit.log"
t "console-scan: '.' in a title is only a dot" 1 ./console-scan.sh --expect "WARNING: lds.held-exit/* still has locks held!" "$tmp/exit.log"

printf 'KTAP version 1\n1..2\nok 1 a\nok 2 b # SKIP no\n' >"$tmp/good.ktap"
printf 'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b\n' >"$tmp/notok.ktap"
printf 'KTAP version 1\n1..3\nok 1 a\nok 2 b\n' >"$tmp/short.ktap"
printf 'KTAP version 1\nok 1 a\n' >"$tmp/noplan.ktap"
printf 'KTAP version 1\n1..2\nok 2 a\nok 1 b\n' >"$tmp/order.ktap"
: >"$tmp/empty.ktap"
printf 'KTAP version 1\n1..0\n' >"$tmp/zero.ktap"
t "ktap-check: a complete green document passes" 0 ./ktap-check.sh "$tmp/good.ktap"
t "ktap-check: a not-ok result fails" 1 ./ktap-check.sh "$tmp/notok.ktap"
t "ktap-check: fewer results than planned fail" 1 ./ktap-check.sh "$tmp/short.ktap"
t "ktap-check: a missing plan fails" 1 ./ktap-check.sh "$tmp/noplan.ktap"
t "ktap-check: results out of order fail" 1 ./ktap-check.sh "$tmp/order.ktap"
t "ktap-check: an empty document fails" 1 ./ktap-check.sh "$tmp/empty.ktap"
t "ktap-check: a plan of no results fails" 1 ./ktap-check.sh "$tmp/zero.ktap"
c=$(./ktap-check.sh --count "$tmp/short.ktap")
t "ktap-check --count: missing results count as failed" 0 test "$c" = "2 1 0"

# conformance.sh with a run-qemu.sh whose every guest hangs: each boot
# has a watchdog, and after two hung boots the rest are not booted
mkdir -p "$tmp/conf"
: >"$tmp/conf/bzImage"
: >"$tmp/conf/initrd"
printf '#!/bin/sh\necho "$*" >>"%s"\nexit 124\n' "$tmp/conf/calls" >"$tmp/conf/run-qemu"
chmod +x "$tmp/conf/run-qemu"
t "conformance: hung boots fail the suite" 1 env -u CONFORMANCE_TIMEOUT LOCKDEP_RUN_QEMU="$tmp/conf/run-qemu" \
	./conformance.sh --kernel "$tmp/conf/bzImage" --initrd "$tmp/conf/initrd" --out "$tmp/conf/out"
cp "$tmp/out" "$tmp/conf/ktap"
t "conformance: no boot after two hung ones" 0 test "$(wc -l <"$tmp/conf/calls")" = 2
t "conformance: every boot has a watchdog" 1 grep -v -- '--timeout 180 ' "$tmp/conf/calls"
c=$(grep -c '^not ok' "$tmp/conf/ktap")
p=$(sed -n 's/^1\.\.//p' "$tmp/conf/ktap")
t "conformance: the rows of the boots not made fail" 0 test "$c" = "$p" -a "$p" -gt 2
t "conformance: they say why" 0 grep -q '^# not booted: 2 boots before this one hung' "$tmp/conf/ktap"
# the guest reads the image's table: one not in the image is shared
t "conformance: a table the image lacks is shared with the guest" 0 grep -q -- '--share ' "$tmp/conf/calls"
mkdir -p "$tmp/conf/img/tests"
cp ../initramfs/tests/conformance.table "$tmp/conf/img/tests/"
(cd "$tmp/conf/img" && echo tests/conformance.table | cpio -o -H newc --quiet) | gzip >"$tmp/conf/initrd2"
: >"$tmp/conf/calls"
LOCKDEP_RUN_QEMU="$tmp/conf/run-qemu" ./conformance.sh --kernel "$tmp/conf/bzImage" \
	--initrd "$tmp/conf/initrd2" --out "$tmp/conf/out2" >/dev/null 2>&1
t "conformance: the image's own table is not shared" 1 grep -q -- '--share ' "$tmp/conf/calls"

selftest_end
