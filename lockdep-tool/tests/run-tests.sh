#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh - every host test of proc-interface and lockdep-tool, as KTAP
# on stdout (Documentation/dev-tools/ktap.rst).  Called by
# `make -C lockdep-tool check` with the paths of the sanitizer builds:
#   ASAN_BIN UNIT TSAN_UNIT BIN GEN OUT PI SRCDIR [CLANG] [MAKE]
# UPDATE=1 rewrites the golden files from the current output instead.
# Exit status: 0 when every test passed (skips allowed), 1 otherwise.

set -u
TOP=$(cd "$SRCDIR/.." && pwd)
TESTS=$SRCDIR/tests
WORK=$OUT/test-work
FIX=proc-interface/fixtures
REAL=$FIX/stock-6.12.118-workload
rm -rf "$WORK"
mkdir -p "$WORK"
RESULTS=$WORK/results
: > "$RESULTS"
ASAN_BASE=detect_leaks=1:abort_on_error=0:exitcode=99
UBSAN_BASE=print_stacktrace=1:halt_on_error=1:exitcode=99
# Every sanitizer report goes to a file in $SAN, where the last check
# looks: a check that reads only a command's output (a pipeline, stderr
# thrown away) cannot hide one.  The exit code stays 99 (sane()).
SAN=$WORK/sanitizer
mkdir -p "$SAN"
export ASAN_OPTIONS=$ASAN_BASE:log_path=$SAN/asan
export UBSAN_OPTIONS=$UBSAN_BASE:log_path=$SAN/ubsan
export SOURCE_DATE_EPOCH=1764748800
export LC_ALL=C
cd "$TOP" || exit 1

ok()   { echo "ok $1" >> "$RESULTS"; }
fail() { echo "not ok $1" >> "$RESULTS"; shift; for l in "$@"; do echo "# $l" >> "$RESULTS"; done; }
skip() { echo "ok $1 # SKIP $2" >> "$RESULTS"; }
# run NAME CMD...: a test that passes when CMD exits 0; output kept
check() {
	local name=$1; shift
	if "$@" > "$WORK/$name.log" 2>&1; then ok "$name"
	else fail "$name" "$(tail -n 5 "$WORK/$name.log")"; fi
}
# no sanitizer report and no signal
sane() {
	local rc=$1 log=$2
	[ "$rc" -lt 128 ] && [ "$rc" != 99 ] &&
		! grep -qE 'Sanitizer|runtime error' "$log"
}

# --- 1. unit tests of the library -------------------------------------------
# and a generated snapshot big enough for the parsers' second threads
if ! "$GEN" "$WORK/gen" 1024 20000 100000 > "$WORK/gen.log" 2>&1; then
	fail unit_generate_snapshot "$(head -c 500 "$WORK/gen.log")"
fi
# the generator itself: a dense graph of a power of two classes was never
# finished (two draws in a row reached a quarter of the pairs), and its
# arguments are checked
if timeout 60 "$GEN" "$WORK/gen-dense" 256 30000 100 > "$WORK/gen-dense.log" 2>&1 &&
   grep -c '^ -> ' "$WORK/gen-dense/proc/lockdep" | grep -qx 30000; then
	ok gen_snapshot_dense_power_of_two
else
	fail gen_snapshot_dense_power_of_two "$(head -c 500 "$WORK/gen-dense.log")"
fi
rm -rf "$WORK/gen-dense"
gen_bad=
for a in "abc" "1" "3 4" "100 10 x" "100 10 10 1"; do
	# shellcheck disable=SC2086 # a is several arguments
	"$GEN" "$WORK/gen-bad" $a > "$WORK/gen-bad.log" 2>&1
	rc=$?
	if [ $rc != 2 ] || ! grep -q '^gen-snapshot: \|^usage: ' "$WORK/gen-bad.log" ||
	   [ -e "$WORK/gen-bad" ]; then
		gen_bad="$gen_bad '$a' (exit $rc)"
	fi
done
if [ -z "$gen_bad" ]; then ok gen_snapshot_bad_arguments
else fail gen_snapshot_bad_arguments "refused badly:$gen_bad"; fi
# a timeout: a thread that waits forever must fail the run, not hang it
timeout 600 "$UNIT" "$FIX" "$WORK/gen" > "$WORK/unit.log" 2> "$WORK/unit.err"
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*|"not ok "*) echo "${line/ok /ok unit_}" >> "$RESULTS" ;;
	"# "*) echo "$line" >> "$RESULTS" ;;
	esac
done < "$WORK/unit.log"
if [ $rc != 0 ] || [ -s "$WORK/unit.err" ]; then
	fail unit_exit "exit $rc" "$(head -c 2000 "$WORK/unit.err")"
fi
# the same unit tests under ThreadSanitizer: the parsers' second threads
# (the export's chains thread, the /proc chain half, the chain index, FD/BD)
# against the first, on the fixtures and the generated snapshot
timeout 900 "$TSAN_UNIT" "$FIX" "$WORK/gen" > "$WORK/tsan.log" 2> "$WORK/tsan.err"
rc=$?
if [ $rc = 0 ] && ! grep -q 'ThreadSanitizer' "$WORK/tsan.err" &&
   ! grep -q '^not ok' "$WORK/tsan.log"; then
	ok unit_threads_under_tsan
else
	fail unit_threads_under_tsan "exit $rc" \
		"$(grep -m 20 -E 'ThreadSanitizer|^not ok|^    #[0-9]' \
			"$WORK/tsan.err" "$WORK/tsan.log")"
fi

