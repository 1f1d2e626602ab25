#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest tests (KTAP) for the lockdep debugfs export,
# /sys/kernel/debug/lockdep/ (Documentation/locking/lockdep-debugfs.rst).
# POSIX sh; needs only busybox (awk, sed, grep, sort, head, tail, wc).
#
# usage: export-tests.sh              check a quiet snapshot of the live files
#        export-tests.sh DIR          check copies in DIR
#        export-tests.sh --selftest [DIR]
#                                     break each invariant in a copy of the
#                                     snapshot (or of DIR) and check that the
#                                     test guarding it fails
#
# A snapshot directory holds the export files (classes deps traces usage
# chains stats) and copies of /proc/lockdep and /proc/lockdep_stats named
# lockdep and lockdep_stats, all read in one quiet moment; an optional file
# "generation" holds the export generation read after the /proc files.
#
# EXPORT_TESTS_SAVE=DIR keeps a copy of the live snapshot in DIR.
# EXPORT_TESTS_INTERNAL=1 runs only tests 1-7, which need no /proc files.
#
# Exit status: 0 all tests passed, 1 a test failed, 2 usage error.

EXPORT=${LOCKDEP_EXPORT:-/sys/kernel/debug/lockdep}
FILES="classes deps traces usage chains stats"
TRIES=${EXPORT_TESTS_TRIES:-20}
NTESTS=10
[ -n "$EXPORT_TESTS_INTERNAL" ] && NTESTS=7

# The field lists of format version 1, line 2 of each file.
fields() {
	case $1 in
	classes) echo "# id key name_version subclass usage_mask usage wait_inner wait_outer lock_type ops fd bd name" ;;
	deps)	echo "# from to distance type trace" ;;
	traces)	echo "# id frame symbol" ;;
	usage)	echo "# class state trace" ;;
	chains)	echo "# id key irq_context depth locks" ;;
	stats)	echo "# key value" ;;
	esac
}

TMP=
cleanup() { [ -n "$TMP" ] && rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

mktmp() {
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/export-tests.XXXXXX") || {
		echo "export-tests: cannot create a temporary folder" >&2
		exit 1
	}
}

# Header and trailer generations of the files in $1, one per line.
generations() {
	for f in $FILES; do
		sed -n '1s/^# lockdep [a-z]* [0-9]* generation //p' "$1/$f"
		tail -n 1 "$1/$f" | sed -n 's/^# end generation //p'
	done
	[ -f "$1/generation" ] && cat "$1/generation"
}

# Copy the export and the /proc files into $1 until one copy is quiet: the
# same generation in every header and trailer, also after /proc was read.
capture() {
	i=0
	while [ "$i" -lt "$TRIES" ]; do
		i=$((i + 1))
		for f in $FILES; do
			cat "$EXPORT/$f" >"$1/$f" || return 1
		done
		cat /proc/lockdep >"$1/lockdep" || return 1
		cat /proc/lockdep_stats >"$1/lockdep_stats" || return 1
		head -n 1 "$EXPORT/stats" |
			sed -n 's/^# lockdep stats [0-9]* generation //p' \
			>"$1/generation"
		n=$(generations "$1" | sort -u | wc -l)
		if [ "$n" = 1 ]; then
			echo "# quiet snapshot after $i read(s), generation $(cat "$1/generation")"
			return 0
		fi
		sleep 1
	done
	echo "# no quiet snapshot in $TRIES reads"
	return 1
}

# Run one test: result NUMBER NAME FUNCTION DIR. The function prints "# "
# diagnostics and fails when the invariant does not hold.
FAILED=0
result() {
	if out=$("$3" "$4" 2>&1); then
		ok="ok"
	else
		ok="not ok"
		FAILED=1
	fi
	[ -n "$out" ] && echo "$out" | head -n 20 | sed 's/^\([^#]\)/# \1/'
	echo "$ok $1 $2"
}

