#!/usr/bin/env bash
# Every test of the project.  `test.sh host`: host-only suites; `test.sh all`
# adds the kernel build and the QEMU boots.  Ends with one line
# "N passed, N failed, N skipped"; exit 0 only when nothing failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$LOCKDEP_TOP"

what=${1:-all}
T=$BUILD/test
rm -rf "$T"
mkdir -p "$T"
PASSED=0 FAILED=0 SKIPPED=0
FAILURES=()
t_start=$(date +%s)

pass() { PASSED=$((PASSED + 1)); printf '  ok      %s\n' "$1"; }
fail() {
	FAILED=$((FAILED + 1)); FAILURES+=("$1")
	printf '  FAILED  %s\n' "$1"
	[ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/          /' | head -n 20
}
skip() { SKIPPED=$((SKIPPED + 1)); printf '  skip    %s (%s)\n' "$1" "$2"; }

# suite_ktap NAME FILE RC: fold a KTAP document into the totals, one line
# per failing case.
suite_ktap() {
	local name=$1 file=$2 rc=$3 counts p f s
	counts=$(scripts/ktap-check.sh --count "$file")
	read -r p f s <<<"$counts"
	PASSED=$((PASSED + p)); FAILED=$((FAILED + f)); SKIPPED=$((SKIPPED + s))
	# a malformed document (no plan, 1..0, missing results) fails too
	scripts/ktap-check.sh "$file" >/dev/null || { [ "$rc" != 0 ] || rc=ktap; }
	if [ "$f" != 0 ] || [ "$rc" != 0 ]; then
		FAILURES+=("$name")
		printf '  FAILED  %s: %s passed, %s failed, %s skipped (exit %s)\n' "$name" "$p" "$f" "$s" "$rc"
		grep -E '^not ok|^# ' "$file" | grep -v '^# running' | head -n 30 | sed 's/^/          /'
		scripts/ktap-check.sh "$file" | head -n 10 | sed 's/^/          /'
		# a run that failed outside its KTAP (console scan, crash) counts once
		if [ "$f" = 0 ]; then FAILED=$((FAILED + 1)); fi
	else
		printf '  ok      %s: %s passed, %s skipped\n' "$name" "$p" "$s"
	fi
}

# expect_rc NAME WANT CMD...: a check on an exit status
expect_rc() {
	local name=$1 want=$2 rc out
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ]; then pass "$name"; else
		fail "$name" "exit $rc, want $want; output:
$(printf '%s\n' "$out" | tail -n 15)"
	fi
}

# expect_fail NAME ERE CMD...: CMD exits 1 for the reason ERE names
# (a line of its output), not for any failure (a usage error, no guest)
expect_fail() {
	local name=$1 re=$2 rc out
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && grep -qE "$re" <<<"$out"; then pass "$name"; else
		fail "$name" "exit $rc, want 1 and a line matching '$re'; output:
$(printf '%s\n' "$out" | tail -n 15)"
	fi
}

host_suites() {
	echo "host tests"
	scripts/harness-selftest.sh >"$T/harness.ktap" 2>&1
	suite_ktap harness-unit "$T/harness.ktap" $?
	scripts/kernel-selftest.sh >"$T/kernel-sh.ktap" 2>&1
	suite_ktap "kernel.sh re-runs (fake source)" "$T/kernel-sh.ktap" $?
	# (bounded: a hang in a host test must not eat CI's 90 minutes)
	timeout -k 10 1800 make -s --no-print-directory -C lockdep-tool check >"$T/tool.ktap" 2>"$T/tool.err"
	rc=$?
	[ -s "$T/tool.ktap" ] || cat "$T/tool.err" >"$T/tool.ktap"
	suite_ktap lockdep-tool "$T/tool.ktap" $rc
	[ $rc = 0 ] || tail -n 20 "$T/tool.err" | sed 's/^/          /'
}

