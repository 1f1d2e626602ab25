#!/usr/bin/env bash
# Lockdep conformance suite: boot the kernel once per boot group of
# initramfs/tests/conformance.table (one per scenario that must report,
# one for the silent ones) and print one flat KTAP result per table row.
#
#   scripts/conformance.sh [--kernel PATH] [--initrd PATH] [--out DIR]
#                          [--table FILE] [--fixtures DIR] [NAME...]
#   scripts/conformance.sh --prove-red [--kernel PATH] [--initrd PATH]
#
# NAME...        only the boots holding these rows (default: all)
# --kernel, --initrd   as run-qemu.sh (default: build/linux's bzImage and
#                build/initramfs.cpio.gz; also $KERNEL and $INITRD)
# --out DIR      run folders, one per boot (default build/conformance/<time>)
# --table FILE   another table, shared with the guest over 9p (default:
#                initramfs/tests/conformance.table, the copy in the image;
#                shared too when it differs from that copy)
# --fixtures DIR keep the console of every reporting boot there, verbatim,
#                as <row>.console, with a README saying how they were made,
#                and the /proc/lockdep* snapshots of rows with a "snapshot"
#                step as snapshots/<row>/
# --prove-red    break the table on purpose (a swapped report title, a
#                wrong graph check, a silent boot that reports) and check
#                that each run turns red; KTAP, one line per breakage
#
# A row passes when the guest's checks for it passed (initramfs/tests/
# conformance.sh: the report seen in the kernel log, debug_locks, the
# graph state) and run-qemu.sh's console scan accepted its boot: exactly
# the declared report title, once, and no other report.
# Each boot has a watchdog of $CONFORMANCE_TIMEOUT seconds (180); after
# two hung boots the rest are not booted and their rows fail.
# Exit status: 0 all passed, 1 a row failed, 2 usage error.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
PROG=conformance
KERNEL=${KERNEL:-$TOP/build/linux/arch/x86/boot/bzImage}
# a boot takes 7-15 s under TCG: past this the watchdog kills it
BOOT_TIMEOUT=${CONFORMANCE_TIMEOUT:-180}
# the harness's own tests give a stub here
RUN_QEMU=${LOCKDEP_RUN_QEMU:-$TOP/run-qemu.sh}
INITRD=${INITRD:-$TOP/build/initramfs.cpio.gz}
TABLE=$TOP/initramfs/tests/conformance.table
OUT= FIXTURES= ONLY=() SHARE_TABLE=0 PROVE=0

usage() { sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0"; }
err() { echo "$PROG: error: $*" >&2; }
need() { [ $# -ge 2 ] || { err "$1 needs an argument"; exit 2; }; }
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel)	need "$@"; KERNEL=$2; shift ;;
	--initrd)	need "$@"; INITRD=$2; shift ;;
	--out)		need "$@"; OUT=$2; shift ;;
	--table)	need "$@"; TABLE=$2; SHARE_TABLE=1; shift ;;
	--prove-red)	PROVE=1 ;;
	--fixtures)	need "$@"; FIXTURES=$2; shift ;;
	-h|--help)	usage; exit 0 ;;
	-*)		err "unknown option $1 (see --help)"; exit 2 ;;
	*)		ONLY+=("$1") ;;
	esac
	shift
done
[ -r "$TABLE" ] || { err "cannot read $TABLE"; exit 2; }
[ -f "$KERNEL" ] || { err "no kernel at $KERNEL"; exit 2; }
[ -f "$INITRD" ] || { err "no initramfs at $INITRD"; exit 2; }
KERNEL=$(cd "$(dirname "$KERNEL")" && pwd)/$(basename "$KERNEL")
INITRD=$(cd "$(dirname "$INITRD")" && pwd)/$(basename "$INITRD")
# the guest reads the image's copy of the table: if it is not this one
# (edited since the image was packed), this one is shared with the guest
if [ $SHARE_TABLE = 0 ] &&
   ! gzip -dc "$INITRD" 2>/dev/null | cpio -i --quiet --to-stdout tests/conformance.table 2>/dev/null |
	cmp -s - "$TABLE"; then
	echo "$PROG: $TABLE differs from the copy in $INITRD (or that cannot be read): sharing it with the guest" >&2
	SHARE_TABLE=1
fi
[ -n "$OUT" ] || OUT=$TOP/build/conformance/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)