# 1: every file starts with "# lockdep NAME 1 generation G", the field list,
# and ends with "# end generation G"; nothing else starts with "#".
t_headers() {
	rc=0
	for f in $FILES; do
		[ -f "$1/$f" ] || { echo "# $f: missing"; rc=1; continue; }
		if ! head -n 1 "$1/$f" |
			grep -qx "# lockdep $f 1 generation [0-9][0-9]*"; then
			echo "# $f: bad header: $(head -n 1 "$1/$f")"
			rc=1
		fi
		if [ "$(sed -n 2p "$1/$f")" != "$(fields $f)" ]; then
			echo "# $f: bad field list: $(sed -n 2p "$1/$f")"
			rc=1
		fi
		if ! tail -n 1 "$1/$f" | grep -qx "# end generation [0-9][0-9]*"; then
			echo "# $f: bad trailer: $(tail -n 1 "$1/$f")"
			rc=1
		fi
		n=$(grep -c '^#' "$1/$f")
		if [ "$n" != 3 ]; then
			echo "# $f: $n comment lines, expected 3"
			rc=1
		fi
	done
	return $rc
}

# 2: all headers and trailers carry the same generation.
t_generations() {
	n=$(generations "$1" | sort -u | wc -l)
	if [ "$n" != 1 ]; then
		echo "# generations differ:" $(generations "$1" | sort -u)
		return 1
	fi
}

# The records of a file, without header and trailer.
records() { grep -v '^#' "$1"; }

# 3: every dependency joins two exported classes, with a valid distance and
# type.
t_dep_endpoints() {
	{ records "$1/classes"; echo "@@"; records "$1/deps"; } | awk '
	$0 == "@@" { deps = 1; next }
	!deps { class[$1] = 1; next }
	{
		bad = ""
		if (!($1 in class)) bad = bad " from"
		if (!($2 in class)) bad = bad " to"
		if ($3 !~ /^[1-9][0-9]*$/) bad = bad " distance"
		if ($4 !~ /^(SR|ER|SN|EN)(\|(SR|ER|SN|EN))*$/) bad = bad " type"
		if (NF != 5) bad = bad " fields"
		if (bad != "") { n++; if (n <= 10) print "# bad" bad ": " $0 }
	}
	END { if (n) { print "# " n " bad dependencies"; exit 1 } }'
}

# 4: every trace id used by a dependency or a usage record is exported.
t_trace_ids() {
	{ records "$1/traces"; echo "@@"; records "$1/deps"; echo "@@";
	  records "$1/usage"; } | awk '
	$0 == "@@" { part++; next }
	part == 0 { trace[$1] = 1; next }
	part == 1 { id = $5 }
	part == 2 { id = $3 }
	id != "-" && !(id in trace) {
		n++; if (n <= 10) print "# unknown trace " id ": " $0
	}
	END { if (n) { print "# " n " dangling trace ids"; exit 1 } }'
}

# 5: every chain element is an exported class; depth elements; read 0-2.
t_chain_elements() {
	{ records "$1/classes"; echo "@@"; records "$1/chains"; } | awk '
	$0 == "@@" { chains = 1; next }
	!chains { class[$1] = 1; next }
	{
		bad = ""
		if ($2 !~ /^0x[0-9a-f]+$/) bad = bad " key"
		if ($3 !~ /^[0-3]$/) bad = bad " irq_context"
		if (NF != 4 + $4) bad = bad " depth"
		for (i = 5; i <= NF; i++) {
			split($i, e, ":")
			if (!(e[1] in class) || e[2] !~ /^[012]$/)
				bad = bad " " $i
		}
		if (bad != "") { n++; if (n <= 10) print "# bad" bad ": " $0 }
	}
	END { if (n) { print "# " n " bad chains"; exit 1 } }'
}

# 6: the usage records are exactly the usage bits named in classes.
t_usage_records() {
	{ records "$1/classes"; echo "@@"; records "$1/usage"; } | awk '
	$0 == "@@" { usage = 1; next }
	!usage {
		if ($6 != "-") {
			k = split($6, s, ",")
			for (i = 1; i <= k; i++) want[$1 " " s[i]] = 1
		}
		next
	}
	{
		if (!(($1 " " $2) in want)) {
			n++; if (n <= 10) print "# unexpected: " $0
		}
		got[$1 " " $2] = 1
	}
	END {
		for (u in want) if (!(u in got)) {
			n++; if (n <= 20) print "# missing: " u
		}
		if (n) { print "# " n " usage mismatches"; exit 1 }
	}'
}

