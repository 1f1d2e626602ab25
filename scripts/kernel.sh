#!/usr/bin/env bash
# Extract Debian's linux-source-6.12 into build/linux, apply patches/series,
# configure (tinyconfig + patches/lockdep.config) and build.
#
#   kernel.sh tree     extract (once per source tarball) and apply the series
#   kernel.sh config   merge the fragment and check every option it needs
#   kernel.sh build    bzImage + modules, installed under build/modroot
#   kernel.sh all      the three in order (what `make kernel` runs)
#   kernel.sh export   rewrite patches/ from build/linux's commits
#
# build/linux is a git repository: tag lockdep-base is the pristine source,
# every patch of the series is one commit on top.  Edit and commit there,
# then `make export-patches`.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=${LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
TREE=$BUILD/linux
PATCHES=$LOCKDEP_TOP/patches
FRAGMENT=$PATCHES/lockdep.config
GIT="git -C $TREE -c user.name=lockdep-tool -c user.email=lockdep-tool@localhost"
KMAKE="make -C $TREE ARCH=x86_64 -j${JOBS:-2}"

series_patches() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$PATCHES/series" | grep -v '^$' || true
}

# Every file patches/series names must exist, before anything is touched.
check_series_files() {
	local p
	for p in $(series_patches); do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
	done
}

series_hash() {
	check_series_files
	{
		cat "$PATCHES/series" 2>/dev/null || true
		for p in $(series_patches); do
			cat "$PATCHES/$p"
		done
	} | sha256sum | cut -d' ' -f1
}

source_id() {
	stat -L -c '%s %Y' "$SRC"
}

# The applied series must not be thrown away while it carries work that
# is not in patches/ yet.
check_tree_clean() {
	local stamp=$TREE/.git/lockdep-series
	if ! $GIT diff --quiet HEAD -- 2>/dev/null; then
		die "build/linux has uncommitted changes; commit them and run 'make export-patches', or discard them (git -C build/linux checkout .)"
	fi
	if [ -f "$stamp" ] && [ "$(cut -d' ' -f2 "$stamp")" != "$($GIT rev-parse HEAD)" ]; then
		die "build/linux has commits that are not in patches/: run 'make export-patches' first (or 'git -C build/linux reset --hard' to the series)"
	fi
}

extract() {
	[ -f "$SRC" ] || die "$SRC not found: install linux-source-6.12 (make deps)"
	if [ -d "$TREE/.git" ] && [ "$(cat "$TREE/.git/lockdep-source" 2>/dev/null)" = "$(source_id)" ]; then
		return 0
	fi
	# (a tree without lockdep-source is what an old interrupted
	# extraction left: nothing in it can be work)
	if [ -f "$TREE/.git/lockdep-source" ]; then
		check_tree_clean
		echo "  $SRC changed: extracting it again"
	fi
	stage extracting "$SRC -> build/linux"
	# Everything happens in $TREE.new, moved into place at the end: an
	# interrupted extraction leaves no half-made tree to trip on.
	rm -rf "$TREE.new"
	mkdir -p "$TREE.new"
	tar -C "$TREE.new" -xf "$SRC"
	local new ver
	new=$(echo "$TREE.new"/linux-source-*)
	[ -d "$new" ] || die "$SRC holds no linux-source-* directory"
	ver=$(make -s -C "$new" kernelversion)
	local G="git -C $new -c user.name=lockdep-tool -c user.email=lockdep-tool@localhost"
	$G init -q -b lockdep
	# Debian's .gitignore ignores the whole top level: commit the pristine
	# tree as it is, then drop that rule so new files show up in git status.
	$G add -f -A .
	$G commit -q -m "linux-source $ver (pristine, from $(basename "$SRC"))"
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\//d' "$new/.gitignore"
	$G commit -q -a -m "Drop Debian's top-level ignore rule so new files are seen"
	$G tag -f lockdep-base >/dev/null
	source_id >"$new/.git/lockdep-source"
	rm -rf "$TREE"
	mv "$new" "$TREE"
	rmdir "$TREE.new"
	stage_done
}