if [ $PROVE = 1 ]; then
	# Each breakage: a sed script on the table, the rows to run, the row
	# that must turn red.  Runs this script on the broken table.
	tab=$TOP/initramfs/tests/conformance.table
	k=0 bad=0
	prove() {	# DESCRIPTION SED-SCRIPT RED-ROW ROWS...
		local what=$1 sedscr=$2 red=$3 line
		shift 3
		k=$((k + 1))
		sed -e "$sedscr" "$tab" >"$OUT/prove$k.table"
		"$0" --kernel "$KERNEL" --initrd "$INITRD" --out "$OUT/prove$k" \
			--table "$OUT/prove$k.table" "$@" >"$OUT/prove$k.ktap" 2>"$OUT/prove$k.err"
		line=$(grep -E "^(not )?ok [0-9]+ $red( |$)" "$OUT/prove$k.ktap")
		case "$line" in
		"not ok"*)	echo "ok $k $what" ;;
		*)		echo "not ok $k $what"; bad=1
				echo "# $red: '${line:-no result}' where 'not ok' was wanted ($OUT/prove$k.ktap)" ;;
		esac
	}
	echo "KTAP version 1"
	echo "1..4"
	prove "a swapped report title turns abba red" \
		'/^abba |/s/possible circular locking dependency detected/possible recursive locking detected/' abba abba
	prove "a wrong debug_locks turns aa red" \
		'/^aa |/s/| 0 |/| 1 |/' aa aa
	prove "a reversed edge check turns trylock red" \
		'/^trylock |/s/edge lds_try_b lds_try_c/edge lds_try_c lds_try_b/' trylock trylock
	prove "half-ab and half-ba in one boot: the silent row that reports turns red" \
		'/^half-ab |/s/| half-ab | half-ab |/| half-ba | half-ab |/' half-ba half-ba
	[ $bad = 0 ]
	exit
fi

# The table: NAME | BOOT | RUN | REPORT | DEBUG_LOCKS | STEPS
NAMES=() BOOTS=()
declare -A BOOT_OF=() REPORT_OF=() STEPS_OF=() ROWS_OF=() RESULT=() DIAG=()
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
lineno=0
while IFS='|' read -r name boot run report dl steps; do
	lineno=$((lineno + 1))
	name=$(trim "$name")
	case "$name" in ''|'#'*) continue ;; esac
	boot=$(trim "$boot") report=$(trim "$report")
	if [ -z "$boot" ] || [ -z "$report" ] || [ -n "${BOOT_OF[$name]:-}" ]; then
		err "$TABLE:$lineno: bad or duplicate row '$name'"
		exit 2
	fi
	NAMES+=("$name")
	BOOT_OF[$name]=$boot
	REPORT_OF[$name]=$report
	STEPS_OF[$name]=$steps
	if [ -z "${ROWS_OF[$boot]:-}" ]; then
		BOOTS+=("$boot")
		ROWS_OF[$boot]=$name
	else
		ROWS_OF[$boot]="${ROWS_OF[$boot]} $name"
		if [ "$report" != - ]; then
			err "$TABLE:$lineno: '$name' reports, so it needs a boot of its own"
			exit 2
		fi
	fi
done <"$TABLE"
for b in "${BOOTS[@]}"; do
	for n in ${ROWS_OF[$b]}; do
		if [ "${REPORT_OF[$n]}" != - ] && [ "${ROWS_OF[$b]}" != "$n" ]; then
			err "$TABLE: '$n' reports, so boot '$b' must hold it alone"
			exit 2
		fi
	done
done