# 7: fd and bd of every class count its dependencies in deps (every
# locks_before entry mirrors a locks_after one).
t_dep_counts() {
	{ records "$1/classes"; echo "@@"; records "$1/deps"; } | awk '
	$0 == "@@" { deps = 1; next }
	!deps { fd[$1] = $11; bd[$1] = $12; next }
	{ f[$1]++; b[$2]++ }
	END {
		for (c in fd) if (fd[c] != f[c] + 0 || bd[c] != b[c] + 0) {
			n++
			if (n <= 10) print "# class " c ": fd " fd[c] " bd " bd[c] \
				", deps has " f[c] + 0 " out, " b[c] + 0 " in"
		}
		if (n) { print "# " n " classes with wrong counts"; exit 1 }
	}'
}

# awk: the display name of a class line of the classes file (name + #N + /N,
# as /proc/lockdep prints it) and the C escapes of the name decoded.
AWK_NAMES='
function unesc(s,   out, c, i, j, n, v) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c != "\\" || i == n) { out = out c; continue }
		c = substr(s, ++i, 1)
		if (c ~ /[0-7]/) {
			v = c + 0
			for (j = 1; j < 3 && substr(s, i + 1, 1) ~ /[0-7]/; j++)
				v = v * 8 + substr(s, ++i, 1)
			out = out sprintf("%c", v)
		}
		else if (c == "n") out = out "\n"
		else if (c == "t") out = out "\t"
		else if (c == "r") out = out "\r"
		else if (c == "f") out = out "\f"
		else if (c == "v") out = out "\v"
		else if (c == "a") out = out "\007"
		else if (c == "e") out = out "\033"
		else out = out c
	}
	return out
}
function display(line,   f, i, name) {
	split(line, f, " ")
	name = line
	for (i = 1; i <= 12; i++) sub(/^[^ ]+ /, "", name)
	name = unesc(name)
	if (f[3] > 1) name = name "#" f[3]
	if (f[4] != 0) name = name "/" f[4]
	return name
}
function usagechars(list,   u, k, i, s, st, out, w, r) {
	delete u
	k = split(list, s, ",")
	for (i = 1; i <= k; i++) u[s[i]] = 1
	out = ""
	split("HARDIRQ SOFTIRQ", st, " ")
	for (i = 1; i <= 2; i++) {
		out = out uchar(u["USED_IN_" st[i]], u["ENABLED_" st[i]])
		out = out uchar(u["USED_IN_" st[i] "_READ"], \
				u["ENABLED_" st[i] "_READ"])
	}
	return out
}
function uchar(in_irq, enabled) {
	if (enabled) return in_irq ? "?" : "+"
	return in_irq ? "-" : "."
}
'

# /proc/lockdep as "C<TAB>usage<TAB>name" and "D<TAB>from -> to" lines.
proc_lines() {
	awk '
	/^all lock classes:/ || /^$/ { next }
	/^ -> \[/ {
		to = $0
		sub(/^ -> \[[^]]*\] /, "", to)
		print "D\t" from " -> " to
		next
	}
	{
		line = $0
		usage = ""
		if (match(line, / [-+?.]+: /))
			usage = substr(line, RSTART + 1, RLENGTH - 3)
		sub(/^[^ ]+( OPS: *[0-9]+)?( FD: *[0-9]+ BD: *[0-9]+ [-+?.]+)?: /, "", line)
		from = line
		print "C\t" usage "\t" line
	}' "$1"
}

# 8: the " -> " lines of /proc/lockdep are exactly the distance-1 deps.
t_proc_deps() {
	{ records "$1/classes"; echo "@@"; records "$1/deps"; echo "@@";
	  proc_lines "$1/lockdep"; } | awk "$AWK_NAMES"'
	$0 == "@@" { part++; next }
	part == 0 { name[$1] = display($0); next }
	part == 1 { if ($3 == 1) want[name[$1] " -> " name[$2]] = 1; next }
	/^D\t/ {
		d = substr($0, 3)
		if (!(d in want)) {
			n++; if (n <= 10) print "# only in /proc/lockdep: " d
		}
		got[d] = 1
	}
	END {
		for (d in want) if (!(d in got)) {
			n++; if (n <= 20) print "# only in deps: " d
		}
		if (n) { print "# " n " mismatches"; exit 1 }
	}'
}