# --- 2. golden CLI tests ------------------------------------------------------
# tests/golden/NAME.cmd: the arguments (shell words); NAME.stdin: input;
# NAME.out: stdout, "-- stderr --", stderr, "-- exit N --".
golden_run() {	# NAME -> writes $WORK/golden/NAME.actual
	local name=$1 args in=/dev/null
	args=$(cat "$TESTS/golden/$name.cmd")
	[ -f "$TESTS/golden/$name.stdin" ] && in=$TESTS/golden/$name.stdin
	mkdir -p "$WORK/golden"
	eval "set -- $args"
	(cd "$TOP" && timeout 60 "$ASAN_BIN" "$@" < "$in" \
		> "$WORK/golden/$name.stdout" 2> "$WORK/golden/$name.stderr")
	echo $? > "$WORK/golden/$name.rc"
	{ cat "$WORK/golden/$name.stdout"; echo "-- stderr --"
	  cat "$WORK/golden/$name.stderr"
	  echo "-- exit $(cat "$WORK/golden/$name.rc") --"; } \
		> "$WORK/golden/$name.actual"
}
golden_same() {	# EXPECTED ACTUAL DIFF: the comparison of every golden
	[ -f "$2" ] && diff -u "$1" "$2" > "$3" 2>&1
}
for cmdf in "$TESTS"/golden/*.cmd; do
	name=$(basename "$cmdf" .cmd)
	golden_run "$name"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$WORK/golden/$name.actual" "$TESTS/golden/$name.out"
	fi
	if golden_same "$TESTS/golden/$name.out" "$WORK/golden/$name.actual" \
		"$WORK/golden/$name.diff"; then
		ok "golden_$name"
	else
		fail "golden_$name" "$(head -n 30 "$WORK/golden/$name.diff")"
	fi
	# every JSON document parses, every DOT renders
	# exit 1 (something found) prints a whole document too
	rc=$(cat "$WORK/golden/$name.rc")
	if grep -qE '(^| )(-j|-p|--json|--pretty)( |$)' "$cmdf" &&
	   { [ "$rc" = 0 ] || [ "$rc" = 1 ]; }; then
		if jq -e . "$WORK/golden/$name.stdout" > /dev/null 2>&1
		then ok "json_$name"
		else fail "json_$name" "jq cannot parse the output"; fi
	fi
	if grep -qE '(^| )dot( |$)' "$cmdf" &&
	   ! grep -qE '(^| )(-j|-p|--json|--pretty)( |$)' "$cmdf" &&
	   { [ "$rc" = 0 ] || [ "$rc" = 1 ]; }; then
		if dot -Tsvg "$WORK/golden/$name.stdout" -o /dev/null \
			2> "$WORK/golden/$name.dot.err" &&
		   [ ! -s "$WORK/golden/$name.dot.err" ]
		then ok "dot_$name"
		else fail "dot_$name" "$(head -n 3 "$WORK/golden/$name.dot.err")"; fi
	fi
done

# the golden comparison notices a changed output and a missing one, and
# passes the same (harness self-test)
first=$(ls "$TESTS"/golden/*.out | head -n 1)
act=$WORK/golden/$(basename "$first" .out).actual
sed '1s/^/X/' "$first" > "$WORK/tampered.out"
if golden_same "$first" "$act" "$WORK/self.diff" &&
   ! golden_same "$WORK/tampered.out" "$act" "$WORK/self.diff" &&
   ! golden_same "$first" "$WORK/no-such.actual" "$WORK/self.diff"; then
	ok harness_detects_golden_change
else
	fail harness_detects_golden_change
fi

# --- 3. JSON and DOT for every command on every fixture ----------------------
sweep_fail=
# the runs that must fail (exit 3, the data is not in that source); every
# other one must succeed
sweep_errors='noprove:chains
noprove:deps @0 --depth 3
noprove:deps @0 --reverse
noprove:chains @0 --irq-context hardirq
export:lockstat --top 3
debug-off:chains
debug-off:chains @0 --irq-context hardirq'
for src in $FIX/handmade/prove $FIX/handmade/noprove $FIX/handmade/export \
	   $FIX/handmade/debug-off $REAL; do
	[ -e "$src" ] || continue
	first=$("$ASAN_BIN" -s "$src" -j classes 2>/dev/null |
		jq -r '.classes[0].name // empty')
	for c in "classes" "classes --usage hardirq-safe --sort bd" \
		 "stats" "lockstat --top 3" "chains" "info" "help" \
		 "show @0" "deps @0 --depth 3" "deps @0 --reverse" "dot" \
		 "dot @0 --depth 2" "chains @0 --irq-context hardirq"; do
		eval "set -- $c"
		out=$WORK/sweep.json
		"$ASAN_BIN" -s "$src" -j "$@" > "$out" 2> "$WORK/sweep.err"
		rc=$?
		want=0
		grep -qxF "$(basename "$src"):$c" <<<"$sweep_errors" && want=3
		if ! sane $rc "$WORK/sweep.err" || [ $rc != $want ] ||
		   { [ $rc = 0 ] &&
		   ! jq -e '.format_version == 1' "$out" > /dev/null 2>&1; }; then
			sweep_fail="$sweep_fail [$src -j $c: rc $rc, want $want]"
		fi
		if [ "$1" = dot ]; then
			"$ASAN_BIN" -s "$src" "$@" > "$WORK/sweep.dot" 2>/dev/null
			if [ $? = 0 ] && ! dot -Tsvg "$WORK/sweep.dot" \
				-o /dev/null 2>/dev/null; then
				sweep_fail="$sweep_fail [$src $c: dot failed]"
			fi
			"$ASAN_BIN" -s "$src" "$@" 2>/dev/null |
				cmp -s - "$WORK/sweep.dot" ||
				sweep_fail="$sweep_fail [$src $c: not deterministic]"
		fi
	done
	[ -n "$first" ] || sweep_fail="$sweep_fail [$src: no classes]"
done
if [ -z "$sweep_fail" ]; then ok json_dot_sweep_all_fixtures
else fail json_dot_sweep_all_fixtures "$sweep_fail"; fi

# --- 3b. a command line reads only what its command looks at (CMD_READS) ----
# ... and answers as if it had read everything: same output, exit status,
# errors and warnings, but for the warnings a full load raises about the
# files (`info` shows them all), which concern files the command may not
# read.  Where a full load fails, only sanity is asked.  Sources:
# directories, a snapshot file, lone files, live trees.
"$ASAN_BIN" -s $FIX/handmade/export save "$WORK/only.snap" > /dev/null
mkdir -p "$WORK/only-live/sys/kernel/debug" "$WORK/only-proc/proc"
cp -r $FIX/handmade/export/lockdep "$WORK/only-live/sys/kernel/debug/"
cp "$REAL"/lock* "$WORK/only-proc/proc/"
only_fail=''
only_n=0
for src in "-s $FIX/handmade/prove" "-s $FIX/handmade/noprove" \
	   "-s $FIX/handmade/export" "-s $FIX/handmade/export-inconsistent" \
	   "-s $FIX/handmade/debug-off" "-s $FIX/analysis/irq" \
	   "-s $FIX/analysis/rwsem" "-s $REAL" "-s $FIX/export-6.12.118-workload" \
	   "-s $WORK/only.snap" "-s $REAL/lockdep" "-s $REAL/lockdep_stats" \
	   "-s $REAL/lock_stat" "--sysroot $WORK/only-proc" \
	   "--sysroot $WORK/only-live"; do
	# shellcheck disable=SC2086
	LOCKDEP_TOOL_LOAD_ALL=1 "$ASAN_BIN" $src info > /dev/null \
		2> "$WORK/only.info"
	full=$?
	grep '^lockdep-tool: warning: ' "$WORK/only.info" > "$WORK/only.loadwarn"
	for c in "classes" "classes --sort ops --usage irq-unsafe" "stats" \
		 "lockstat" "lockstat --sort wait --top 3" "chains" "chains @0" \
		 "chains --irq-context softirq --count" "deps @0 --depth 2" \
		 "deps @1 --reverse" "dot" "dot @1" "dot --path @0 @1" \
		 "why @0 @1" "why @1 @0" "path @0 @1" "path --all @1 @0" \
		 "cycles" "cycles --weak" "irq-check" \
		 "report $FIX/reports/abba.console" \
		 "report $FIX/reports/hardirq-safe-unsafe.console --brief"; do
		for j in "" -j; do
			# shellcheck disable=SC2086
			timeout 30 "$ASAN_BIN" $src $j $c > "$WORK/only.a" \
				2> "$WORK/only.ae"
			ra=$?
			# shellcheck disable=SC2086
			LOCKDEP_TOOL_LOAD_ALL=1 timeout 30 "$ASAN_BIN" $src $j $c \
				> "$WORK/only.b" 2> "$WORK/only.be"
			rb=$?
			only_n=$((only_n + 1))
			if [ $full != 0 ]; then
				sane $ra "$WORK/only.ae" ||
					only_fail="$only_fail [$src $j $c: rc $ra]"
				continue
			fi
			if [ $ra != $rb ] || ! cmp -s "$WORK/only.a" "$WORK/only.b" ||
			   ! diff -q <(grep -vxF -f "$WORK/only.loadwarn" "$WORK/only.ae") \
				<(grep -vxF -f "$WORK/only.loadwarn" "$WORK/only.be") \
				> /dev/null; then
				only_fail="$only_fail [$src $j $c: rc $ra/$rb]"
			fi
		done
	done
done
if [ -z "$only_fail" ] && [ $only_n -gt 500 ]; then ok load_only_what_command_reads
else fail load_only_what_command_reads "$only_n runs:$only_fail"; fi

# LOCKDEP_TOOL_* are booleans: empty and 0 are off (the man page)
env_bad=''
for v in 0 '' 1 yes; do
	want=0
	case $v in 1|yes) want=1 ;; esac
	n=$(LOCKDEP_TOOL_TIMING=1 LOCKDEP_TOOL_LOAD_ALL=$v "$ASAN_BIN" -s "$REAL" \
		stats 2>&1 > /dev/null | grep -c '^time load:lockdep classes ')
	[ "$n" = $want ] || env_bad="$env_bad [LOAD_ALL='$v': $n]"
	n=$(LOCKDEP_TOOL_TIMING=$v "$ASAN_BIN" -s "$REAL" stats 2>&1 \
		> /dev/null | grep -c '^time load ')
	[ "$n" = $want ] || env_bad="$env_bad [TIMING='$v': $n]"
done
if [ -z "$env_bad" ]; then ok environment_flags
else fail environment_flags "$env_bad"; fi

# --- 4. the tool agrees with the file it read --------------------------------
if [ -e "$REAL" ]; then
	want=$(grep -c '^[^ ].*: ' "$REAL/lockdep")
	got=$("$ASAN_BIN" -s "$REAL" classes --count)
	edges=$(grep -c '^ -> ' "$REAL/lockdep")
	gote=$("$ASAN_BIN" -s "$REAL" -j info | jq .dependencies)
	chains=$(grep -c '^irq_context: ' "$REAL/lockdep_chains")
	gotc=$("$ASAN_BIN" -s "$REAL" chains --count)
	if [ "$want" = "$got" ] && [ "$edges" = "$gote" ] && [ "$chains" = "$gotc" ]
	then ok real_counts_match_files
	else fail real_counts_match_files "classes $got/$want deps $gote/$edges chains $gotc/$chains"; fi
else
	skip real_counts_match_files "no real fixture"
fi

# --- 5. snapshots: save, load, save gives the same bytes ---------------------
rt=ok
for src in $FIX/handmade/prove $FIX/handmade/export $REAL; do
	[ -e "$src" ] || continue
	"$ASAN_BIN" -s "$src" save "$WORK/a.snap" > /dev/null &&
	"$ASAN_BIN" -s "$WORK/a.snap" save "$WORK/b.snap" > /dev/null &&
	cmp -s "$WORK/a.snap" "$WORK/b.snap" &&
	"$ASAN_BIN" -s "$src" classes > "$WORK/a.txt" &&
	"$ASAN_BIN" -s "$WORK/a.snap" classes > "$WORK/b.txt" &&
	cmp -s "$WORK/a.txt" "$WORK/b.txt" || rt="$src"
done
if [ "$rt" = ok ]; then ok snapshot_save_roundtrip_bytes
else fail snapshot_save_roundtrip_bytes "$rt"; fi

# a live read (through --sysroot) saved and reloaded
mkdir -p "$WORK/root/proc/sys/kernel"
cp $FIX/handmade/prove/lock* "$WORK/root/proc/"
echo 6.12.0-test > "$WORK/root/proc/sys/kernel/osrelease"
if "$ASAN_BIN" --sysroot "$WORK/root" save "$WORK/live.snap" > /dev/null &&
   head -n 4 "$WORK/live.snap" | grep -q '^release 6.12.0-test$' &&
   head -n 4 "$WORK/live.snap" | grep -q '^captured 2025-12-03T08:00:00Z$' &&
   "$ASAN_BIN" -s "$WORK/live.snap" stats > /dev/null
then ok live_sysroot_save
else fail live_sysroot_save "$(head -n 4 "$WORK/live.snap" 2>&1)"; fi
mkdir -p "$WORK/root/sys/kernel/debug"
cp -r $FIX/handmade/export/lockdep "$WORK/root/sys/kernel/debug/"
if "$ASAN_BIN" --sysroot "$WORK/root" -j info |
   jq -e '.format == "debugfs" and .consistent and
	  (.files | map(.name) | index("lock_stat")) != null' > /dev/null
then ok live_prefers_export
else fail live_prefers_export; fi
# an export that cannot be read (lockdown, permissions): /proc instead,
# said; as a user who is not root, in a tree that user may walk
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	np=$(mktemp -d /tmp/ld-nobody.XXXXXX)
	mkdir -p "$np/proc" "$np/sys/kernel/debug"
	cp -r $FIX/handmade/export/lockdep "$np/sys/kernel/debug/"
	cp $FIX/handmade/prove/lock* "$np/proc/"
	cp "$BIN" "$np/tool"
	chmod -R a+rX "$np"
	chmod 000 "$np/sys/kernel/debug/lockdep/classes"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$np/tool" --sysroot "$np" -j info > "$WORK/np.json" 2> "$WORK/np.err"
	rc=$?
	if [ $rc = 0 ] && jq -e '.format == "proc"' "$WORK/np.json" > /dev/null &&
	   grep -q 'classes: Permission denied: not readable, reading /proc instead' "$WORK/np.err"
	then ok live_unreadable_export_falls_back
	else fail live_unreadable_export_falls_back "rc $rc $(head -c 300 "$WORK/np.err")"; fi
	rm -rf "$np"
else
	skip live_unreadable_export_falls_back "not root, or no setpriv"
fi
# a sysroot of regular files as big as a real export's (streamed)
mkdir -p "$WORK/root-big/sys/kernel/debug"
cp -r $FIX/export-6.12.118-workload "$WORK/root-big/sys/kernel/debug/lockdep"
if "$ASAN_BIN" --sysroot "$WORK/root-big" -j info 2> "$WORK/root-big.err" |
   jq -e '.format == "debugfs" and .consistent' > /dev/null &&
   [ ! -s "$WORK/root-big.err" ]
then ok live_sysroot_big_export
else fail live_sysroot_big_export "$(head -c 300 "$WORK/root-big.err")"; fi

# save never cuts a file short: not an input file (refused, exit 2, the
# file as it was), and not the file it replaces when the save fails (an
# input changed after the load: exit 3, the old file and no temporary)
sv=$WORK/save-safe
mkdir -p "$sv"
cp -r $FIX/export-6.12.118-workload "$sv/ex"
cp $REAL/lockdep "$sv/lockdep"
sv_fail=''
for c in "-s $sv/ex save $sv/ex/traces" "-s $sv/lockdep save $sv/lockdep"; do
	f=${c##* }
	sum=$(cksum < "$f")
	# shellcheck disable=SC2086 # c is several words
	"$ASAN_BIN" $c > /dev/null 2> "$sv/err"
	rc=$?
	[ $rc = 2 ] && grep -q 'is one of the files being saved' "$sv/err" &&
		[ "$(cksum < "$f")" = "$sum" ] || sv_fail="$sv_fail [$c: rc $rc]"
done
echo "an older snapshot" > "$sv/old.snap"
coproc SAVE { "$ASAN_BIN" -s "$sv/ex" 2>&1; }
pid=$SAVE_PID	# unset when it ends
echo stats >&"${SAVE[1]}"
read -r _ <&"${SAVE[0]}"	# loaded: traces (streamed) is read again by save
touch -d '2001-01-01' "$sv/ex/traces"
echo "save $sv/old.snap" >&"${SAVE[1]}"
exec {SAVE[1]}>&-
cat <&"${SAVE[0]}" > "$sv/out"
wait $pid
rc=$?
[ $rc = 3 ] && grep -q 'traces: changed since it was loaded' "$sv/out" &&
	[ "$(cat "$sv/old.snap")" = "an older snapshot" ] &&
	[ -z "$(ls "$sv" | grep 'old.snap.')" ] ||
	sv_fail="$sv_fail [failed save: rc $rc $(ls "$sv" | tr '\n' ' ')]"
if [ -z "$sv_fail" ]; then ok save_never_cuts_a_file_short
else fail save_never_cuts_a_file_short "$sv_fail"; fi

# --- 5b. odd files: a FIFO, a pipe, a CRLF release, edited unions ----------
# a lock_stat of 1 MiB or more, streamed (its names copied out of the
# buffer they were read into), and a snapshot file as big, read into huge
# pages rather than mapped (snapshot.c, READ_HUGE_MIN), or through a pipe
# into a buffer that grows past that size (copied into huge pages):
# every row, under ASan
"$GEN" "$WORK/lsbig" 8191 1 1 > /dev/null 2>&1
ls_fail=''
"$ASAN_BIN" -s "$WORK/lsbig/proc" save "$WORK/lsbig.snap" > /dev/null 2>&1 ||
	ls_fail="$ls_fail [save]"
for src in "$WORK/lsbig/proc" "$WORK/lsbig.snap" pipe; do
	f=$src
	[ -d "$f" ] && f=$src/lock_stat
	[ "$src" = pipe ] && f=$WORK/lsbig.snap
	if [ "$src" = pipe ]; then
		"$ASAN_BIN" -s <(cat "$f") -j lockstat --top 8191
	else
		"$ASAN_BIN" -s "$src" -j lockstat --top 8191
	fi > "$WORK/lsbig.json" 2> "$WORK/lsbig.err"
	rc=$?
	# as many names as rows, each its class's
	n=$(python3 -c 'import json, sys
d = json.load(sys.stdin)["entries"]
print(len(d), len({e["printed_name"] for e in d if e["printed_name"] == e["name"]}))' \
		< "$WORK/lsbig.json" 2> /dev/null)
	sane $rc "$WORK/lsbig.err" && [ $rc = 0 ] && [ "$n" = "8191 8191" ] &&
		[ "$(wc -c < "$f")" -ge $((1 << 20)) ] ||
		ls_fail="$ls_fail [$src: rc $rc rows '$n' $(head -c 300 "$WORK/lsbig.err")]"
done
if [ -z "$ls_fail" ]; then ok lock_stat_over_1mib_streamed_read_whole_and_piped
else fail lock_stat_over_1mib_streamed_read_whole_and_piped "$ls_fail"; fi
rm -rf "$WORK/lsbig" "$WORK/lsbig.snap"
# a FIFO in a snapshot directory is refused, read or not, never waited on
mkdir -p "$WORK/odd"
cp -r $FIX/handmade/prove "$WORK/odd/fifo"
rm -f "$WORK/odd/fifo/lockdep_stats"
mkfifo "$WORK/odd/fifo/lockdep_stats"
odd_fail=''
for c in info stats classes; do
	timeout 10 "$ASAN_BIN" -s "$WORK/odd/fifo" $c > /dev/null 2> "$WORK/odd.err"
	rc=$?
	[ $rc = 3 ] && grep -q 'lockdep_stats: not a regular file' "$WORK/odd.err" ||
		odd_fail="$odd_fail [fifo $c: rc $rc]"
done
# a snapshot read through a pipe joins a union (read once)
"$ASAN_BIN" -s $FIX/handmade/prove save "$WORK/odd/prove.snap" > /dev/null
n=$(timeout 10 "$ASAN_BIN" -s <(cat "$WORK/odd/prove.snap") \
	-s $FIX/handmade/export classes --count 2> "$WORK/odd.err")
[ "$n" = "$("$ASAN_BIN" -s "$WORK/odd/prove.snap" -s $FIX/handmade/export \
	classes --count)" ] || odd_fail="$odd_fail [pipe in a union: '$n']"
# a release copied with CRLF
cp -r $FIX/handmade/prove "$WORK/odd/crlf"
printf '6.12.0-crlf\r\n' > "$WORK/odd/crlf/osrelease"
"$ASAN_BIN" -s "$WORK/odd/crlf" -j info | jq -e '.release == "6.12.0-crlf"' \
	> /dev/null || odd_fail="$odd_fail [crlf release]"
# a union file is held to the rules of version 1: nothing after the
# magic, a newline after 'end'
"$ASAN_BIN" -s $FIX/handmade/prove -s $FIX/handmade/export save \
	"$WORK/odd/u.snap" > /dev/null
# a union file and one more: three snapshots
"$ASAN_BIN" -s "$WORK/odd/u.snap" -s $FIX/handmade/noprove info 2>/dev/null |
	grep -q '^source: *union of 3 snapshots$' ||
	odd_fail="$odd_fail [union of a union file: count]"
sed '1s/$/ junk/' "$WORK/odd/u.snap" > "$WORK/odd/junk.snap"
head -c -1 "$WORK/odd/u.snap" > "$WORK/odd/cut.snap"
for f in junk cut; do
	"$ASAN_BIN" -s "$WORK/odd/$f.snap" stats > /dev/null 2> "$WORK/odd.err"
	rc=$?
	[ $rc = 3 ] && grep -q "$f.snap:[0-9]*: " "$WORK/odd.err" ||
		odd_fail="$odd_fail [$f union: rc $rc]"
done
if [ -z "$odd_fail" ]; then ok odd_files_fifo_pipe_crlf_union
else fail odd_files_fifo_pipe_crlf_union "$odd_fail"; fi

# an export file given alone: the directory to give instead is one shell
# word, whatever its name; none where no word can be copied (a tab) or
# where the message would cut it short (a long name)
hint_fail=''
for dir in "it's a dir" 'plain' "$(printf 'tab\there')" \
	"$(printf 'long%0200d x' 0)"; do
	mkdir -p "$WORK/hint/$dir"
	cp $FIX/handmade/export/lockdep/deps "$WORK/hint/$dir/deps"
	"$ASAN_BIN" -s "$WORK/hint/$dir/deps" stats > /dev/null 2> "$WORK/hint.err"
	rc=$?
	hint=$(sed -n 's/.*give its directory instead (-s \(.*\))$/\1/p' "$WORK/hint.err")
	case $dir in
	tab*|long*)
		[ $rc = 3 ] && [ -z "$hint" ] &&
			grep -q 'give its directory instead$' "$WORK/hint.err" ||
			hint_fail="$hint_fail [${dir%%[0-9]*}: rc $rc, '$hint']" ;;
	*)	eval "set -- $hint"
		[ $rc = 3 ] && [ $# = 1 ] && [ "$1" = "$WORK/hint/$dir" ] ||
			hint_fail="$hint_fail [$dir: rc $rc, '$hint']" ;;
	esac
done
if [ -z "$hint_fail" ]; then ok lone_export_file_hint_is_one_shell_word
else fail lone_export_file_hint_is_one_shell_word "$hint_fail"; fi

# --- 6. bad input: a clear error or a result, never a crash or a hang --------
BAD=$WORK/bad
mkdir -p "$BAD"
bad_fail=
# a generator that made nothing (or stopped half way) would test nothing
python3 "$TESTS/make-bad-inputs.py" "$BAD" "$FIX" "$REAL" ||
	bad_fail="[make-bad-inputs.py exited $?]"
nr_bad=$(find "$BAD" -mindepth 1 -maxdepth 1 | wc -l)
[ "$nr_bad" -ge 30 ] ||
	bad_fail="$bad_fail [only $nr_bad bad inputs, 30 expected]"
for d in "$BAD"/*; do
	[ -e "$d" ] || continue
	for c in classes stats lockstat chains "show @0" "dot" info; do
		eval "set -- $c"
		timeout 30 "$ASAN_BIN" -s "$d" "$@" > /dev/null 2> "$WORK/bad.err"
		rc=$?
		if [ $rc = 124 ] || ! sane $rc "$WORK/bad.err" ||
		   [ $rc = 1 ]; then
			bad_fail="$bad_fail [$(basename "$d") $c: rc $rc]"
		fi
		if [ $rc = 3 ] && ! grep -q '^lockdep-tool: error: ' "$WORK/bad.err"; then
			bad_fail="$bad_fail [$(basename "$d") $c: no error line]"
		fi
	done
done
if [ -z "$bad_fail" ]; then ok bad_inputs_never_crash
else fail bad_inputs_never_crash "$bad_fail"; fi
# a regular file over the 1 GiB limit is refused from its size, before a
# byte is read into memory (sparse files; the release binary under
# ulimit -v, as a sanitizer's reservations do not fit there)
big_fail=''
for f in lockdep lock_stat; do
	rm -rf "$BAD.big"
	cp -r "$REAL" "$BAD.big"
	truncate -s $(((1 << 30) + 1)) "$BAD.big/$f"
	(ulimit -v 400000; "$BIN" -s "$BAD.big" info) > /dev/null \
		2> "$WORK/big.err"
	rc=$?
	[ $rc = 3 ] && grep -q "^lockdep-tool: error: $BAD.big/$f: file larger than 1024 MiB$" \
		"$WORK/big.err" ||
		big_fail="$big_fail [$f: rc $rc $(head -c 200 "$WORK/big.err")]"
done
rm -rf "$BAD.big"
if [ -z "$big_fail" ]; then ok file_over_limit_refused_from_its_size
else fail file_over_limit_refused_from_its_size "$big_fail"; fi

# --- 6b. entries listed twice (a file that changed while it was read):
# counted once, or refused, with a message: never silently twice ----------
DUP=$WORK/dup
EXF=$FIX/export-6.12.118-workload
mkdir -p "$DUP"
dup_fail=''
# /proc/lockdep: the blocks of classes 5 and 100 again, later in the file
cp -r "$REAL" "$DUP/proc"
python3 - "$REAL/lockdep" "$DUP/proc/lockdep" <<'EOF'
import sys
t = open(sys.argv[1], 'rb').read().rstrip(b'\n').split(b'\n\n')
head, first = t[0].split(b'\n', 1)
b = [first] + t[1:]
b = b[:7] + [b[5]] + b[7:301] + [b[100]] + b[301:]
open(sys.argv[2], 'wb').write(head + b'\n' + b'\n\n'.join(b) + b'\n\n')
EOF
for c in "-j classes" "-j deps @100 --depth 3" "-j chains" "dot" "lockstat"; do
	# shellcheck disable=SC2086 # c is several words
	"$ASAN_BIN" -s "$REAL" $c > "$DUP/want" 2> /dev/null
	# shellcheck disable=SC2086
	"$ASAN_BIN" -s "$DUP/proc" $c > "$DUP/got" 2> "$DUP/err"
	cmp -s "$DUP/want" "$DUP/got" &&
		grep -q '2 classes listed again with the same key and name' "$DUP/err" ||
		dup_fail="$dup_fail [proc class twice: $c]"
done
# export deps: one entry twice; its pair listed once, with a warning
cp -r $EXF "$DUP/deps"
awk '{print} $0 == "0 1 1 SN 0" {print}' $EXF/deps > "$DUP/deps/deps"
"$ASAN_BIN" -s $EXF -j deps @0 > "$DUP/want" 2> /dev/null
"$ASAN_BIN" -s "$DUP/deps" -j deps @0 > "$DUP/got" 2> "$DUP/err"
cmp -s "$DUP/want" "$DUP/got" &&
	grep -q '1 dependency entry repeats an earlier one: ignored' "$DUP/err" ||
	dup_fail="$dup_fail [export dependency twice]"
# export chains: a chain twice, next to itself and far from it: refused
for at in 5 3900; do
	cp -r $EXF "$DUP/chains-$at"
	awk -v at=$at -v src=5 'NR == src {keep = $0} {print}
		NR == at {print keep}' $EXF/chains > "$DUP/chains-$at/chains"
	"$ASAN_BIN" -s "$DUP/chains-$at" chains --count > /dev/null 2> "$DUP/err"
	rc=$?
	[ $rc = 3 ] && grep -q "chains:$((at + 1)): chain 2 listed twice" "$DUP/err" ||
		dup_fail="$dup_fail [chain twice at $at: rc $rc]"
done
# lock_stat: a class's row twice: neither row is joined to it
cp -r "$REAL" "$DUP/ls"
awk '{print} /^ *console_mutex:/ {sub(/ 11 /, " 99 "); print}' \
	"$REAL/lock_stat" > "$DUP/ls/lock_stat"
"$ASAN_BIN" -s "$DUP/ls" -j lockstat --top 0 2> "$DUP/err" |
	jq -e '[.entries[] | select(.printed_name == "console_mutex") |
		select(.match == "ambiguous" and .class == null)] | length == 2' \
	> /dev/null && grep -q '2 rows name a class that another row names too' \
	"$DUP/err" || dup_fail="$dup_fail [lock_stat row twice]"
if [ -z "$dup_fail" ]; then ok entries_listed_twice_counted_once
else fail entries_listed_twice_counted_once "$dup_fail"; fi

# unknown is not none: usage stacks without the traces file, a share of
# a limit of 0, edges of a source without dependencies
unk_fail=''
cp -r $EXF "$DUP/notraces"
rm "$DUP/notraces/traces"
"$ASAN_BIN" -s "$DUP/notraces" show text_mutex 2> /dev/null |
	grep -q '^  usage traces: unknown' || unk_fail="$unk_fail [usage stacks]"
"$ASAN_BIN" -s "$DUP/notraces" -j show text_mutex 2> /dev/null |
	jq -e '.usage_traces == null' > /dev/null ||
	unk_fail="$unk_fail [usage stacks, JSON]"
cp -r "$REAL" "$DUP/max0"
sed -i 's/^ lock-classes: *\([0-9]*\) \[max: [0-9]*\]/ lock-classes: \1 [max: 0]/' \
	"$DUP/max0/lockdep_stats"
"$ASAN_BIN" -s "$DUP/max0" stats | grep -qE '^ lock-classes: +616 / 0$' ||
	unk_fail="$unk_fail [share of max 0]"
"$ASAN_BIN" -s $FIX/handmade/noprove -j dot 2> /dev/null |
	jq -e '.edges == null and (.nodes[0] | has("usage") and has("fd"))' \
	> /dev/null || unk_fail="$unk_fail [dot edges without dependencies]"
"$ASAN_BIN" -s $FIX/handmade/noprove dot 2> /dev/null | head -n 1 |
	grep -q 'dependencies unknown' || unk_fail="$unk_fail [dot header]"
if [ -z "$unk_fail" ]; then ok unknown_is_not_none
else fail unknown_is_not_none "$unk_fail"; fi

# a number the kernel cannot print is refused with its line, not wrapped
# or taken as a fact: FD past INT64_MAX, a negative or out-of-range
# export field, a lock_stat point count past INT64_MAX
rng_fail=''
rng_case() { # NAME SOURCE FILE LINE AWK-PROGRAM EXPECTED-MESSAGE
	rm -rf "$DUP/rng"
	cp -r "$2" "$DUP/rng"
	awk -v n="$4" "NR == n { $5 } {print}" "$2/$3" > "$DUP/rng/$3"
	"$ASAN_BIN" -s "$DUP/rng" show @2 > /dev/null 2> "$DUP/err"
	rc=$?
	[ $rc = 3 ] && grep -qF "rng/$3:$4: $6" "$DUP/err" ||
		rng_fail="$rng_fail [$1: rc $rc: $(head -c 200 "$DUP/err")]"
}
rng_case proc-fd "$REAL" lockdep 13 'sub(/FD: +8/, "FD:18446744073709551615")' \
	'bad number in'
rng_case proc-bd "$REAL" lockdep 13 'sub(/BD: +10/, "BD:9223372036854775808")' \
	'bad number in'
rng_case export-bd $EXF classes 5 '$12 = -1' "bad bd '-1'"
rng_case export-version $EXF classes 5 '$3 = -3' "bad name_version '-3'"
rng_case export-subclass $EXF classes 5 '$4 = 8' "bad subclass '8'"
rng_case export-wait $EXF classes 5 '$8 = 256' "bad wait_outer '256'"
rng_case export-ops $EXF classes 5 '$10 = -980' "bad ops '-980'"
rng_case lockstat-point "$REAL" lock_stat 8 \
	'sub(/ 1  /, " 9223372036854775808  ")' 'expected a lock_stat row or point'
# the largest subclass the kernel has still loads
rm -rf "$DUP/rng"
cp -r $EXF "$DUP/rng"
awk 'NR == 5 { $4 = 7 } {print}' $EXF/classes > "$DUP/rng/classes"
"$ASAN_BIN" -s "$DUP/rng" show @2 2> /dev/null | head -n 1 |
	grep -qx 'class @2: text_mutex/7' || rng_fail="$rng_fail [subclass 7]"
if [ -z "$rng_fail" ]; then ok numbers_out_of_range_refused
else fail numbers_out_of_range_refused "$rng_fail"; fi

# a file left out of a copy is named as missing, not blamed on the
# kernel's config, and checks that need it refuse instead of finding none
mis_fail=''
rm -rf "$DUP/mis"
cp -r $EXF "$DUP/mis"
rm "$DUP/mis/deps"
"$ASAN_BIN" -s "$DUP/mis" irq-check --brief > "$DUP/out" 2> "$DUP/err"
rc=$?
[ $rc = 3 ] && [ ! -s "$DUP/out" ] &&
	grep -qx "lockdep-tool: warning: export files not in this source, their data unknown: deps" "$DUP/err" &&
	grep -qF "no dependency data in this source (no 'deps' file in the export)" "$DUP/err" ||
	mis_fail="$mis_fail [export deps: rc $rc]"
rm -rf "$DUP/mis"
cp -r "$REAL" "$DUP/mis"
rm "$DUP/mis/lockdep_chains"
"$ASAN_BIN" -s "$DUP/mis" chains > /dev/null 2> "$DUP/err"
rc=$?
[ $rc = 3 ] && grep -qF "(no lockdep_chains file in this source)" "$DUP/err" ||
	mis_fail="$mis_fail [proc chains: rc $rc]"
rm "$DUP/mis/lock_stat"
mkdir "$DUP/mis/lock_stat"
"$ASAN_BIN" -s "$DUP/mis" lockstat > /dev/null 2> "$DUP/err"
rc=$?
[ $rc = 3 ] && grep -qF "mis/lock_stat: not a regular file" "$DUP/err" ||
	mis_fail="$mis_fail [lock_stat a directory: rc $rc]"
if [ -z "$mis_fail" ]; then ok missing_files_named
else fail missing_files_named "$mis_fail"; fi

# a copy cut at a line boundary: l_show() and lc_show() end every block
# with a blank line, lockdep_stats_show() with its last counter
cut_fail=
for f in lockdep lockdep_chains lockdep_stats; do
	rm -rf "$DUP/cut"; mkdir -p "$DUP/cut"
	cp "$REAL"/lockdep "$REAL"/lockdep_chains "$REAL"/lockdep_stats "$DUP/cut/"
	# up to the last block's last line, or without the last counter
	n=$(awk -v s=$([ $f = lockdep_stats ] && echo 1 || echo 0) \
		'NF { last = NR } END { print last - s }' "$REAL/$f")
	head -n "$n" "$REAL/$f" > "$DUP/cut/$f"
	"$ASAN_BIN" -s "$DUP/cut" info > "$DUP/out" 2> "$DUP/err"
	rc=$?
	[ $rc = 0 ] && grep -q "^partial: *yes" "$DUP/out" &&
		grep -qF "cut/$f" "$DUP/err" && grep -q "cut short" "$DUP/err" ||
		cut_fail="$cut_fail [$f: rc $rc $(head -c 200 "$DUP/err")]"
done
"$ASAN_BIN" -s "$REAL" info > "$DUP/out" 2> "$DUP/err"
grep -q "^partial: *yes" "$DUP/out" || [ -s "$DUP/err" ] &&
	cut_fail="$cut_fail [whole copy: $(head -c 200 "$DUP/err")]"
if [ -z "$cut_fail" ]; then ok cut_at_line_boundary_is_partial
else fail cut_at_line_boundary_is_partial "$cut_fail"; fi

# a trace id the traces file lacks: the stack is unknown (null), not "no
# stack saved" ([]); '-' stays "no stack saved"
rm -rf "$DUP/dg"; cp -r "$FIX/handmade/export" "$DUP/dg"
sed -i 's/^1 0 1 EN 100$/1 0 1 EN 99999/' "$DUP/dg/lockdep/deps"
sed -i 's/^0 USED_IN_HARDIRQ 160$/0 USED_IN_HARDIRQ 99999/' "$DUP/dg/lockdep/usage"
dg_fail=
"$ASAN_BIN" -s "$DUP/dg" show @1 > "$DUP/out" 2> /dev/null
grep -q -- '-> @0 .*stack unknown' "$DUP/out" ||
	dg_fail="$dg_fail [show @1: $(grep -- '-> @0' "$DUP/out")]"
"$ASAN_BIN" -s "$DUP/dg" show @0 > "$DUP/out" 2> /dev/null
grep -q 'hardirq-safe: unknown: the export does not give it' "$DUP/out" ||
	dg_fail="$dg_fail [show @0: $(grep 'hardirq-safe:' "$DUP/out")]"
"$ASAN_BIN" -s "$DUP/dg" why @1 @0 > "$DUP/out" 2> /dev/null
grep -q 'stack unknown: its trace is not in the traces file' "$DUP/out" ||
	dg_fail="$dg_fail [why: $(head -c 300 "$DUP/out")]"
got=$("$ASAN_BIN" -s "$DUP/dg" -j show @1 2> /dev/null |
	jq -c '[.deps_out[0].trace]')
[ "$got" = '[null]' ] || dg_fail="$dg_fail [json dep: $got]"
got=$("$ASAN_BIN" -s "$DUP/dg" -j show @0 2> /dev/null |
	jq -c '[.usage_traces."hardirq-safe"]')
[ "$got" = '[null]' ] || dg_fail="$dg_fail [json usage: $got]"
got=$("$ASAN_BIN" -s "$FIX/handmade/export" -j show @1 2> /dev/null |
	jq -c '[.usage_traces.used]')
[ "$got" = '[[]]' ] || dg_fail="$dg_fail [json no stack saved: $got]"
# a union keeps it unknown only where no snapshot has the stack
"$ASAN_BIN" -s "$DUP/dg" -s "$DUP/dg" show @0 > "$DUP/out" 2> /dev/null
grep -q 'hardirq-safe: unknown: the export does not give it' "$DUP/out" ||
	dg_fail="$dg_fail [union dg+dg: $(grep 'hardirq-safe:' "$DUP/out")]"
for u in "-s $DUP/dg -s $FIX/handmade/export" "-s $FIX/handmade/export -s $DUP/dg"; do
	"$ASAN_BIN" $u show '&rq->__lock' 2> /dev/null |
		grep -A1 'hardirq-safe:' > "$DUP/out"
	grep -q '#0 irq_enter_rcu' "$DUP/out" ||
		dg_fail="$dg_fail [union $u: $(head -c 200 "$DUP/out")]"
done
if [ -z "$dg_fail" ]; then ok dangling_trace_is_unknown
else fail dangling_trace_is_unknown "$dg_fail"; fi

# a bad lock_stat row names its field, without the name's padding
ls_fail=
mkdir -p "$DUP/ls"
for c in 's/^\( *event_mutex: *0 *\)1 /\11.5 /|row .event_mutex.: number 2 of 12 (contentions) is .1\.5.' \
	 's/^\( *event_mutex: *\)0 .*$/\10 1/|row .event_mutex.: 2 numbers, expected 12'; do
	sed "${c%%|*}" "$REAL/lock_stat" > "$DUP/ls/lock_stat"
	"$ASAN_BIN" -s "$DUP/ls/lock_stat" lockstat > /dev/null 2> "$DUP/err"
	rc=$?
	[ $rc = 3 ] && grep -q "lock_stat:6: ${c#*|}" "$DUP/err" ||
		ls_fail="$ls_fail [rc $rc $(head -c 200 "$DUP/err")]"
done
if [ -z "$ls_fail" ]; then ok lockstat_bad_field_named
else fail lockstat_bad_field_named "$ls_fail"; fi

# export messages name their file: a chain shorter than its depth, ids
# that lead nowhere (the summary names the directory)
ex_fail=
rm -rf "$DUP/exm"; cp -r "$FIX/handmade/export" "$DUP/exm"
sed -i 's/^1 0x0000000000000042 1 2 1:0 0:0$/1 0x0000000000000042 1 3 1:0 0:0/' \
	"$DUP/exm/lockdep/chains"
"$ASAN_BIN" -s "$DUP/exm" chains > /dev/null 2> "$DUP/err"
rc=$?
[ $rc = 3 ] && grep -q 'exm/lockdep/chains:4: depth 3, but 2 locks' "$DUP/err" ||
	ex_fail="$ex_fail [depth: rc $rc $(head -c 200 "$DUP/err")]"
sed -i 's/^1 0x0000000000000042 1 3 1:0 0:0$/1 0x0000000000000042 1 2 1:0 77:0/' \
	"$DUP/exm/lockdep/chains"
"$ASAN_BIN" -s "$DUP/exm" info > /dev/null 2> "$DUP/err"
grep -q 'exm/lockdep/chains: 1 reference to an unknown class' "$DUP/err" &&
	grep -q 'exm/lockdep: unknown ids although every file has one generation' "$DUP/err" ||
	ex_fail="$ex_fail [dangling: $(head -c 300 "$DUP/err")]"
if [ -z "$ex_fail" ]; then ok export_messages_name_their_file
else fail export_messages_name_their_file "$ex_fail"; fi

# a snapshot file's captured time is a real UTC moment or '-'
cap_fail=
"$ASAN_BIN" -s "$FIX/handmade/prove" save "$DUP/cap.snap" > /dev/null 2>&1
for t in 2026-13-01T00:00:00Z 2025-02-29T10:00:00Z 2026-12-06T24:00:00Z \
	 2026-12-06 yesterday; do
	sed "3s/.*/captured $t/" "$DUP/cap.snap" > "$DUP/cap2.snap"
	"$ASAN_BIN" -s "$DUP/cap2.snap" info > /dev/null 2> "$DUP/err"
	rc=$?
	[ $rc = 3 ] && grep -q "cap2.snap:3: captured: expected a UTC time" "$DUP/err" ||
		cap_fail="$cap_fail [$t: rc $rc]"
