#!/usr/bin/env bash
# Check a flat KTAP document: version line, plan, every planned result
# present and numbered in order, none failing, at least one.  With --count, print
# "PASSED FAILED SKIPPED" (a missing result counts as failed).
set -uo pipefail
count=0
[ "${1:-}" = --count ] && { count=1; shift; }
f=${1:?usage: ktap-check.sh [--count] FILE}
awk -v count=$count -v name="$(basename "$f")" '
	{ sub(/\r$/, "") }
	NR == 1 && $0 !~ /^KTAP version 1$/ { bad = bad name ":1: expected \"KTAP version 1\", got \"" $0 "\"\n" }
	/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) + 0; next }
	/^(not )?ok [0-9]+( |$)/ {
		n++
		num = ($1 == "not") ? $3 : $2
		if (num != n) bad = bad name ":" NR ": result " num " out of order (expected " n ")\n"
		if ($1 == "not") { failed++; bad = bad name ":" NR ": " $0 "\n" }
		else if ($0 ~ /# *SKIP/) skipped++
		else passed++
	}
	END {
		if (NR == 0) bad = bad name ": empty (the guest produced no results)\n"
		else if (plan == "") bad = bad name ": no plan line (1..N)\n"
		else if (plan == 0) bad = bad name ": plans no results (1..0): nothing was tested\n"
		else if (n != plan) { bad = bad name ": planned " plan " results, got " n "\n"; if (n < plan) failed += plan - n }
		if (count) print passed + 0, failed + 0, skipped + 0
		else printf "%s", bad
		exit (bad != "")
	}' "$f"
