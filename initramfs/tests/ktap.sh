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
