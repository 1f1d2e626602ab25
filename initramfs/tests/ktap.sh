# KTAP helpers for guest tests (sourced).  Results are appended to
# $KTAP_RESULTS as "ok|not ok<TAB>name<TAB>diagnostic"; run-tests.sh numbers
# them and prints one flat KTAP document.

KTAP_RESULTS=${KTAP_RESULTS:-/tmp/ktap.results}
KTAP_PREFIX=${KTAP_PREFIX:-$(basename "$0" .sh)}

ktap_result() {	# ok|fail|skip NAME [DIAGNOSTIC...]
	local r=$1 name=$2
	shift 2
	case $r in
	ok)	printf 'ok\t%s:%s\t\n' "$KTAP_PREFIX" "$name" ;;
	skip)	printf 'ok\t%s:%s # SKIP %s\t\n' "$KTAP_PREFIX" "$name" "$*" ;;
	*)	printf 'not ok\t%s:%s\t%s\n' "$KTAP_PREFIX" "$name" "$*" ;;
	esac >>"$KTAP_RESULTS"
}

# export_present: true when the debugfs export is there; else records a
# skip, or a failure when the kernel is the one built from patches/, which
# always has it (run-qemu.sh sets LOCKDEP_EXPORT_EXPECTED then).
export_present() {
	[ -d /sys/kernel/debug/lockdep ] && return 0
	if [ "${LOCKDEP_EXPORT_EXPECTED:-0}" = 1 ]; then
		ktap_result fail export-present "the kernel built from patches/ has no /sys/kernel/debug/lockdep"
	else
		ktap_result skip export-present "this kernel has no /sys/kernel/debug/lockdep"
	fi
	return 1
}

# ktap_check NAME CMD...: ok when CMD succeeds; its output becomes the
# diagnostic when it fails.
ktap_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ktap_result ok "$name"
	else
		ktap_result fail "$name" "$(printf '%s' "$out" | tail -n 5 | tr '\n' '|')"
	fi
}

# ktap_import CMD...: run a program that prints its own KTAP and record
# each of its top-level results as ours (numbering is ours); the "# "
# lines after a failing result become its diagnostic.  A program that
# exits non-zero without any failing result, or prints none, fails too.
ktap_import() {
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | awk -v prefix="$KTAP_PREFIX" -v rc="$rc" '
		function flush() { if (pending != "") printf "%s\t%s\n", pending, diag; pending = "" }
		/^(not )?ok [0-9]+/ {
			flush()
			r = ($1 == "not") ? "not ok" : "ok"
			name = $0; sub(/^(not )?ok [0-9]+ *(- *)?/, "", name)
			line = r "\t" prefix ":" name
			if (r == "ok") { printf "%s\t\n", line; n++; next }
			pending = line; diag = ""; n++; bad++; next
		}
		/^# / && pending != "" { d = substr($0, 3); diag = diag (diag == "" ? "" : "|") d; next }
		END {
			flush()
			if (n == 0) printf "not ok\t%s:results\tno KTAP results (exit %s)\n", prefix, rc
			else if (rc != 0 && !bad) printf "not ok\t%s:exit-status\texited %s\n", prefix, rc
		}' >>"$KTAP_RESULTS"
}