done
for t in 2024-02-29T10:00:00Z 2016-12-31T23:59:60Z -; do
	sed "3s/.*/captured $t/" "$DUP/cap.snap" > "$DUP/cap2.snap"
	"$ASAN_BIN" -s "$DUP/cap2.snap" info > /dev/null 2> "$DUP/err" ||
		cap_fail="$cap_fail [$t refused: $(head -c 200 "$DUP/err")]"
done
if [ -z "$cap_fail" ]; then ok snapshot_captured_time_checked
else fail snapshot_captured_time_checked "$cap_fail"; fi

# a device is not a snapshot: /dev/zero was read to the 1 GiB limit
"$ASAN_BIN" -s /dev/zero stats > /dev/null 2> "$DUP/err"
rc=$?
if [ $rc = 3 ] && grep -q '/dev/zero: a device' "$DUP/err"
then ok lone_device_is_refused
else fail lone_device_is_refused "rc $rc $(head -c 300 "$DUP/err")"; fi

# --- 7. exit status on a closed pipe and on a full disk ----------------------
# a reader gone before the first write (its output would fit in the pipe)
"$ASAN_BIN" -s "$REAL" classes 2> "$WORK/pipe.err" | true
rc=${PIPESTATUS[0]}
if [ "$rc" = 0 ] && [ ! -s "$WORK/pipe.err" ]; then ok epipe_is_quiet
else fail epipe_is_quiet "rc $rc $(head -c 300 "$WORK/pipe.err")"; fi
# save - writes the snapshot itself: the same when the reader goes away
"$ASAN_BIN" -s "$REAL" save - 2> "$WORK/pipe.err" | head -c 10 > /dev/null
rc=${PIPESTATUS[0]}
if [ "$rc" = 0 ] && [ ! -s "$WORK/pipe.err" ]; then ok epipe_save_is_quiet
else fail epipe_save_is_quiet "rc $rc $(head -c 300 "$WORK/pipe.err")"; fi
# a socket whose peer is gone (POLLHUP, not a pipe's POLLERR): as quiet
python3 -c 'import socket, subprocess, sys
a, b = socket.socketpair()
b.close()
p = subprocess.run(sys.argv[1:], stdout=a.fileno(), stderr=subprocess.PIPE)
sys.stderr.buffer.write(p.stderr)
sys.exit(p.returncode)' "$ASAN_BIN" -s "$REAL" classes 2> "$WORK/pipe.err"
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$WORK/pipe.err" ]; then ok epipe_socket_is_quiet
else fail epipe_socket_is_quiet "rc $rc $(head -c 300 "$WORK/pipe.err")"; fi
# batch mode: once the reader is gone (100 KiB, more than a pipe holds),
# the commands stop, quietly: the failure of a later one does not count
printf 'classes\nclasses\nclasses\nsave %s/no/such/dir/x\n' "$WORK" |
	"$ASAN_BIN" -s "$REAL" 2> "$WORK/pipe.err" | true
