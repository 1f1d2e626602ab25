#!/usr/bin/env bash
# Apply patches/series one patch at a time to a scratch clone of build/linux
# (at lockdep-base) and build after each, so every patch builds on its own.
# Runs checkpatch --strict on every patch too.  Uses build/series-check/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$(dirname "$0")/kernel.sh" tree
"$(dirname "$0")/kernel.sh" config	# the .config each step builds with
TREE=$BUILD/linux
WORK=$BUILD/series-check/linux
PATCHES=$LOCKDEP_TOP/patches
mapfile -t list < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$PATCHES/series" | grep -v '^$' || true)
[ ${#list[@]} -gt 0 ] || { echo "  patches/series is empty: nothing to check"; exit 0; }

if [ ! -d "$WORK/.git" ]; then
	stage cloning "build/linux -> build/series-check/linux"
	git clone -q --no-checkout "$TREE" "$WORK"
	stage_done
fi
G="git -C $WORK -c user.name=lockdep-tool -c user.email=lockdep-tool@localhost"
$G fetch -q "$TREE" lockdep-base
# a run stopped at a patch that did not apply left its session behind
$G am --abort >/dev/null 2>&1 || true
$G checkout -q -f FETCH_HEAD
cp "$TREE/.config" "$WORK/.config"

fail=0
for p in "${list[@]}"; do
	stage "$p" "checkpatch --strict"
	if ! perl "$TREE/scripts/checkpatch.pl" --strict --no-tree --terse -q "$PATCHES/$p" >"$LOGDIR/checkpatch-$p.log" 2>&1; then
		sed 's/^/    /' "$LOGDIR/checkpatch-$p.log"
		echo "    (checkpatch warnings must be fixed or justified in the cover letter)"
	fi
	if ! $G am -q "$PATCHES/$p"; then
		$G am --abort >/dev/null 2>&1 || true
		die "$p does not apply"
	fi
	if ! quiet "$LOGDIR/series-check-$p.log" make -C "$WORK" ARCH=x86_64 -j"${JOBS:-2}" olddefconfig bzImage modules; then
		echo "  FAILED: the tree does not build after $p"
		fail=1
		break
	fi
	stage_done
done
[ $fail = 0 ] && echo "  every patch of the series builds on its own"
exit $fail
