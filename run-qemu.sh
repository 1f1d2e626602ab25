#!/usr/bin/env bash
# Boot the lockdep test kernel in QEMU: an interactive shell (default), one
# command (-- CMD [ARGS...]) or the guest test suite (--test).
#
# Every run gets an output folder (build/runs/<time>-<mode>/ unless --out)
# holding the exact QEMU command (qemu.cmd), the console log (console.log),
# the command's stdout/stderr or the KTAP results, and the exit status.
set -uo pipefail

TOP=$(cd "$(dirname "$0")" && pwd)
BUILD=$TOP/build
PROG=run-qemu

usage() {
	cat <<USAGE
usage: ./run-qemu.sh [OPTIONS]                  interactive shell in the guest
       ./run-qemu.sh [OPTIONS] -- CMD [ARGS...]  run one command, exit with its status
       ./run-qemu.sh [OPTIONS] --test [NAME...]  run the guest tests (KTAP), exit 0 if all pass

options:
  --share DIR       mount DIR read-write at /host (default: the current
                    directory for the shell and commands, nothing for --test)
  --no-share        do not share a host folder
  --append ARGS     extra kernel command line
  --memory MB       guest memory (default 1024)
  --cpus N          guest CPUs (default 2)
  --timeout SEC     watchdog: kill the guest after SEC seconds (default 600
                    for commands and tests, none for the shell; 0 = none)
  --accel tcg|kvm   accelerator (default tcg; kvm hangs on many machines)
  --kernel PATH     kernel image (default build/linux/arch/x86/boot/bzImage;
                    only that one must have the debugfs export, which the
                    guest tests then require)
  --initrd PATH     base initramfs (default build/initramfs.cpio.gz)
  --out DIR         output folder for this run
  --expect TITLE    the console may carry this report title (e.g. "WARNING:
                    possible circular locking dependency detected"), a
                    whole line; '*' in it matches any text; with --test
                    it must appear exactly once; repeatable
  -q, --quiet       do not print the QEMU command and the output folder
  -h, --help        this text

A command line is joined with spaces and run by the guest's sh (like ssh):
  ./run-qemu.sh -- cat /proc/lockdep_stats
  ./run-qemu.sh -- 'grep -c "FD:" /proc/lockdep'

exit status: the command's status (-- CMD), 0/1 (--test), 0 (shell);
  124 the watchdog killed a hung guest; 125 the guest crashed, panicked or
  ended without reporting a status; 2 usage error; 3 the kernel, the
  initramfs or QEMU is missing, the run folder cannot be written, or
  the guest could not mount the shared folder (-- CMD, --test).
USAGE
}

msg() { [ "$QUIET" = 1 ] || echo "$PROG: $*" >&2; }
err() { echo "$PROG: error: $*" >&2; }

MODE=shell SHARE= NOSHARE=0 APPEND= MEM=1024 CPUS=2 TIMEOUT= ACCEL=tcg
KERNEL=$BUILD/linux/arch/x86/boot/bzImage INITRD=$BUILD/initramfs.cpio.gz
OUT= QUIET=0 EXPECT=() TESTS=() CMD=()

need() { [ $# -ge 2 ] || { err "$1 needs an argument"; exit 2; }; }
while [ $# -gt 0 ]; do
	case "$1" in
	--share)	need "$@"; SHARE=$2; shift ;;
	--share=*)	SHARE=${1#*=} ;;
	--no-share)	NOSHARE=1 ;;
	--append)	need "$@"; APPEND="$APPEND $2"; shift ;;
	--memory)	need "$@"; MEM=$2; shift ;;
	--cpus)		need "$@"; CPUS=$2; shift ;;
	--timeout)	need "$@"; TIMEOUT=$2; shift ;;
	--accel)	need "$@"; ACCEL=$2; shift ;;
	--kernel)	need "$@"; KERNEL=$2; shift ;;
	--initrd)	need "$@"; INITRD=$2; shift ;;
	--out)		need "$@"; OUT=$2; shift ;;
	--expect)	need "$@"; EXPECT+=("$2"); shift ;;
	--test)		MODE=test ;;
	-q|--quiet)	QUIET=1 ;;
	-h|--help)	usage; exit 0 ;;
	--)		shift; MODE=cmd; CMD=("$@"); break ;;
	-*)		err "unknown option $1 (see --help)"; exit 2 ;;
	*)		if [ "$MODE" = test ]; then TESTS+=("$1"); else
				err "unexpected argument '$1': commands go after -- (see --help)"; exit 2
			fi ;;
	esac
	shift