rc=${PIPESTATUS[1]}
if [ "$rc" = 0 ] && [ ! -s "$WORK/pipe.err" ]; then ok epipe_batch_stops_quietly
else fail epipe_batch_stops_quietly "rc $rc $(head -c 300 "$WORK/pipe.err")"; fi
if [ -w /dev/full ]; then
	"$ASAN_BIN" -s $FIX/handmade/prove classes > /dev/full 2> "$WORK/full.err"
	rc=$?
	if [ $rc = 3 ] && grep -q 'write error' "$WORK/full.err"
	then ok write_error_exit_3
	else fail write_error_exit_3 "rc $rc"; fi
	# in batch mode the command whose output was lost is the last
	printf 'classes\nsave %s/no/such/dir/x\n' "$WORK" |
		"$ASAN_BIN" -s $FIX/handmade/prove > /dev/full 2> "$WORK/full.err"
	rc=$?
	if [ $rc = 3 ] && [ "$(wc -l < "$WORK/full.err")" = 1 ] &&
	   grep -q '<stdin>:1: write error' "$WORK/full.err"
	then ok batch_write_error_stops
	else fail batch_write_error_stops "rc $rc $(head -c 300 "$WORK/full.err")"; fi
else
	skip write_error_exit_3 "no /dev/full"
