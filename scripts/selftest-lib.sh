# Shared by the host self-tests of the scripts (harness-selftest.sh,
# kernel-selftest.sh).  Sourced, not run, once $tmp is a scratch folder.
#
#   t NAME WANT-RC CMD...   one result: CMD must exit WANT-RC.  A check
#                           whose command is grep reads $tmp/out, the
#                           output of the command before it.
#   selftest_end            print the KTAP document; false if any failed
n=0 results=()

t() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$tmp/out.new" 2>&1
	rc=$?
	case $1 in grep) ;; *) mv "$tmp/out.new" "$tmp/out" ;; esac
	n=$((n + 1))
	if [ "$rc" = "$want" ]; then results+=("ok $n $name")
	else results+=("not ok $n $name" "# exit $rc, want $want: $(head -c 400 "$tmp/out" | tr '\n' '|')"); fi
}

selftest_end() {
	echo "KTAP version 1"
	echo "1..$n"
	printf '%s\n' "${results[@]}"
	! printf '%s\n' "${results[@]}" | grep -q '^not ok'
}