RUN_BOOTS=()
if [ ${#ONLY[@]} -gt 0 ]; then
	declare -A want=()
	for n in "${ONLY[@]}"; do
		[ -n "${BOOT_OF[$n]:-}" ] || { err "no row '$n' in $TABLE"; exit 2; }
		want[${BOOT_OF[$n]}]=1
	done
	for b in "${BOOTS[@]}"; do [ -n "${want[$b]:-}" ] && RUN_BOOTS+=("$b"); done
else
	RUN_BOOTS=("${BOOTS[@]}")
fi

t0=$(date +%s.%N)
echo "$PROG: ${#RUN_BOOTS[@]} boots of $KERNEL; run folders in $OUT" >&2
i=0 hung=0
for b in "${RUN_BOOTS[@]}"; do
	i=$((i + 1))
	rows=${ROWS_OF[$b]}
	first=${rows%% *}
	# two hung boots: the kernel hangs, and 30 more would take hours
	if [ $hung -ge 2 ]; then
		for n in $rows; do
			RESULT[$n]="not ok"
			DIAG[$n]="not booted: $hung boots before this one hung (watchdog, ${BOOT_TIMEOUT}s)"
		done
		printf '%s: boot %d/%d %-22s not booted\n' "$PROG" $i ${#RUN_BOOTS[@]} "$b" >&2
		continue
	fi
	args=(-q --test --out "$OUT/$b" --kernel "$KERNEL" --initrd "$INITRD"
	      --timeout "$BOOT_TIMEOUT" --append "lockdep_conformance.boot=$b")
	snap=0
	if [ -n "$FIXTURES" ]; then
		for n in $rows; do
			[[ ";${STEPS_OF[$n]};" =~ \;[[:space:]]*snapshot[[:space:]]*\; ]] && snap=1
		done
	fi
	if [ $SHARE_TABLE = 1 ] || [ $snap = 1 ]; then
		rm -rf "$OUT/$b.share"
		mkdir -p "$OUT/$b.share"
		[ $SHARE_TABLE = 1 ] && cp "$TABLE" "$OUT/$b.share/conformance.table"
		args+=(--share "$OUT/$b.share")
	fi
	[ "${REPORT_OF[$first]}" != - ] && args+=(--expect "${REPORT_OF[$first]}")
	b0=$(date +%s.%N)
	"$RUN_QEMU" "${args[@]}" conformance >"$OUT/$b.out" 2>"$OUT/$b.err"
	rc=$?
	[ $rc = 124 ] && hung=$((hung + 1))
	dt=$(awk -v a="$b0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

	# the guest's verdict per row, with its diagnostics
	guest_failed=0
	for n in $rows; do
		line=$(grep -E "^(not )?ok [0-9]+ conformance:$n( |$)" "$OUT/$b.out" | head -n 1)
		case "$line" in
		ok*"# SKIP"*)	RESULT[$n]="ok"; DIAG[$n]="SKIP${line##*# SKIP}" ;;
		ok*)		RESULT[$n]="ok" ;;
		"not ok"*)	RESULT[$n]="not ok"; guest_failed=1
				DIAG[$n]=$(awk -v l="$line" 'f && /^# / && !/^# guest tests took/ { print; next } { f = 0 } $0 == l { f = 1 }' "$OUT/$b.out" | sed 's/^# //') ;;
		*)		RESULT[$n]="not ok"; guest_failed=1
				DIAG[$n]="no guest result (exit $rc)" ;;
		esac
	done
	# what the host saw: the console scan, a crash, a hung guest
	host=$(cat "$OUT/$b.out" "$OUT/$b.err" | grep -E '^(console-scan|run-qemu): ' |
		grep -v 'guest test runner exited' | head -n 4)
	# a failed run that no row explains (the guest's KTAP cut short, the
	# runner killed after the rows) fails the rows that passed
	if [ $rc != 0 ] && [ -z "$host" ] && [ $guest_failed = 0 ]; then
		host=$(cat "$OUT/$b.out" "$OUT/$b.err" |
			grep -E '^(ktap|run-qemu): ' | head -n 4)
		host="run-qemu.sh exited $rc${host:+:
$host}"
	fi
	if [ $rc != 0 ] && [ -n "$host" ]; then
		for n in $rows; do
			if [ "${RESULT[$n]}" = ok ] && { [ $guest_failed = 0 ] || [ $rc -ge 124 ]; }; then
				RESULT[$n]="not ok"
				DIAG[$n]=$host
			elif [ "${RESULT[$n]}" != ok ]; then
				DIAG[$n]="${DIAG[$n]:+${DIAG[$n]}
}$host"
			fi
		done
	fi
	grep -ho 'lockdep-conformance: .*export checks skipped.*' "$OUT/$b/console.txt" 2>/dev/null |
		tr -d '\r' | sed 's/^lockdep-conformance: //' >"$OUT/$b.notes"

	verdict=ok
	for n in $rows; do [ "${RESULT[$n]}" = ok ] || verdict=FAILED; done
	printf '%s: boot %d/%d %-22s %-6s %5ss\n' "$PROG" $i ${#RUN_BOOTS[@]} "$b" $verdict "$dt" >&2

	if [ -n "$FIXTURES" ] && [ "${REPORT_OF[$first]}" != - ] && [ -f "$OUT/$b/console.log" ]; then
		mkdir -p "$FIXTURES"
		cp "$OUT/$b/console.log" "$FIXTURES/$first.console"
	fi
	if [ $snap = 1 ] && [ -d "$OUT/$b.share/snapshots" ]; then
		mkdir -p "$FIXTURES/snapshots"
		for d in "$OUT/$b.share/snapshots"/*; do
			rm -rf "$FIXTURES/snapshots/${d##*/}"
			cp -r "$d" "$FIXTURES/snapshots/"
		done
	fi
done
t1=$(date +%s.%N)

# flat KTAP, in table order
out=()
for n in "${NAMES[@]}"; do
	b=${BOOT_OF[$n]}
	ran=0
	for r in "${RUN_BOOTS[@]}"; do [ "$r" = "$b" ] && ran=1; done
	[ $ran = 1 ] && out+=("$n")
