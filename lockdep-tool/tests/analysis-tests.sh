# SPDX-License-Identifier: GPL-2.0
#
# analysis-tests.sh - the host tests of issue 6 (why, path, cycles,
# irq-check, merge, diff, report, dot --path/--cycle/--report), sourced by
# run-tests.sh after its own sections: it uses run-tests.sh's variables
# (TOP WORK FIX OUT ASAN_BIN PI SRCDIR) and helpers (ok fail skip sane),
# and adds its results to the same KTAP plan.  Golden tests of these
# commands are in tests/golden with the others.

AN=$FIX/analysis
RH=$FIX/reports-handmade
GRAPH_UNIT=${GRAPH_UNIT:-$OUT/asan/test-graph}

# --- A. unit tests on synthetic graphs and report variants -------------------
if [ -x "$GRAPH_UNIT" ]; then
	"$GRAPH_UNIT" "$FIX" > "$WORK/graph-unit.log" 2> "$WORK/graph-unit.err"
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*) echo "${line/ok /ok graph_}" >> "$RESULTS" ;;
		"# "*) echo "$line" >> "$RESULTS" ;;
		esac
	done < "$WORK/graph-unit.log"
	if [ $rc != 0 ] || [ -s "$WORK/graph-unit.err" ]; then
		fail graph_unit_exit "exit $rc" "$(head -c 2000 "$WORK/graph-unit.err")"
	fi
else
	fail graph_unit_exit "no $GRAPH_UNIT"
fi

# --- B. every analysis command: JSON parses, DOT renders, same bytes twice ------
an_fail=
an_json() {	# SOURCE-ARGS -- COMMAND...: exit 0 or 1, valid JSON
	local rc
	"$ASAN_BIN" "$@" > "$WORK/an.json" 2> "$WORK/an.err"
	rc=$?
	if ! sane $rc "$WORK/an.err" || [ $rc -gt 1 ] ||
	   ! jq -e '.format_version == 1' "$WORK/an.json" > /dev/null 2>&1; then
		an_fail="$an_fail [$*: rc $rc]"
	fi
}
for src in "$AN/rings" "$AN/rwsem" "$AN/irq" "$FIX/handmade/prove" \
	   "$FIX/handmade/export" "$REAL" "$FIX/export-6.12.118-workload" \
	   "$AN/crossboot/boot1 -s $AN/crossboot/boot2"; do
	[ -e "${src%% *}" ] || continue
	eval "set -- -s $src"
	an_json "$@" -j cycles --weak
	an_json "$@" -j irq-check --max 5
	an_json "$@" -j why @0 @1
	an_json "$@" -j path @0 @1
	an_json "$@" -j path --all @0 @1
	an_json "$@" -j dot --path @0 @1
	an_json "$@" -j diff "${src%% *}"
