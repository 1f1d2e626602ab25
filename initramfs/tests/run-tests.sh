#!/bin/sh
# Guest test runner: runs /tests/[0-9]*.sh (or the tests named on the
# command line, e.g. "harness-fail") and prints one flat KTAP document.
# Exit 0 when every result is ok.
export KTAP_RESULTS=/tmp/ktap.results
: >"$KTAP_RESULTS"
cd /tests || exit 1

if [ $# -gt 0 ]; then
	list=
	for t in "$@"; do
		f=$(ls /tests/"$t".sh /tests/[0-9]*-"$t".sh 2>/dev/null | head -n 1)
		[ -n "$f" ] || { printf 'not ok\t%s\tno such guest test\n' "$t" >>"$KTAP_RESULTS"; continue; }
		list="$list $f"
	done
else
	list=$(ls /tests/[0-9]*.sh)
fi

start=$(cut -d' ' -f1 /proc/uptime)
for t in $list; do
	echo "# running $t" >&2
	before=$(wc -l <"$KTAP_RESULTS")
	KTAP_PREFIX=$(basename "$t" .sh | sed 's/^[0-9]*-//') sh "$t"
	rc=$?
	after=$(wc -l <"$KTAP_RESULTS")
	if [ "$rc" != 0 ] || [ "$after" = "$before" ]; then
		printf 'not ok\t%s\texited %s after %s results\n' "$(basename "$t" .sh)" "$rc" $((after - before)) >>"$KTAP_RESULTS"
	fi
done

echo "KTAP version 1"
echo "1..$(wc -l <"$KTAP_RESULTS")"
awk -F '\t' '{
	printf "%s %d %s\n", $1, NR, $2
	if ($1 == "not ok" && $3 != "") printf "# %s\n", $3
	if ($1 == "not ok") bad = 1
} END { exit bad }' "$KTAP_RESULTS"
rc=$?
end=$(cut -d' ' -f1 /proc/uptime)
echo "# guest tests took $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')s"
exit $rc