# 9: /proc/lockdep shows the same classes, with the usage characters that
# the exported usage bits give.
t_proc_usage() {
	{ records "$1/classes"; echo "@@"; proc_lines "$1/lockdep"; } |
	awk "$AWK_NAMES"'
	$0 == "@@" { proc = 1; next }
	!proc { u = usagechars($6); want[display($0)] = u; next }
	/^C\t/ {
		split($0, f, "\t")
		if (!(f[3] in want)) {
			n++; if (n <= 10) print "# only in /proc/lockdep: " f[3]
		} else if (want[f[3]] != f[2]) {
			n++; if (n <= 10) print "# " f[3] ": /proc/lockdep " \
				f[2] ", export gives " want[f[3]]
		}
		got[f[3]] = 1
	}
	END {
		for (c in want) if (!(c in got)) {
			n++; if (n <= 20) print "# only in classes: " c
		}
		if (n) { print "# " n " mismatches"; exit 1 }
	}'
}

# The value of a /proc/lockdep_stats line by label.
proc_stat() {
	awk -F: -v l="$2" '{ sub(/^ +/, "", $1) } $1 == l { print $2 + 0 }' "$1"
}

# The value of an export stats key.
xstat() {
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}

# 10: the counts agree with /proc/lockdep_stats and with the export's own
# stats; the documented stats keys are present.
t_stats_counts() {
	rc=0
	classes=$(records "$1/classes" | wc -l)
	deps=$(records "$1/deps" | wc -l)
	chains=$(records "$1/chains" | wc -l)
	check() {
		if [ "$2" != "$3" ]; then
			echo "# $1: $2 != $3"
			rc=1
		fi
	}
	check "classes vs lockdep_stats lock-classes" "$classes" \
		"$(proc_stat "$1/lockdep_stats" lock-classes)"
	check "classes vs stats lock_classes" "$classes" \
		"$(xstat "$1/stats" lock_classes)"
	check "chains vs lockdep_stats dependency chains" "$chains" \
		"$(proc_stat "$1/lockdep_stats" "dependency chains")"
	check "chains vs stats dependency_chains" "$chains" \
		"$(xstat "$1/stats" dependency_chains)"
	check "2 x deps vs lockdep_stats direct dependencies" \
		"$((2 * deps))" \
		"$(proc_stat "$1/lockdep_stats" "direct dependencies")"
	check "2 x deps vs stats direct_dependencies" "$((2 * deps))" \
		"$(xstat "$1/stats" direct_dependencies)"
	for k in generation lock_classes direct_dependencies dependency_chains \
		stack_trace_entries debug_locks zapped_classes \
		max_classes max_list_entries max_chains max_chain_hlocks \
		max_stack_trace_entries bfs_queue_size max_lock_depth \
		max_subclasses prove_raw_lock_nesting; do
		if ! records "$1/stats" | grep -q "^$k [0-9][0-9]*\$"; then
			echo "# stats: no $k"
			rc=1
		fi
	done
	# a wait type 4 (LD_WAIT_SLEEP) exists only with raw lock nesting
	nest=$(xstat "$1/stats" prove_raw_lock_nesting)
	fours=$(records "$1/classes" | awk '$7 == 4 || $8 == 4' | wc -l)
	case "$nest:$fours" in
	0:0 | 1:[1-9]*) ;;
	*)	echo "# stats: prove_raw_lock_nesting '$nest' with $fours classes of wait type 4"
		rc=1 ;;
	esac
	return $rc
}

run_tests() {
	result 1 headers t_headers "$1"
	result 2 generations t_generations "$1"
	result 3 dep_endpoints t_dep_endpoints "$1"
	result 4 trace_ids t_trace_ids "$1"
	result 5 chain_elements t_chain_elements "$1"
	result 6 usage_records t_usage_records "$1"
	result 7 dep_counts t_dep_counts "$1"
	[ "$NTESTS" = 7 ] && return
	result 8 proc_deps t_proc_deps "$1"
	result 9 proc_usage_chars t_proc_usage "$1"
	result 10 stats_counts t_stats_counts "$1"
}