fi

# batch mode: a stdin that cannot be read is an error, not an empty batch
"$ASAN_BIN" -s $FIX/handmade/prove < "$TESTS" > /dev/null 2> "$WORK/stdin.err"
rc=$?
if [ $rc = 3 ] && grep -q 'reading commands from standard input' "$WORK/stdin.err"
then ok batch_stdin_read_error_exit_3
else fail batch_stdin_read_error_exit_3 "rc $rc $(head -c 300 "$WORK/stdin.err")"; fi
# batch mode: a file that is standard input (its name, /dev/stdin) holds
# the commands, read as data it would eat them: refused like '-'
P=$FIX/handmade/prove
bad=
for line in "report /dev/stdin" "dot --report 1 --log /dev/stdin" \
	    "diff /proc/self/fd/0" "merge $P /dev/stdin"; do
	printf '%s\nstats\n' "$line" | "$ASAN_BIN" -s "$P" \
		> "$WORK/cs.out" 2> "$WORK/cs.err"
	rc=$?
	if [ $rc != 2 ] || [ -s "$WORK/cs.out" ] ||
	   ! grep -q "is standard input, which holds the commands" "$WORK/cs.err"
	then bad="$bad [$line: rc $rc $(head -c 200 "$WORK/cs.err")]"; fi