apply_series() {
	local stamp=$TREE/.git/lockdep-series want
	want=$(series_hash)
	if [ -f "$stamp" ] && [ "$(cut -d' ' -f1 "$stamp")" = "$want" ] &&
	   [ "$(cut -d' ' -f2 "$stamp")" = "$($GIT rev-parse HEAD)" ]; then
		return 0
	fi
	# no stamp and an am session: our own patching, interrupted (with a
	# stamp, the session is someone's work and check_tree_clean says so)
	if [ ! -f "$stamp" ] && [ -d "$TREE/.git/rebase-apply" ]; then
		$GIT am --abort >/dev/null 2>&1 || true
	fi
	check_tree_clean
	stage patching "$(series_patches | wc -l) patches from patches/series"
	# From here the tree is the series or on its way there: no stamp, so
	# that an interruption is not taken for work to export, and no am
	# session an interruption left behind.
	rm -f "$stamp"
	$GIT am --abort >/dev/null 2>&1 || true
	$GIT reset -q --hard lockdep-base
	local p ver
	ver=$(make -s -C "$TREE" kernelversion)
	for p in $(series_patches); do
		if ! $GIT am -q --keep-cr "$PATCHES/$p" >"$LOGDIR/git-am.log" 2>&1; then
			$GIT am --abort >/dev/null 2>&1 || true
			$GIT reset -q --hard lockdep-base
			echo "error: patch $p does not apply to linux-source $ver:" >&2
			sed -e '/^hint:/d' -e '/git am --/d' -e '/^Patch failed at/d' \
				-e 's/^/  /' "$LOGDIR/git-am.log" >&2
			echo "  (the series was written for 6.12.118; rebase it in build/linux and run 'make export-patches')" >&2
			exit 1
		fi
	done
	echo "$want $($GIT rev-parse HEAD)" >"$stamp"
	stage_done
}

configure() {
	local stamp=$TREE/.lockdep-config want
	want=$( (cat "$FRAGMENT"; series_hash) | sha256sum | cut -d' ' -f1)
	if [ -f "$TREE/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	stage configuring "tinyconfig + patches/lockdep.config"
	# one log each (in one log, each step overwrote the one before)
	quiet "$LOGDIR/config-tinyconfig.log" $KMAKE tinyconfig
	quiet "$LOGDIR/config-merge.log" "$TREE/scripts/kconfig/merge_config.sh" -m -O "$TREE" "$TREE/.config" "$FRAGMENT"
	quiet "$LOGDIR/config-olddefconfig.log" $KMAKE olddefconfig
	local missing=
	while IFS= read -r opt; do
		grep -qx "$opt" "$TREE/.config" || missing="$missing ${opt}"
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$FRAGMENT")
	if [ -n "$missing" ]; then
		rm -f "$stamp"
		echo "error: the final .config lacks options patches/lockdep.config requires:" >&2
		for m in $missing; do
			echo "  $m (got: $(grep -E "^(# )?${m%%=*}[= ]" "$TREE/.config" || echo 'not present'))" >&2
		done
		echo "  (an unmet dependency dropped them: the search (/) of 'make -C build/linux ARCH=x86_64 menuconfig'" >&2
		echo "  shows what each depends on; the steps' logs are build/logs/config-*.log)" >&2
		exit 1
	fi
	echo "$want" >"$stamp"
	stage_done
}

build() {
	stage building "bzImage and modules (make -j${JOBS:-2}; log: build/logs/kernel-build.log)"
	quiet "$LOGDIR/kernel-build.log" $KMAKE bzImage modules
	rm -rf "$BUILD/modroot"
	quiet "$LOGDIR/kernel-build.log.modinst" $KMAKE INSTALL_MOD_PATH="$BUILD/modroot" modules_install
	stage_done
}

export_patches() {
	[ -d "$TREE/.git" ] || die "no build/linux tree: run 'make kernel' first"
	$GIT diff --quiet HEAD -- || die "build/linux has uncommitted changes: commit them first"
	local n
	n=$($GIT rev-list --count lockdep-base..HEAD)
	# nothing on the base is a tree whose patching did not finish, not a
	# series of no patches: exporting it would empty patches/
	[ "$n" -gt 0 ] || die "build/linux has no commits on lockdep-base: nothing to export (run 'make kernel' to apply patches/)"
	# no stamp: patching stopped part way, and the patches not applied
	# yet would be dropped from patches/
	[ -f "$TREE/.git/lockdep-series" ] || die "build/linux holds a series whose patching did not finish: run 'make tree' first (exporting now would drop the patches not applied)"
	# The cover letter (0000-cover-letter.patch) is written by hand and kept.
	find "$PATCHES" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-cover-letter.patch' -delete
	$GIT format-patch -q --no-signature --zero-commit --numbered \
		-o "$PATCHES" lockdep-base..HEAD >/dev/null
	(cd "$PATCHES" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '^0000-cover-letter' >series.new || true)
	{ echo "# Applied in order by scripts/kernel.sh (git am) on linux-source-6.12."; cat "$PATCHES/series.new"; } >"$PATCHES/series"
	rm -f "$PATCHES/series.new"
	echo "$(series_hash) $($GIT rev-parse HEAD)" >"$TREE/.git/lockdep-series"
	echo "  exported $n patches to patches/ (series rewritten)"
}

case "${1:-all}" in
tree)	extract; apply_series ;;
config)	configure ;;
build)	build ;;
all)	extract; apply_series; configure; build ;;
export)	export_patches ;;
*)	die "usage: kernel.sh tree|config|build|all|export" ;;
esac