done
an_json -s "$AN/crossboot/boot1" -s "$AN/crossboot/boot2" -j merge --all
for f in "$RH"/*; do
	[ "${f%.md}" = "$f" ] || continue
	an_json -j report "$f"
	an_json -s "$FIX/handmade/export" -j dot --report 1 --log "$f"
done
if [ -z "$an_fail" ]; then ok analysis_json_every_command
else fail analysis_json_every_command "$an_fail"; fi

dot_fail=
for c in "-s $AN/rings dot --cycle cycle-519ac370" \
	 "-s $AN/irq dot --path hs hu" \
	 "-s $AN/crossboot/boot1 -s $AN/crossboot/boot2 dot --cycle cycle-3df2169c" \
	 "-s $FIX/handmade/prove dot --report 1 --log $RH/safe-unsafe-softirq-chain.txt" \
	 "-s $FIX/handmade/prove dot --report 6 --log $RH/several-with-noise.log"; do
	eval "set -- $c"
	"$ASAN_BIN" "$@" > "$WORK/an.dot" 2> "$WORK/an.err"
	rc=$?
	# a failed or empty run renders too (dot takes an empty file)
	if [ $rc != 0 ] || ! grep -q '^digraph ' "$WORK/an.dot"; then
		dot_fail="$dot_fail [$c: exit $rc, no graph: $(head -c 200 "$WORK/an.err")]"
	elif ! dot -Tsvg "$WORK/an.dot" -o /dev/null 2> "$WORK/an.dot.err" ||
	   [ -s "$WORK/an.dot.err" ]; then
		dot_fail="$dot_fail [$c: dot failed]"
	fi
	"$ASAN_BIN" "$@" 2> /dev/null | cmp -s - "$WORK/an.dot" ||
		dot_fail="$dot_fail [$c: not deterministic]"
done
if [ -z "$dot_fail" ]; then ok analysis_dot_renders_deterministic
else fail analysis_dot_renders_deterministic "$dot_fail"; fi

# --- C. the cross-boot script on the fixture pair -----------------------------
if TOOL=$ASAN_BIN CONSOLE=$RH/circular-abba.console \
   "$SRCDIR/tests/crossboot.sh" "$AN/crossboot/boot1" "$AN/crossboot/boot2" \
	> "$WORK/crossboot.log" 2>&1
then ok crossboot_script_union_cycle
else fail crossboot_script_union_cycle "$(grep -E '^(not ok|#)' "$WORK/crossboot.log" | head -n 5)"; fi
# the real half-ab / half-ba snapshots and the abba console of the guest
SN=$FIX/reports/snapshots
if [ -d "$SN/half-ab" ] && [ -d "$SN/half-ba" ]; then
	if TOOL=$ASAN_BIN CONSOLE=$FIX/reports/abba.console \
	   "$SRCDIR/tests/crossboot.sh" "$SN/half-ab" "$SN/half-ba" \
		> "$WORK/crossboot-real.log" 2>&1
	then ok crossboot_script_real_snapshots
	else fail crossboot_script_real_snapshots "$(grep -E '^(not ok|#)' "$WORK/crossboot-real.log" | head -n 5)"; fi
else
	skip crossboot_script_real_snapshots "no reports/snapshots/half-ab, half-ba"
fi
# and it notices when there is nothing to find (both halves the same):
# fails for that reason, not for any
if ! TOOL=$ASAN_BIN "$SRCDIR/tests/crossboot.sh" "$AN/crossboot/boot1" \
	"$AN/crossboot/boot1" > "$WORK/crossboot-same.log" 2>&1 &&
   grep -qE '^not ok [0-9]+ union_finds_the_ab_cycle' "$WORK/crossboot-same.log" &&
   grep -qE '^ok [0-9]+ snapshot1_records_a_to_b' "$WORK/crossboot-same.log"
then ok crossboot_script_detects_missing_cycle
else fail crossboot_script_detects_missing_cycle "$(head -n 12 "$WORK/crossboot-same.log")"; fi

# --- C2. a union saved as one file (snapshot format 2) ------------------------
B1=$AN/crossboot/boot1 B2=$AN/crossboot/boot2 B3=$FIX/handmade/prove
U=$WORK/union.snap
un_fail=
"$ASAN_BIN" -s "$B1" -s "$B2" save "$U" > /dev/null 2> "$WORK/un.err" ||
	un_fail="$un_fail [save: $(head -c 200 "$WORK/un.err")]"
"$ASAN_BIN" -s "$U" save "$WORK/union2.snap" > /dev/null 2>&1 &&
	cmp -s "$U" "$WORK/union2.snap" || un_fail="$un_fail [not byte exact]"
head -n 1 "$U" | grep -qx 'lockdep-tool snapshot 2' ||
	un_fail="$un_fail [header: $(head -n 1 "$U")]"
for c in "cycles" "-j cycles" "irq-check" "merge --all" "classes" "deps --depth 3 @0"; do
	eval "set -- $c"
	"$ASAN_BIN" -s "$B1" -s "$B2" "$@" > "$WORK/un.want" 2>&1
	"$ASAN_BIN" -s "$U" "$@" > "$WORK/un.got" 2>&1
	cmp -s "$WORK/un.want" "$WORK/un.got" ||
		un_fail="$un_fail [$c differs: $(diff "$WORK/un.want" "$WORK/un.got" | head -n 3 | tr '\n' ' ')]"
done
# given with another snapshot, its parts join it: -s U -s B3 = -s B1 -s B2 -s B3
"$ASAN_BIN" -s "$B1" -s "$B2" -s "$B3" merge --all > "$WORK/un.want" 2>&1
"$ASAN_BIN" -s "$U" -s "$B3" merge --all > "$WORK/un.got" 2>&1
cmp -s "$WORK/un.want" "$WORK/un.got" || un_fail="$un_fail [flattening differs]"
"$ASAN_BIN" -s "$U" -s "$B3" save "$WORK/union3.snap" > /dev/null 2>&1
[ "$(grep -c '^part [0-9]*$' "$WORK/union3.snap")" = 3 ] ||
	un_fail="$un_fail [3 parts expected]"
# a diff against a saved union
"$ASAN_BIN" -s "$B1" diff "$U" "$B1" > /dev/null 2> "$WORK/un.err"
[ $? = 1 ] || un_fail="$un_fail [diff UNION B1: $(head -c 200 "$WORK/un.err")]"
if [ -z "$un_fail" ]; then ok union_save_roundtrip
else fail union_save_roundtrip "$un_fail"; fi

# a cut or edited union: exit 3, FILE:LINE, never a crash
un_fail=
un_bad() {	# FILE LABEL: loading FILE must fail cleanly
	local rc
	"$ASAN_BIN" -s "$1" classes > /dev/null 2> "$WORK/un.err"
	rc=$?
	if [ $rc != 3 ] || ! sane $rc "$WORK/un.err" ||
	   ! grep -q "^lockdep-tool: error: $1:[0-9]*: " "$WORK/un.err"; then
		un_fail="$un_fail [$2: rc $rc $(head -c 150 "$WORK/un.err")]"
	fi
}
size=$(wc -c < "$U")
for cut in 0 10 24 33 40 100 1000 $((size / 2)) $((size - 5)) $((size - 2)); do
	head -c "$cut" "$U" > "$WORK/cut.snap"
	un_bad "$WORK/cut.snap" "cut $cut"
done
for edit in 's/^union 2$/union 1/' 's/^union 2$/union 99/' \
	    '0,/^part [0-9]*$/s//part 12/' \
	    '3,4s/^lockdep-tool snapshot 1$/lockdep-tool snapshot 3/' \
	    '$s/^end$/end\nmore/'; do
	sed -e "$edit" "$U" > "$WORK/edit.snap"
	if cmp -s "$U" "$WORK/edit.snap"; then
		un_fail="$un_fail [edit $edit changed nothing]"
	else
		un_bad "$WORK/edit.snap" "edit $edit"
	fi
done
if [ -z "$un_fail" ]; then ok union_bad_input_file_line
else fail union_bad_input_file_line "$un_fail"; fi

# --- D. reports: the conformance consoles, when they are there ---------------
# fixtures/reports/NAME.console is the console of conformance row NAME
# (initramfs/tests/conformance.table): its report title must be found, and
# a circular report's id must be the one `cycles` gives its classes.
TABLE=$TOP/initramfs/tests/conformance.table
nr_console=0
for f in "$FIX"/reports/*.console; do
	[ -e "$f" ] || continue
	nr_console=$((nr_console + 1))
	name=$(basename "$f" .console)
	want=$(awk -F' *[|] *' -v n="$name" '$1 == n { print $4 }' "$TABLE" 2>/dev/null)
	"$ASAN_BIN" -j report "$f" > "$WORK/con.json" 2> "$WORK/con.err"
	rc=$?
	if ! sane $rc "$WORK/con.err" || ! jq -e . "$WORK/con.json" > /dev/null 2>&1; then
		fail "console_$name" "rc $rc $(head -c 300 "$WORK/con.err")"
		continue
	fi
	if [ -n "$want" ] && [ "$want" != - ] &&
	   ! jq -e --arg t "$("$TOP/scripts/console-scan.sh" --title-re "$want")" '[.reports[] | select(.title | test($t))] | length == 1' \
		"$WORK/con.json" > /dev/null; then
		fail "console_$name" "no single report titled '$want'"
		continue
	fi
	if [ "$want" = - ] && ! jq -e '.reports | length == 0' "$WORK/con.json" > /dev/null; then
		fail "console_$name" "a silent row has a report"
		continue
	fi
	bad=
	for names in $(jq -r '.reports[] | select(.kind == "circular" and .cycle)
			     | "\(.id)=\(.cycle | join(","))"' "$WORK/con.json"); do
		id=${names%%=*} list=${names#*=}
		rm -rf "$WORK/ring" && mkdir -p "$WORK/ring"
		IFS=, read -r -a cl <<< "$list"
		{ echo "all lock classes:"
		  for i in "${!cl[@]}"; do
			j=$(( (i + 1) % ${#cl[@]} ))
			printf '%016x OPS:       1 FD:    1 BD:    1 ....: %s\n -> [%016x] %s\n\n' \
				$((i + 1)) "${cl[$i]}" $((j + 1)) "${cl[$j]}"
		  done; } > "$WORK/ring/lockdep"
		got=$("$ASAN_BIN" -s "$WORK/ring" -j cycles | jq -r '.cycles[0].id')
		[ "$got" = "$id" ] || bad="$bad [report $id, cycles $got]"
	done
	if [ -z "$bad" ]; then ok "console_$name"
	else fail "console_$name" "$bad"; fi
done
[ $nr_console = 0 ] && skip consoles_of_conformance_scenarios \
	"no proc-interface/fixtures/reports/*.console yet"

# --- E. bad input never crashes the analysis commands ------------------------
bad_an=
# sourced after run-tests.sh made them (section 6), which checks their number
if [ -d "$WORK/bad" ] && [ "$(find "$WORK/bad" -mindepth 1 -maxdepth 1 | wc -l)" -gt 0 ]; then
	for d in "$WORK"/bad/*; do
		for c in "cycles" "irq-check" "why @0 @1" "path --all @0 @1" \
			 "dot --cycle cycle-00000000"; do
			eval "set -- $c"
			timeout 30 "$ASAN_BIN" -s "$d" "$@" > /dev/null 2> "$WORK/bad.err"
			rc=$?
			if [ $rc = 124 ] || ! sane $rc "$WORK/bad.err"; then
				bad_an="$bad_an [$(basename "$d") $c: rc $rc]"
			fi
		done
		timeout 30 "$ASAN_BIN" -s "$d" -s "$FIX/handmade/prove" cycles \
			> /dev/null 2> "$WORK/bad.err"
		rc=$?
		[ $rc = 124 ] || ! sane $rc "$WORK/bad.err" &&
			bad_an="$bad_an [$(basename "$d") merged: rc $rc]"
		[ -f "$d" ] || continue
		timeout 30 "$ASAN_BIN" report "$d" > /dev/null 2> "$WORK/bad.err"
		rc=$?
		if [ $rc = 124 ] || ! sane $rc "$WORK/bad.err"; then
			bad_an="$bad_an [$(basename "$d") report: rc $rc]"
		fi
	done
	for f in "$WORK"/bad/*/*; do
		[ -f "$f" ] || continue
		timeout 30 "$ASAN_BIN" report "$f" > /dev/null 2> "$WORK/bad.err"
		rc=$?
		if [ $rc = 124 ] || ! sane $rc "$WORK/bad.err"; then
			bad_an="$bad_an [$f report: rc $rc]"
		fi
	done
	if [ -z "$bad_an" ]; then ok analysis_bad_inputs_never_crash
	else fail analysis_bad_inputs_never_crash "$bad_an"; fi
else
	skip analysis_bad_inputs_never_crash "no bad inputs generated"
fi

# --- F. fuzz the report parser and the analyses briefly -------------------------
if [ -x "$OUT/fuzz/fuzz-report" ] && [ -x "$OUT/fuzz/fuzz-graph" ]; then
	for t in report graph; do
		mkdir -p "$WORK/corpus-$t"
		if ASAN_OPTIONS=$ASAN_BASE UBSAN_OPTIONS=$UBSAN_BASE \
		   "$OUT/fuzz/fuzz-$t" -max_total_time=3 -timeout=10 -max_len=65536 \
			"$WORK/corpus-$t" "$PI/fuzz/seeds/$t" \
			> "$WORK/fuzz-$t.log" 2>&1
		then ok "fuzz_short_$t"
		else fail "fuzz_short_$t" "$(grep -m3 -E 'ERROR|error' "$WORK/fuzz-$t.log")"; fi
	done
else
	skip fuzz_short_analysis "clang with libFuzzer not available"
fi