done
echo stats | "$ASAN_BIN" -s /dev/stdin > "$WORK/cs.out" 2> "$WORK/cs.err"
rc=$?
if [ $rc != 2 ] || ! grep -q "snapshot '/dev/stdin' is standard input" "$WORK/cs.err"
then bad="$bad [-s /dev/stdin: rc $rc $(head -c 200 "$WORK/cs.err")]"; fi
# on the command line standard input is free to hold the data
"$ASAN_BIN" -s /dev/stdin stats < "$P/lockdep_stats" > "$WORK/cs.out" 2>&1 ||
	bad="$bad [one command: $(head -c 200 "$WORK/cs.out")]"
if [ -z "$bad" ]; then ok batch_stdin_named_is_refused
else fail batch_stdin_named_is_refused "$bad"; fi
# a line of many words takes memory for the line, not words x line (the
# release binary: a sanitizer's reservations do not fit under ulimit -v)
python3 -c "print('classes ' + ' '.join(['x'] * 20000))" > "$WORK/words.in"
(ulimit -v 400000; "$BIN" -s $FIX/handmade/prove < "$WORK/words.in") \
	> /dev/null 2> "$WORK/words.err"
rc=$?
if [ $rc = 2 ] && grep -q 'too many arguments' "$WORK/words.err"
then ok batch_many_words_small_memory
else fail batch_many_words_small_memory "rc $rc $(head -c 300 "$WORK/words.err")"; fi
# a 10 MB class name: refused with the name cut short in the message
# (written back whole to an unbuffered stderr it took seconds), in the
# three messages that echo an argument
python3 -c "print('show ' + 'x' * (10 << 20)); print('deps @' + '9' * 99999)
print('dot --cycle c' + '1' * 99999)" > "$WORK/long.in"
long_fail=''
for n in 1 2 3; do
	sed -n "${n}p" "$WORK/long.in" |
		"$ASAN_BIN" -s $FIX/handmade/prove > /dev/null 2> "$WORK/long.err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -c < "$WORK/long.err")" -lt 1000 ] &&
		grep -q '\.\.\. ([0-9]* bytes)' "$WORK/long.err" ||
		long_fail="$long_fail [line $n: rc $rc, $(wc -c < "$WORK/long.err") bytes]"
