#!/bin/sh
# Lockdep conformance, guest side: run the rows of /tests/conformance.table
# that belong to this boot (kernel command line lockdep_conformance.boot=B,
# default "silent"), one KTAP result per row.  The host side,
# scripts/conformance.sh, boots once per boot group and checks the console.
#
# Per row: write the scenario to /sys/kernel/debug/lockdep-scenarios/run,
# check the kernel log since the scenario started (exactly the declared
# report title, or none), debug_locks, then the row's steps in order.
. /tests/ktap.sh

# the host's table when it shares one (scripts/conformance.sh --table)
TABLE=/tests/conformance.table
[ -r /host/conformance.table ] && TABLE=/host/conformance.table
DIR=/sys/kernel/debug/lockdep-scenarios
X=/sys/kernel/debug/lockdep
MOD=lockdep_scenarios
T=/tmp/conformance
mkdir -p $T

BOOT=silent
for w in $(cat /proc/cmdline); do
	case $w in lockdep_conformance.boot=*) BOOT=${w#*=} ;; esac
done

# The report titles the host's console scan looks for (scripts/console-scan.sh)
BAD='^(\[ *[0-9]+\.[0-9]+\] )?(WARNING:|BUG:|\[ BUG:|Oops|Kernel panic|kernel BUG|INFO: |general protection fault|UBSAN:|KASAN:|KFENCE:|DEBUG_LOCKS_WARN_ON|watchdog: BUG|RCU detected|Unable to handle)'

stat_val() {	# value of a /proc/lockdep_stats label
	awk -F: -v k="$1" '{ l = $1; sub(/^ +/, "", l) } l == k { gsub(/[^0-9]/, "", $2); print $2; exit }' /proc/lockdep_stats
}

# /proc/lockdep as "class NAME FD BD USAGE" and "edge FROM TO" lines,
# cached in $T/graph until the next scenario or action: reading
# /proc/lockdep runs two BFS per class, seconds under TCG.
proc_graph() {
	[ -s $T/graph ] || proc_graph_read >$T/graph
	cat $T/graph
}

proc_graph_read() {
	awk '
	/^[^ ]/ {	# the key is hex, or (____ptrval____) before the crng is ready
		if (!match($0, / BD: *[0-9]+ [^ ]*: /)) next
		hdr = substr($0, 1, RSTART + RLENGTH - 1)
		cur = substr($0, RSTART + RLENGTH)
		fd = hdr; sub(/.* FD: */, "", fd); sub(/ .*/, "", fd)
		bd = hdr; sub(/.* BD: */, "", bd); sub(/ .*/, "", bd)
		u = hdr; sub(/.* BD: *[0-9]+ /, "", u); sub(/: $/, "", u)
		print "class\t" cur "\t" fd "\t" bd "\t" u
		next
	}
	/^ -> \[/ { n = $0; sub(/^ -> \[[^]]*\] /, "", n); print "edge\t" cur "\t" n }
	' /proc/lockdep
}

# The export, if present: /sys/kernel/debug/lockdep/classes as
# "ID<TAB>DISPLAY-NAME<TAB>KEY<TAB>USAGE<TAB>SUBCLASS" (DISPLAY-NAME as in
# /proc/lockdep)
x_classes() {
	awk '
	/^#/ { next }
	{
		n = $0
		for (i = 0; i < 12; i++) sub(/^[^ ]+ /, "", n)
		d = n
		if ($3 > 1) d = d "#" $3
		if ($4 != 0) d = d "/" $4
		print $1 "\t" d "\t" $2 "\t" $6 "\t" $4
	}' $X/classes
}

x_id() {	# NAME -> class id in the export
	x_classes | awk -F '\t' -v n="$1" '$2 == n { print $1; exit }'
}

x_dep() {	# FROM TO -> "distance type" from the export
	a=$(x_id "$1") b=$(x_id "$2")
	[ -n "$a" ] || { echo "export: no class $1"; return 1; }
	[ -n "$b" ] || { echo "export: no class $2"; return 1; }
	awk -v a="$a" -v b="$b" '!/^#/ && $1 == a && $2 == b { print $3, $4; f = 1; exit } END { exit !f }' $X/deps ||
		{ echo "export: no dependency $1 -> $2"; return 1; }
}

has_class() { proc_graph | awk -F '\t' -v n="$1" '$1 == "class" && $2 == n { f = 1 } END { exit !f }'; }
has_edge() { proc_graph | awk -F '\t' -v a="$1" -v b="$2" '$1 == "edge" && $2 == a && $3 == b { f = 1 } END { exit !f }'; }
class_field() {	# NAME FIELD(3=fd 4=bd 5=usage)
	proc_graph | awk -F '\t' -v n="$1" -v f="$2" '$1 == "class" && $2 == n { print $f; exit }'
}

# Chains of /proc/lockdep_chains whose locks are exactly the list A,B,...
count_chains() {
	awk -v want="$1" '
	function done() { if (inchain && locks == want) n++; inchain = 0; locks = "" }
	/^irq_context:/ { done(); inchain = 1; next }
	/^\[/ { l = $0; sub(/^\[[^]]*\] /, "", l); locks = (locks == "" ? l : locks "," l); next }
	/^$/ { done() }
	END { done(); print n + 0 }' /proc/lockdep_chains
}

have_export() { [ -r $X/classes ]; }

# step VERB ARGS...: one check or action; prints a diagnostic and returns
# 1 on failure, 2 when the rest of the row is to be skipped.
step() {
	verb=$1
	shift
	case $verb in
	x-*)	if ! have_export; then
			# skipped on a stock kernel, not on ours (ktap.sh)
			[ "${LOCKDEP_EXPORT_EXPECTED:-0}" = 1 ] || return 0
			echo "export: $X/classes missing"
			return 1
		fi ;;
	esac
	case $verb in
	run|rmmod|net-workload) rm -f $T/graph ;;
	esac
	case $verb in
	class)	has_class "$1" || { echo "no class $1 in /proc/lockdep"; return 1; } ;;
	noclass) ! has_class "$1" || { echo "class $1 still in /proc/lockdep"; return 1; } ;;
	noclass-prefix)
		left=$(proc_graph | awk -F '\t' -v p="$1" '$1 == "class" && index($2, p) == 1 { print $2 }' | head -n 3 | tr '\n' ' ')
		[ -z "$left" ] || { echo "classes left: $left"; return 1; } ;;
	edge)	has_edge "$1" "$2" || { echo "no $1 -> $2 in /proc/lockdep"; return 1; } ;;
	noedge)	! has_edge "$1" "$2" || { echo "unexpected $1 -> $2 in /proc/lockdep"; return 1; } ;;
	usage)	v=$(class_field "$1" 5)
		[ "$v" = "$2" ] || { echo "usage of $1 is '$v', want '$2'"; return 1; } ;;
	fd|bd)	[ $verb = fd ] && f=3 || f=4
		v=$(class_field "$1" $f)
		[ "$v" = "$2" ] || { echo "$verb of $1 is '$v', want $2"; return 1; } ;;
	chains)	v=$(count_chains "$1")
		[ "$v" = "$2" ] || { echo "$v chains hold exactly $1, want $2"; return 1; } ;;
	delta)	label=$(echo "$1" | tr _ ' ')
		a=$(awk -F: -v k="$label" '{ l = $1; sub(/^ +/, "", l) } l == k { gsub(/[^0-9]/, "", $2); print $2; exit }' $T/stats.before)
		b=$(stat_val "$label")
		[ -n "$a" ] && [ -n "$b" ] || { echo "no '$label' in /proc/lockdep_stats"; return 1; }
		[ $((b - a)) "$2" "$3" ] || { echo "$label: $a -> $b (delta $((b - a))), want $2 $3"; return 1; } ;;
	dmesg)	grep -qF -- "$*" $T/dmesg || { echo "the kernel log lacks '$*'"; return 1; } ;;
	run)	echo "$*" >$DIR/run 2>$T/run.err || { echo "run $*: $(cat $T/run.err)"; return 1; } ;;
	rmmod)	if [ ! -e /sys/module/$MOD/refcnt ]; then
			echo "built in: unload part skipped"
			return 2
		fi
		rmmod $MOD 2>&1 || return 1 ;;
	net-workload)
		nc -l -p 4711 >$T/nc.out &
		sleep 1
		echo ping | nc 127.0.0.1 4711
		wait
		grep -q ping $T/nc.out || { echo "loopback TCP failed"; return 1; }
		syslogd -n -O $T/syslog &
		pid=$!
		sleep 1
		logger lockdep-conformance
		sleep 1
		kill $pid
		grep -q lockdep-conformance $T/syslog || { echo "UNIX datagram socket failed"; return 1; } ;;
	tool-report-new)
		# the report's locks linked to the same boot's live classes
		lockdep-tool report --brief >$T/tool-report 2>&1
		grep -qxF "    $1 -> $2  [new: not added]" $T/tool-report ||
			{ echo "lockdep-tool report: $1 -> $2 not marked new: $(head -c 300 $T/tool-report | tr '\n' '|')"; return 1; }
		for c in "$1" "$2"; do
			grep -E '^  (acquire|hold): ' $T/tool-report | grep -F "$c " | grep -q '\[class @[0-9]*\]' ||
				{ echo "lockdep-tool report: $c not linked to a live class"; return 1; }
		done ;;
	snapshot)	# for the tool's fixtures, when the host shares a folder
		grep -q " /host 9p " /proc/mounts || return 0
		d=/host/snapshots/$name
		mkdir -p $d || return 1
		for f in lockdep lockdep_chains lockdep_stats lock_stat; do
			cat /proc/$f >$d/$f || return 1
		done
		cat /proc/sys/kernel/osrelease >$d/osrelease
		if have_export; then
			mkdir -p $d/export/lockdep
			for f in classes deps traces usage chains stats; do
				cat $X/$f >$d/export/lockdep/$f || return 1
			done
		fi ;;
	selftests-passed)
		dmesg | grep -q 'Good, all [0-9]* testcases passed' ||
			{ echo "no 'Good, all N testcases passed' in the boot log"; return 1; } ;;
	all-scenarios-tabled)
		# every scenario the module lists is run by a row or a run step
		left=$(awk '
		FNR == NR { if ($1 != "#") want[$1] = 1; next }
		/^[ \t]*(#|$)/ { next }
		{
			if (split($0, f, "|") < 6) next
			split(f[3], w, " ")
			used[w[1]] = 1
			m = split(f[6], st, ";")
			for (i = 1; i <= m; i++) {
				split(st[i], w, " ")
				if (w[1] == "run") used[w[2]] = 1
			}
		}
		END { for (x in want) if (!(x in used)) printf "%s ", x }' $DIR/list "$TABLE")
		[ -z "$left" ] || { echo "scenarios no row runs: $left"; return 1; } ;;
	sumount-per-fstype)
		types=$(awk '{ print $3 }' /proc/mounts | sort -u | wc -l)
		# one key per file_system_type: "&type->s_umount_key#N", any subclass
		n=$(proc_graph | awk -F '\t' '$1 == "class" { b = $2; sub(/\/[0-9]+$/, "", b) }
			b ~ /^&type->s_umount_key(#[0-9]+)?$/ { print b }' | sort -u | wc -l)
		[ "$n" -ge "$types" ] || { echo "$n s_umount classes for $types mounted fs types"; return 1; } ;;
	x-class) [ -n "$(x_id "$1")" ] || { echo "export: no class $1"; return 1; } ;;
	x-noclass) [ -z "$(x_id "$1")" ] || { echo "export: class $1 still listed"; return 1; } ;;
	x-dep)	v=$(x_dep "$1" "$2") || { echo "$v"; return 1; }
		[ "${v#* }" = "$3" ] || { echo "export: $1 -> $2 has type ${v#* }, want $3"; return 1; } ;;
	x-dist)	v=$(x_dep "$1" "$2") || { echo "$v"; return 1; }
		[ "${v%% *}" = "$3" ] || { echo "export: $1 -> $2 has distance ${v%% *}, want $3"; return 1; } ;;
	x-trace-dmesg)
		# the stack the export saved with A -> B, frame by frame, as
		# consecutive lines of the kernel log (a report printed it):
		# the export's symbols (cached per read) against printk's %pS
		a=$(x_id "$1") b=$(x_id "$2")
		t=$(awk -v a="$a" -v b="$b" '!/^#/ && $1 == a && $2 == b { print $5; exit }' $X/deps)
		[ -n "$t" ] && [ "$t" != - ] || { echo "export: no trace for $1 -> $2"; return 1; }
		awk -v t="$t" '!/^#/ && $1 == t && $2 != "-" { sub(/^[^ ]+ [^ ]+ /, ""); print }' $X/traces >$T/frames
		[ -s $T/frames ] || { echo "export: trace $t has no frames"; return 1; }
		sed -E 's/^\[ *[0-9]+\.[0-9]+\] *//; s/^ +//' $T/dmesg >$T/dmesg.frames
		awk 'NR == FNR { f[n++] = $0; next }
			{ k = ($0 == f[k]) ? k + 1 : ($0 == f[0]); if (k == n) { ok = 1; exit } }
			END { exit !ok }' $T/frames $T/dmesg.frames ||
			{ echo "the kernel log lacks the $(wc -l <$T/frames) frames of trace $t ($1 -> $2), first: $(head -n 1 $T/frames)"; return 1; } ;;
	x-usage)
		u=$(x_classes | awk -F '\t' -v n="$1" '$2 == n { print $4; exit }')
		for bit in $(echo "$2" | tr , ' '); do
			case ",$u," in *",$bit,"*) ;; *) echo "export: usage of $1 is '$u', lacks $bit"; return 1 ;; esac
		done ;;
	x-key)	k=$(x_classes | awk -F '\t' -v n="$1" '$2 == n { print $3; exit }')
		[ "$k" = "$2" ] || { echo "export: key of $1 is '$k', want '$2'"; return 1; } ;;
	x-sumount-keys)
		# the key is the fs type's symbol (&fs_type->s_umount_key): one
		# class per key and subclass, a key per mounted fs type at least
		x_classes | awk -F '\t' '{ b = $2; sub(/(#[0-9]+)?(\/[0-9]+)?$/, "", b) }
			b == "&type->s_umount_key" { print $3 "\t" $5 }' >$T/keys
		n=$(wc -l <$T/keys) u=$(sort -u $T/keys | wc -l) k=$(cut -f1 $T/keys | sort -u | wc -l)
		types=$(awk '{ print $3 }' /proc/mounts | sort -u | wc -l)
		[ "$n" = "$u" ] && [ "$k" -ge "$types" ] ||
			{ echo "export: $n s_umount classes, $u distinct (key, subclass), $k keys for $types fs types"; return 1; } ;;
	*)	echo "unknown step '$verb'"; return 1 ;;
	esac
}