done
echo "KTAP version 1"
echo "1..${#out[@]}"
k=0 failed=0
for n in "${out[@]}"; do
	k=$((k + 1))
	case "${DIAG[$n]:-}" in
	SKIP*)	echo "ok $k $n # ${DIAG[$n]}"; continue ;;
	esac
	echo "${RESULT[$n]} $k $n"
	if [ "${RESULT[$n]}" != ok ]; then
		failed=$((failed + 1))
		printf '%s\n' "${DIAG[$n]:-}" | grep -v '^$' | sed 's/^/# /'
	fi
done
skipped=$(cat "$OUT"/*.notes 2>/dev/null | sed 's/:.*//' | sort -u | tr '\n' ' ')
[ -n "$skipped" ] && echo "# export checks skipped (no /sys/kernel/debug/lockdep in the guest): $skipped"
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
echo "# conformance: ${#out[@]} scenarios, $failed failed, ${#RUN_BOOTS[@]} boots, took $((wall / 60))m$((wall % 60))s"

if [ -n "$FIXTURES" ]; then
	rel=$(uname -r 2>/dev/null)
	ver=$(cat "$OUT"/*/console.txt 2>/dev/null | grep -am1 'Linux version' | sed -E 's/^\[ *[0-9.]+\] //')
	qcmd=$(for b in "${RUN_BOOTS[@]}"; do
		n=${ROWS_OF[$b]%% *}
		[ "${REPORT_OF[$n]}" != - ] && [ -f "$OUT/$b/qemu.cmd" ] && { cat "$OUT/$b/qemu.cmd"; break; }
	done | sed -e "s|$OUT/||g" -e "s|$TOP/||g")
	cfg=$(dirname "$KERNEL")/../../../.config
	{
		echo "# Kernel reports captured by scripts/conformance.sh"
		echo
		echo "Each <scenario>.console is the verbatim serial console (CR LF line ends)"
		echo "of one QEMU boot that ran that lockdep scenario of"
		echo "initramfs/tests/conformance.table and nothing else: the boot log with"
		echo "the boot-time locking API selftests, the guest test's '# running' lines,"
		echo "then the scenario's one report between 'lockdep_scenarios: <scenario>:"
		echo "start' and 'lockdep_scenarios: <scenario>: done (0), debug_locks 0'."
		echo "Lock addresses are real (lockdep prints them with %px); the stack"
		echo "traces come from the kernel's unwinder as configured below."
		echo
		echo "- kernel: $ver"
		echo "- image: ${KERNEL#$TOP/} (bzImage), initramfs ${INITRD#$TOP/}"
		echo "- captured: $(date -u +%Y-%m-%d) on $(uname -m), QEMU TCG, 2 CPUs, host kernel $rel"
		echo "- command: scripts/conformance.sh --kernel ${KERNEL#$TOP/} --initrd ${INITRD#$TOP/} --fixtures ${FIXTURES#$TOP/}"
		echo "- QEMU command of one boot (each boot: its run folder's qemu.cmd; the"
		echo "  kernel command line ends in lockdep_conformance.boot=<scenario>):"
		echo
		echo "      $qcmd"
		echo
		echo "Lock debugging options of the kernel's .config:"
		echo
		if [ -f "$cfg" ]; then
			grep -E '^CONFIG_(PROVE_LOCKING|PROVE_RAW_LOCK_NESTING|LOCK_STAT|DEBUG_LOCKDEP|DEBUG_LOCKING_API_SELFTESTS|DEBUG_ATOMIC_SLEEP|LOCKDEP_SCENARIOS|LOCKDEP_BITS|LOCKDEP_CHAINS_BITS|DEBUG_SPINLOCK|DEBUG_MUTEXES|PREEMPT[A-Z_]*|SMP|HZ|UNWINDER_[A-Z_]*|FRAME_POINTER)=' "$cfg" | sed 's/^/    /'
		else
			echo "    (no .config next to the image)"
		fi
		echo
		if [ -d "$FIXTURES/snapshots" ]; then
			echo "snapshots/<scenario>/ hold /proc/lockdep, lockdep_chains, lockdep_stats,"
			echo "lock_stat and osrelease (plus export/lockdep/ when the kernel has the"
			echo "debugfs export) read right after a silent scenario ran alone on its"
			echo "boot: half-ab and half-ba together hold a cycle no single boot saw."
			echo
		fi
		echo "| file | report title |"
		echo "|---|---|"
		for n in "${out[@]}"; do
			[ "${REPORT_OF[$n]}" != - ] && [ -f "$FIXTURES/$n.console" ] &&
				echo "| $n.console | \`${REPORT_OF[$n]}\` |"
		done
	} >"$FIXTURES/README.md"
fi
[ $failed = 0 ]
