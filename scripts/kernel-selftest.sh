#!/usr/bin/env bash
# Host unit tests of kernel.sh's tree handling on a fake source tarball and
# a fake series of three patches: a run after a failure or an interruption
# must recover, never ask to export work that is not there, and export must
# never empty patches/.  Seconds, no kernel.  Prints KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/selftest-lib.sh"

G="git -c user.name=t -c user.email=t@t"
# the source: Debian's top-level ignore rule, a kernelversion target
src=$tmp/src/linux-source-6.12
mkdir -p "$src"
printf 'kernelversion:\n\t@echo 6.12.118\n' >"$src/Makefile"
printf '# Debian packaging: ignore everything\n/*\n!/debian/\n' >"$src/.gitignore"
for i in 1 2 3; do echo "base $i" >"$src/f$i.c"; done
tar -C "$tmp/src" -cJf "$tmp/src/linux-source-6.12.tar.xz" linux-source-6.12
# the series, made the way export-patches makes it
proj=$tmp/proj
mkdir -p "$proj/patches" "$proj/scripts"
cp "$here/kernel.sh" "$here/lib.sh" "$proj/scripts/"
cp -r "$src" "$tmp/w"
(cd "$tmp/w" && git init -q && git add -f -A && $G commit -qm base &&
 for i in 1 2 3; do echo "change $i" >>f$i.c; $G commit -qam "patch $i"; done &&
 git format-patch -q --zero-commit -o "$proj/patches" HEAD~3) || exit 1
(echo "# series"; cd "$proj/patches" && ls ./*.patch | sed 's|^\./||') >"$proj/patches/series"
cp "$proj/patches/series" "$tmp/series.good"

K() { LOCKDEP_TOP=$proj BUILD=$proj/build LINUX_SOURCE=$tmp/src/linux-source-6.12.tar.xz \
	bash "$proj/scripts/kernel.sh" "$@"; }
L=$proj/build/linux
top() { git -C "$L" log -1 --format=%s; }
is() { [ "$(top)" = "$1" ] || { echo "top commit '$(top)', want '$1'"; return 1; }; }
patches_kept() { [ "$(ls "$proj/patches"/*.patch | wc -l)" = 3 ]; }

t "tree: extracts and applies the series" 0 K tree
t "tree: the top commit is the last patch" 0 is "patch 3"
# a missing patch in the middle: refused before the tree is touched
sed -i 's/0002-patch-2.patch/0002-gone.patch/' "$proj/patches/series"
t "a missing patch stops the run" 1 K tree
t "... naming it" 0 grep -q 'names 0002-gone.patch, which does not exist' "$tmp/out"
cp "$tmp/series.good" "$proj/patches/series"
t "the next run applies the series again" 0 K tree
t "... to its last patch" 0 is "patch 3"
# a patch that does not apply: reset to the base, no stale stamp
cp "$proj/patches/0002-patch-2.patch" "$tmp/p2"
sed -i 's/^ base 2$/ base two/' "$proj/patches/0002-patch-2.patch"
t "a patch that does not apply stops the run" 1 K tree
t "... with the clear message" 0 grep -q 'patch 0002-patch-2.patch does not apply to linux-source 6.12.118' "$tmp/out"
t "export refuses a tree with nothing on the base" 1 K export
t "... and patches/ keeps its patches" 0 patches_kept
cp "$tmp/p2" "$proj/patches/0002-patch-2.patch"
t "the run after the fix applies the series (no 'export first')" 0 K tree
# patching interrupted part way (one patch in, no stamp): export would
# drop the other two
K tree >/dev/null 2>&1
git -C "$L" reset -q --hard HEAD~2
rm -f "$L/.git/lockdep-series"
t "export refuses a series whose patching did not finish" 1 K export
t "... and patches/ keeps its patches" 0 patches_kept
t "the next run finishes the patching" 0 K tree
t "... to its last patch" 0 is "patch 3"
# a git am session an interruption left behind
$G -C "$L" am -q "$proj/patches/0003-patch-3.patch" >/dev/null 2>&1
t "(setup: an am session is left)" 0 test -d "$L/.git/rebase-apply"
sed -i 's/^Subject: \[PATCH 1\/3\] patch 1$/Subject: [PATCH 1\/3] patch one/' "$proj/patches/0001-patch-1.patch"
t "a left am session does not stop the next run" 0 K tree
first_patch() { [ "$(git -C "$L" log --format=%s -3 --reverse | head -n 1)" = "$1" ]; }
t "... which applies the changed series" 0 first_patch "patch one"
# interrupted inside git am: its session, part of the series, no stamp
rm -f "$L/.git/lockdep-series"
git -C "$L" reset -q --hard HEAD~1
$G -C "$L" am -q "$proj/patches/0002-patch-2.patch" >/dev/null 2>&1
t "(setup: a session, no stamp)" 0 test -d "$L/.git/rebase-apply"
t "an am interrupted while patching does not stop the next run" 0 K tree
t "... which applies the series" 0 is "patch 3"
# an interrupted extraction: a half-made build/linux.new, a tree without
# lockdep-source (what the old extraction left)
mkdir -p "$proj/build/linux.new/linux-source-6.12/half"
rm -f "$L/.git/lockdep-source"
t "a half extraction is redone" 0 K tree
t "... without leaving build/linux.new" 1 test -e "$proj/build/linux.new"
t "... and applies the series" 0 is "patch 3"
# work committed in the tree but not exported is still protected
echo "more" >>"$L/f1.c"
$G -C "$L" commit -qam "work in progress"
touch "$proj/patches/series"
echo "# changed" >>"$proj/patches/series"
t "unexported work stops a changed series from wiping it" 1 K tree
t "... and says to export" 0 grep -q "run 'make export-patches' first" "$tmp/out"

selftest_end