done
if [ -z "$long_fail" ]; then ok batch_long_name_cut_in_message
else fail batch_long_name_cut_in_message "$long_fail"; fi
# a streamed file's line past LD_MAX_LINE (64 MiB) is refused once the
# reader has that much, with its line: a GiB-long line was read whole,
# seconds and a GiB of memory for a file that is no lockdep file
mkdir -p "$WORK/longline"
{ echo 'all lock classes:'; head -c $(((64 << 20) + 1)) /dev/zero | tr '\0' x
  echo; } > "$WORK/longline/lockdep"
"$BIN" -s "$WORK/longline" info > /dev/null 2> "$WORK/longline.err"
rc=$?
if [ $rc = 3 ] && grep -q 'lockdep:2: line longer than 64 MiB' "$WORK/longline.err"
then ok streamed_line_over_limit_refused
else fail streamed_line_over_limit_refused "rc $rc $(head -c 300 "$WORK/longline.err")"; fi
rm -rf "$WORK/longline"

# --- 8. man page is generated from the command table --------------------------
if "$BIN" --man-page | cmp -s - "$SRCDIR/lockdep-tool.8"; then
	ok man_page_current
else
	fail man_page_current "run: make -C lockdep-tool man"
fi
if command -v groff > /dev/null; then
	if groff -man -Tutf8 -ww -z "$SRCDIR/lockdep-tool.8" 2> "$WORK/groff.err" &&
	   [ ! -s "$WORK/groff.err" ]
	then ok man_page_renders
	else fail man_page_renders "$(head -n 3 "$WORK/groff.err")"; fi