# The kernel log of the current row into $T/dmesg: from its scenario's
# start line on, or from line $start on when it runs no scenario.
row_log() {
	if [ "$run" != - ]; then
		dmesg | awk -v m="$MOD: ${run%% *}: start" 'index($0, m) { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }'
	else
		dmesg | tail -n +$((start + 1))
	fi >$T/dmesg
}

# row NAME RUN REPORT DEBUG_LOCKS STEPS
row() {
	name=$1 run=$2 report=$3 want_dl=$4 steps=$5
	diag= XSKIP=0 skipped=
	rm -f $T/graph
	cp /proc/lockdep_stats $T/stats.before
	start=$(dmesg | wc -l)
	if [ "$run" != - ]; then
		if ! echo "$run" >$DIR/run 2>$T/run.err; then
			ktap_result fail "$name" "echo '$run' >$DIR/run: $(cat $T/run.err)"
			return
		fi
	fi
	row_log
	dl=$(stat_val debug_locks)
	[ "$dl" = "$want_dl" ] || diag="$diag debug_locks is $dl, want $want_dl;"

	oldifs=$IFS
	IFS=';'
	set -f
	for s in $steps; do
		IFS=$oldifs
		set -- $s
		IFS=';'
		[ $# -gt 0 ] || continue
		out=$(IFS=$oldifs; step "$@" 2>&1)
		rc=$?
		if [ $rc = 2 ]; then
			skipped="$out"
			break
		fi
		[ $rc = 0 ] || diag="$diag $(echo $s): $out;"
	done
	set +f
	IFS=$oldifs

	# the reports of the whole row, its actions included
	row_log
	found=$(grep -E "$BAD" $T/dmesg | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //')
	if [ "$report" = - ]; then
		[ -z "$found" ] || diag="$diag report(s) where none is expected: $(echo "$found" | head -n 3 | tr '\n' '|');"
	else
		# the whole title; '*' matches any text (scripts/console-scan.sh)
		re=$(printf '%s' "$report" | sed -e 's/[][\\.^$+?(){}|]/\\&/g' -e 's/\*/.*/g')
		n=$(printf '%s\n' "$found" | grep -cxE -- "$re")
		other=$(printf '%s\n' "$found" | grep -vxE -- "$re" | grep -v '^$' | head -n 3 | tr '\n' '|')
		[ "$n" = 1 ] || diag="$diag '$report' seen $n times;"
		[ -z "$other" ] || diag="$diag other reports: $other;"
	fi
	if ! have_export; then
		XSKIP=$(echo "$steps" | tr ';' '\n' | grep -c '^ *x-')
	fi

	[ "$XSKIP" -gt 0 ] && echo "lockdep-conformance: $name: $XSKIP export checks skipped: no $X" >&2
	if [ -n "$diag" ]; then
		ktap_result fail "$name" "$diag"
	elif [ -n "$skipped" ]; then
		ktap_result skip "$name" "$skipped"
	else
		ktap_result ok "$name"
	fi
}

if [ ! -e $DIR/run ]; then
	modprobe $MOD 2>$T/modprobe.err ||
		insmod "$(find /lib/modules -name 'lockdep-scenarios.ko*' | head -n 1)" 2>>$T/modprobe.err
fi
if [ ! -e $DIR/run ]; then
	ktap_result fail "$BOOT" "no $DIR/run: kernel without CONFIG_LOCKDEP_SCENARIOS? $(tr '\n' ' ' <$T/modprobe.err)"
	exit 0
fi

rows=0
while IFS='|' read -r name boot run report dl steps; do
	name=$(echo $name) boot=$(echo $boot)
	case $name in ''|'#'*) continue ;; esac
	[ "$boot" = "$BOOT" ] || continue
	run=$(echo $run) dl=$(echo $dl)
	report=$(echo "$report" | sed 's/^ *//; s/ *$//')
	echo "# $name: $run" >&2
	row "$name" "$run" "$report" "$dl" "$steps" </dev/null
	rows=$((rows + 1))
done <"$TABLE"
[ $rows -gt 0 ] || ktap_result fail "$BOOT" "no row of $TABLE has boot '$BOOT'"
exit 0