# Self-test: "mutate NAME TEST FILE CMD..." runs CMD (sed or awk) on a copy
# of FILE in a copy of the snapshot and expects test TEST to fail on it.
SELF=$0
SNAP=
SN=0
mutate() {
	SN=$((SN + 1))
	name=$1 test=$2 file=$3
	shift 3
	m=$TMP/mut
	rm -rf "$m"
	mkdir "$m" && cp "$SNAP"/* "$m"/ || exit 1
	if ! "$@" <"$SNAP/$file" >"$m/$file" ||
		cmp -s "$SNAP/$file" "$m/$file"; then
		echo "not ok $SN $name # mutation of $file failed or changed nothing"
		FAILED=1
		return
	fi
	if sh "$SELF" "$m" | grep -q "^not ok [0-9]* $test\$"; then
		echo "ok $SN $name"
	else
		echo "# $test still passes on the mutated copy"
		echo "not ok $SN $name"
		FAILED=1
	fi
}

selftest() {
	SNAP=$1
	# a dependency with a trace, and one with distance 1, from the copy
	dep=$(records "$SNAP/deps" | awk '$5 != "-" { print; exit }')
	trace=$(echo "$dep" | awk '{ print $5 }')
	dist1=$(records "$SNAP/deps" | awk '$3 == 1 { print; exit }')

	echo "KTAP version 1"
	echo "1..15"
	SN=1
	if out=$(sh "$SELF" "$SNAP"); then
		echo "ok 1 baseline"
	else
		echo "$out" | grep -v '^ok' | sed 's/^\([^#]\)/# \1/'
		echo "not ok 1 baseline"
		FAILED=1
	fi
	mutate bad_version headers classes \
		sed '1s/ 1 generation / 2 generation /'
	mutate missing_trailer headers chains sed '$d'
	mutate changed_generation generations deps \
		sed '1s/generation [0-9]*$/generation 1/'
	mutate dangling_dep dep_endpoints deps \
		awk '/^# end/ { print "0 99999 1 EN -" } 1'
	mutate dangling_trace trace_ids traces awk -v t="$trace" '$1 != t'
	mutate dangling_chain_element chain_elements chains \
		awk '!/^#/ && !done { $5 = "99999:0"; done = 1 } 1'
	mutate missing_usage usage_records usage \
		awk '!/^#/ && !done { done = 1; next } 1'
	mutate wrong_fd dep_counts classes \
		awk '!/^#/ && !done { $11 = $11 + 1; done = 1 } 1'
	mutate proc_dep_missing proc_deps lockdep \
		awk '/^ -> / && !done { done = 1; next } 1'
	mutate export_dep_missing proc_deps deps \
		awk -v d="$dist1" '$0 == d && !done { $3 = 2; done = 1 } 1'
	mutate usage_char proc_usage_chars lockdep \
		awk '!done && sub(/[-+?.]: /, "X: ") { done = 1 } 1'
	mutate class_count stats_counts lockdep_stats \
		sed 's/^\( lock-classes: *\)[0-9]*/\19999999/'
	mutate chain_count stats_counts chains \
		awk '!/^#/ && !done { done = 1; next } 1'
	mutate wait_numbering stats_counts stats \
		sed 's/^prove_raw_lock_nesting 1$/prove_raw_lock_nesting 0/'
}

case $1 in
-h|--help)
	sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
--selftest)
	mktmp
	if [ -n "$2" ]; then
		selftest "$2"
	else
		mkdir "$TMP/snap" || exit 1
		capture "$TMP/snap" >/dev/null
		selftest "$TMP/snap"
	fi
	exit $FAILED
	;;
-*)
	echo "usage: export-tests.sh [DIR] | --selftest [DIR]" >&2
	exit 2
	;;
esac

echo "KTAP version 1"
echo "1..$NTESTS"
if [ -n "$1" ]; then
	[ -d "$1" ] || { echo "export-tests: $1: not a folder" >&2; exit 2; }
	run_tests "$1"
else
	[ -d "$EXPORT" ] ||
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	mktmp
	capture "$TMP" || echo "# checking the last, not quiet, snapshot"
	if [ -n "$EXPORT_TESTS_SAVE" ]; then
		mkdir -p "$EXPORT_TESTS_SAVE" && cp "$TMP"/* "$EXPORT_TESTS_SAVE"/
	fi
	run_tests "$TMP"
fi
exit $FAILED