else
	skip man_page_renders "groff not installed"
fi

# --- 9. the interactive shell through a real pseudo-terminal -----------------
if command -v expect > /dev/null; then
	HIST=$WORK/history
	rm -f "$HIST"
	# names that are prefixes of others, one with a blank
	printf '%s\n' 'all lock classes:' \
		'0000000000000001 OPS: 1 FD: 1 BD: 1 ....: zz' '' \
		'0000000000000002 OPS: 1 FD: 1 BD: 1 ....: zz lock' '' \
		'0000000000000003 OPS: 1 FD: 1 BD: 1 ....: zz lock2' \
		> "$WORK/prefix-names"
	if LOCKDEP_TOOL_HISTORY=$HIST timeout 60 expect "$TESTS/repl.exp" \
		"$ASAN_BIN" "$FIX/handmade/prove" "$FIX/handmade/export-inconsistent" \
		"$WORK/prefix-names" \
		> "$WORK/repl.log" 2>&1 &&
	   grep -q '^stats$' "$HIST"
	then ok repl_pty_completion_history
	else fail repl_pty_completion_history "$(tail -n 8 "$WORK/repl.log")"; fi
else
	skip repl_pty_completion_history "expect not installed"
fi

# --- 10. fuzz every parser briefly --------------------------------------------
# (a per-input timeout: an input that takes seconds is a hang to report)
if [ -z "${CLANG:-}" ] || ! command -v "$CLANG" > /dev/null; then
	skip fuzz_short "clang with libFuzzer not available"
elif ! ${MAKE:-make} -s -j2 -C "$SRCDIR" fuzz-build > "$WORK/fuzz-build.log" 2>&1; then
	# clang is there (make deps installs it with libFuzzer): a failed
	# build is a failure, not a skip
	fail fuzz_build "$(tail -n 5 "$WORK/fuzz-build.log")"
else
	for t in proc_lockdep proc_chains proc_stats lock_stat export snapshot; do
		mkdir -p "$WORK/corpus-$t"
		# libFuzzer's own report, in its log
		if ASAN_OPTIONS=$ASAN_BASE UBSAN_OPTIONS=$UBSAN_BASE \
		   "$OUT/fuzz/fuzz-$t" -max_total_time=3 -timeout=10 -max_len=65536 \
			"$WORK/corpus-$t" "$PI/fuzz/seeds/$t" \
			> "$WORK/fuzz-$t.log" 2>&1
		then ok "fuzz_short_$t"
		else fail "fuzz_short_$t" "$(grep -m3 -E 'ERROR|error' "$WORK/fuzz-$t.log")"; fi
	done
fi

# --- 11. issue 6: analysis commands (why, path, cycles, irq-check, merge,
#     diff, report, dot --path/--cycle/--report) ---------------------------
. "$TESTS/analysis-tests.sh"

# --- 12. no sanitizer report, also where a check looked only at output --------
if [ -z "$(ls -A "$SAN")" ]; then ok no_sanitizer_report_anywhere
else fail no_sanitizer_report_anywhere \
	"$(for f in "$SAN"/*; do echo "$f:"; grep -m 3 -E 'ERROR|SUMMARY|runtime error' "$f"; done | head -n 30)"
fi

# --- KTAP ---------------------------------------------------------------------
n=0
total=$(grep -cE '^(not )?ok ' "$RESULTS")
echo "KTAP version 1"
echo "1..$total"
failed=0
while IFS= read -r line; do
	case $line in
	"ok "*)     n=$((n + 1)); echo "ok $n ${line#ok }" ;;
	"not ok "*) n=$((n + 1)); failed=$((failed + 1))
		    echo "not ok $n ${line#not ok }" ;;
	*)          echo "$line" ;;
	esac
done < "$RESULTS"
skipped=$(grep -c '# SKIP' "$RESULTS")
echo "# lockdep-tool: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
echo "lockdep-tool: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