guest_suites() {
	echo "building the kernel, the tool and the guest image (make initramfs)"
	make -s initramfs 2>&1 | tee "$T/build.log"
	if [ "${PIPESTATUS[0]}" != 0 ]; then
		fail "build" "make initramfs failed (build/test/build.log)"
		return
	fi
	local RQ="./run-qemu.sh -q"

	echo "guest tests (QEMU, one boot each)"
	local b0 b1
	b0=$(date +%s)
	$RQ --test --out "$T/guest-default" >"$T/guest-default.out" 2>&1
	rc=$?
	b1=$(date +%s)
	cp "$T/guest-default/ktap" "$T/guest-default.ktap" 2>/dev/null || cp "$T/guest-default.out" "$T/guest-default.ktap"
	suite_ktap "guest-default ($((b1 - b0))s boot+tests)" "$T/guest-default.ktap" $rc
	[ $rc = 0 ] || tail -n 5 "$T/guest-default.out" | sed 's/^/          /'
	if [ $rc = 124 ] || [ $rc = 125 ]; then
		# a kernel that hangs or dies in its first boot would do so in
		# the 27 boots to come, each until its watchdog: not run, failed
		fail "the other guest suites" "not run: the first boot hung or died (exit $rc, build/test/guest-default/)"
		return
	fi

	echo "lockdep conformance suite (one boot per reporting scenario)"
	scripts/conformance.sh --out "$T/conformance" --fixtures "$T/captured" >"$T/conformance.ktap" 2>"$T/conformance.err"
	rc=$?
	suite_ktap conformance "$T/conformance.ktap" $rc
	grep -h 'took\|wall' "$T/conformance.ktap" "$T/conformance.err" | tail -n 1 | sed 's/^#* */          /'
	[ $rc = 0 ] || tail -n 10 "$T/conformance.err" | sed 's/^/          /'
	# cross-boot analysis: A -> B seen on one boot, B -> A on another; only
	# the union has the cycle, with the id report gives the AB-BA console
	CONSOLE="$T/captured/abba.console" lockdep-tool/tests/crossboot.sh \
		"$T/captured/snapshots/half-ab" "$T/captured/snapshots/half-ba" \
		>"$T/crossboot.ktap" 2>"$T/crossboot.err"
	suite_ktap "cross-boot cycles (two boots)" "$T/crossboot.ktap" $?
	# the suite can fail: a swapped title, a wrong graph check, a silent
	# boot that reports must each turn it red
	scripts/conformance.sh --prove-red --out "$T/conformance-red" >"$T/conformance-red.ktap" 2>"$T/conformance-red.err"
	suite_ktap "conformance --prove-red" "$T/conformance-red.ktap" $?

	echo "harness: run-qemu.sh and the console scan"
	expect_fail "a failing guest check makes --test fail" \
		'^not ok [0-9]+ harness-fail:this-must-fail' \
		$RQ --test --out "$T/harness-fail" harness-fail
	expect_fail "an undeclared kernel report makes --test fail" \
		'^console-scan: .*unexpected report: WARNING: lockdep harness self-test' \
		$RQ --test --out "$T/harness-badness" harness-badness
	expect_rc "a declared kernel report is accepted" 0 \
		$RQ --test --out "$T/harness-declared" \
		--expect "WARNING: lockdep harness self-test: this report is undeclared" harness-badness
	local out
	out=$($RQ --out "$T/cmd-stats" -- cat /proc/lockdep_stats 2>&1)
	if [ $? = 0 ] && grep -q 'lock-classes:' <<<"$out"; then
		pass "run-qemu.sh -- cat /proc/lockdep_stats prints the stats"
	else
		fail "run-qemu.sh -- cat /proc/lockdep_stats prints the stats" "$out"
	fi
	expect_rc "run-qemu.sh -- false exits 1" 1 $RQ --out "$T/cmd-false" -- false
	expect_rc "run-qemu.sh -- 'exit 7' exits 7" 7 $RQ --out "$T/cmd-exit7" -- 'exit 7'
	mkdir -p "$T/share,dir"
	rm -f "$T/share,dir/from-guest"
	expect_rc "run-qemu.sh --share (a folder with a comma): the guest writes to /host" 0 \
		$RQ --out "$T/cmd-share" --share "$T/share,dir" -- 'uname -r >/host/from-guest'
	if [ -s "$T/share,dir/from-guest" ]; then pass "a file written to /host appears on the host"
	else fail "a file written to /host appears on the host" "$T/share,dir/from-guest is missing"; fi
	# the guest cannot mount it (another tag): nothing runs, exit 3
	rm -f "$T/share,dir/from-guest"
	expect_rc "a shared folder the guest cannot mount: exit 3" 3 \
		env LOCKDEP_TEST_SHARE_TAG=elsewhere \
		$RQ --out "$T/cmd-share-fail" --share "$T/share,dir" -- 'echo ran; uname -r >/host/from-guest'
	if [ ! -e "$T/share,dir/from-guest" ] && [ -f "$T/cmd-share-fail/stdout" ] &&
	   ! grep -q ran "$T/cmd-share-fail/stdout"; then
		pass "... and the command was not run"
	else
		fail "... and the command was not run" "it ran"
	fi
	expect_rc "the watchdog kills a hung guest (exit 124)" 124 \
		$RQ --out "$T/cmd-hang" --no-share --timeout 25 -- 'sleep 1000'
	expect_rc "a panicking guest is reported (exit 125)" 125 \
		$RQ --out "$T/cmd-panic" --no-share --append rdinit=/bin/false -- true
}

case "$what" in
host)	host_suites ;;
all)	host_suites; guest_suites ;;
*)	die "usage: test.sh host|all" ;;
esac

t=$(( $(date +%s) - t_start ))
echo
echo "took $((t / 60))m$((t % 60))s; logs and run folders in build/test/"
[ ${#FAILURES[@]} -gt 0 ] && printf 'failed: %s\n' "${FAILURES[@]}"
echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