done

case "$MEM$CPUS" in *[!0-9]*) err "--memory and --cpus take numbers"; exit 2 ;; esac
[ -n "$TIMEOUT" ] || { [ "$MODE" = shell ] && TIMEOUT=0 || TIMEOUT=600; }
case "$TIMEOUT" in ''|*[!0-9]*) err "--timeout takes seconds"; exit 2 ;; esac
case "$ACCEL" in tcg|kvm) ;; *) err "--accel is tcg or kvm"; exit 2 ;; esac
[ "$MODE" = cmd ] && [ ${#CMD[@]} -eq 0 ] && { err "nothing to run after --"; exit 2; }
[ -f "$KERNEL" ] || { err "no kernel at $KERNEL: run 'make kernel'"; exit 3; }
[ -f "$INITRD" ] || { err "no initramfs at $INITRD: run 'make initramfs'"; exit 3; }
GEN=$BUILD/linux/usr/gen_init_cpio
[ -x "$GEN" ] || { err "$GEN missing: run 'make kernel'"; exit 3; }
QEMU=${QEMU:-qemu-system-x86_64}
command -v "$QEMU" >/dev/null || { err "$QEMU not found: run 'make deps'"; exit 3; }

if [ "$NOSHARE" = 1 ]; then
	SHARE=
elif [ -z "$SHARE" ] && [ "$MODE" != test ]; then
	SHARE=$PWD
fi
if [ -n "$SHARE" ]; then
	[ -d "$SHARE" ] || { err "--share: $SHARE is not a directory"; exit 2; }
	SHARE=$(cd "$SHARE" && pwd)
fi

[ -n "$OUT" ] || OUT=$BUILD/runs/$(date +%Y%m%d-%H%M%S)-$$-$MODE
mkdir -p "$OUT" || exit 3
OUT=$(cd "$OUT" && pwd)
# (gen_init_cpio's list below is split at spaces)
case "$OUT" in *[[:space:]]*) err "the run folder '$OUT' has a space, which the image list cannot take (--out elsewhere)"; exit 2 ;; esac
rm -f "$OUT"/{console.log,stdout,stderr,status,ktap,exit-status}

# The per-run part of the initramfs: what this boot is for.
RUNDIR=$OUT/run-initramfs
mkdir -p "$RUNDIR"
{
	echo "MODE=$MODE"
	echo "SHARE=$([ -n "$SHARE" ] && echo 1 || echo 0)"
	[ "$MODE" = test ] && echo "TESTS='${TESTS[*]}'"
	[ "$MODE" = cmd ] && [ -n "$SHARE" ] && echo "CMD_CWD=/host"
	# the kernel built from patches/ has the debugfs export: its tests
	# may not skip for want of it (another --kernel may lack it)
	[ "$(realpath "$KERNEL")" = "$(realpath -m "$BUILD/linux/arch/x86/boot/bzImage")" ] &&
		echo "export LOCKDEP_EXPORT_EXPECTED=1"
} >"$RUNDIR/lockdep-run.conf"
if [ "$MODE" = cmd ]; then
	printf '%s\n' "${CMD[*]}" >"$RUNDIR/lockdep-run.cmd"
else
	: >"$RUNDIR/lockdep-run.cmd"
fi
printf '%s\n' \
	"file /etc/lockdep-run.conf $RUNDIR/lockdep-run.conf 644 0 0" \
	"file /etc/lockdep-run.cmd $RUNDIR/lockdep-run.cmd 644 0 0" >"$RUNDIR/list"
{ cat "$INITRD"; "$GEN" "$RUNDIR/list" | gzip -n; } >"$OUT/initrd.img" || exit 3

QCMD=("$QEMU" -accel "$ACCEL" -m "$MEM" -smp "$CPUS"
	-kernel "$KERNEL" -initrd "$OUT/initrd.img"
	-append "console=ttyS0,115200 panic=-1 8250.nr_uarts=4 $APPEND"
	-no-reboot -display none -nodefaults
	-device virtio-rng-pci)
if [ "$MODE" = shell ]; then
	# Ctrl-C goes to the guest (signal=off); Ctrl-A x quits QEMU.
	QCMD+=(-chardev "stdio,id=con,mux=on,signal=off,logfile=${OUT//,/,,}/console.log"
	       -serial chardev:con -mon chardev=con,mode=readline)
else
	QCMD+=(-serial "file:$OUT/console.log")
fi
QCMD+=(-serial "file:$OUT/stdout" -serial "file:$OUT/stderr" -serial "file:$OUT/status")
if [ -n "$SHARE" ]; then
	# LOCKDEP_TEST_SHARE_TAG: for the tests, a tag the guest does not mount
	# a ',' in an option's value is written ',,'
	QCMD+=(-virtfs "local,path=${SHARE//,/,,},mount_tag=${LOCKDEP_TEST_SHARE_TAG:-host},security_model=none,id=host")
fi

printf '%q ' "${QCMD[@]}" >"$OUT/qemu.cmd"
echo >>"$OUT/qemu.cmd"
msg "$(cat "$OUT/qemu.cmd")"
msg "output: $OUT"
[ "$ACCEL" = kvm ] && msg "warning: KVM hangs on many of these machines; the watchdog is your friend"

if [ "$MODE" = shell ]; then
	if [ "$TIMEOUT" -gt 0 ]; then
		timeout --foreground -k 5 "$TIMEOUT" "${QCMD[@]}"
	else
		"${QCMD[@]}"
	fi
	rc=$?
	stty sane 2>/dev/null
	[ $rc = 124 ] && err "watchdog: the guest ran longer than ${TIMEOUT}s and was killed"
	exit $rc
fi

if [ "$TIMEOUT" -gt 0 ]; then
	timeout -k 5 "$TIMEOUT" "${QCMD[@]}" </dev/null >"$OUT/qemu.log" 2>&1
else
	"${QCMD[@]}" </dev/null >"$OUT/qemu.log" 2>&1
fi
qrc=$?
tr -d '\r' <"$OUT/console.log" >"$OUT/console.txt" 2>/dev/null

status=$(sed -n 's/^lockdep-run-status \([0-9][0-9]*\)$/\1/p' "$OUT/status" 2>/dev/null | tail -n 1)
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	err "watchdog: the guest did not finish within ${TIMEOUT}s and was killed"
	err "last console lines ($OUT/console.log):"
	tail -n 15 "$OUT/console.txt" | sed 's/^/  /' >&2
	exit 124
fi
if grep -qx 'lockdep-run-status share' "$OUT/status" 2>/dev/null; then
	err "the guest could not mount the shared folder $SHARE at /host (9p); nothing was run"
	exit 3
fi
if [ -z "$status" ]; then
	panic=$(grep -m1 -n 'Kernel panic' "$OUT/console.txt")
	if [ -n "$panic" ]; then
		err "the guest panicked: console.log:$panic"
	else
		err "the guest ended without reporting a status (QEMU exit $qrc; see $OUT/qemu.log and console.log)"
	fi
	tail -n 15 "$OUT/console.txt" | sed 's/^/  /' >&2
	exit 125
fi
echo "$status" >"$OUT/exit-status"

scan_args=()
for t in "${EXPECT[@]}"; do scan_args+=(--expect "$t"); done

if [ "$MODE" = cmd ]; then
	cat "$OUT/stdout"
	cat "$OUT/stderr" >&2
	# Not fatal for a command: say what the kernel complained about.
	"$TOP/scripts/console-scan.sh" --warn-only "${scan_args[@]}" "$OUT/console.txt" >&2
	exit "$status"
fi

# --test: the KTAP document must be complete and all green, and the console
# may carry exactly the reports the caller expects.
cp "$OUT/stdout" "$OUT/ktap"
cat "$OUT/ktap"
rc=0
"$TOP/scripts/ktap-check.sh" "$OUT/ktap" || rc=1
"$TOP/scripts/console-scan.sh" "${scan_args[@]}" --require-expected "$OUT/console.txt" || rc=1
[ "$status" = 0 ] || { [ $rc = 0 ] && err "the guest test runner exited with $status"; rc=1; }
exit $rc
