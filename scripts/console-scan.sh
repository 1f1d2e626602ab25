#!/usr/bin/env bash
# Scan a guest console log for kernel reports ("badness"): lockdep reports,
# BUG, WARNING, Oops, panics, UBSAN/KASAN, hung tasks.  Every report title
# found must be one the caller declared with --expect, else the scan fails
# naming the line.
#
#   console-scan.sh [--expect TITLE]... [--require-expected] [--warn-only] LOG
#   console-scan.sh --title-re TITLE   print the anchored ERE that TITLE
#                                      stands for (for other checkers)
#
# A TITLE matches a whole title line; '*' in it matches any text (a task
# name and pid: "WARNING: lds/held-exit/* still has locks held!"), every
# other character only itself.
# --require-expected: each expected title must appear exactly once.
# --warn-only: print findings but exit 0.
# A log without the kernel's "Linux version" banner fails: an empty or
# foreign log has nothing to find, and must not pass for a clean one.
set -uo pipefail

# TITLE -> anchored ERE: every character literal, '*' any text
title_re() {
	printf '^%s$' "$(printf '%s' "$1" | sed -e 's/[][\\.^$+?(){}|]/\\&/g' -e 's/\*/.*/g')"
}
if [ "${1:-}" = --title-re ] && [ $# = 2 ]; then
	title_re "$2"
	exit 0
fi

expect=() require=0 warn=0
while [ $# -gt 1 ]; do
	case "$1" in
	--expect) expect+=("$2"); shift ;;
	--require-expected) require=1 ;;
	--warn-only) warn=1 ;;
	*) echo "console-scan: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
log=${1:?usage: console-scan.sh [--expect TITLE]... LOG}
[ -r "$log" ] || { echo "console-scan: cannot read $log" >&2; exit 2; }
name=$(basename "$log")

res=()
for t in "${expect[@]}"; do
	res+=("$(title_re "$t")")
done

# Report titles, after the optional printk time stamp.  lockdep prints one
# of them in brackets: "[ BUG: Invalid wait context ]".
bad='^(\[ *[0-9]+\.[0-9]+\] )?(WARNING:|BUG:|\[ BUG:|Oops|Kernel panic|kernel BUG|INFO: |general protection fault|UBSAN:|KASAN:|KFENCE:|DEBUG_LOCKS_WARN_ON|watchdog: BUG|RCU detected|Unable to handle)'
fail=0
declare -A seen=()
while IFS=: read -r lineno text; do
	title=$(printf '%s' "$text" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //')
	ok=0
	for i in "${!expect[@]}"; do
		if [[ $title =~ ${res[$i]} ]]; then
			ok=1
			seen[$i]=$(( ${seen[$i]:-0} + 1 ))
		fi
	done
	[ $ok = 1 ] && continue
	echo "console-scan: $name:$lineno: unexpected report: $title"
	fail=1
done < <(tr -d '\r' <"$log" | grep -nE "$bad")

if [ $require = 1 ]; then
	for i in "${!expect[@]}"; do
		n=${seen[$i]:-0}
		if [ "$n" != 1 ]; then
			echo "console-scan: $name: expected report '${expect[$i]}' exactly once, found $n"
			fail=1
		fi
	done
fi
# an empty or foreign log (a broken console= or serial setup) would pass
# for want of anything to find: the kernel's banner must be there
# (not 'tr | grep -q': grep stopping at the banner killed tr with SIGPIPE
# once in a thousand boots, and pipefail called that a missing banner)
if ! grep -q 'Linux version ' "$log"; then
	echo "console-scan: $name: no 'Linux version' line: not the console of a boot, nothing was scanned"
	fail=1
fi
[ $warn = 1 ] && exit 0
exit $fail
