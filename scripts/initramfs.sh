#!/usr/bin/env bash
# Pack the guest image build/initramfs.cpio.gz from a declarative list
# (usr/gen_init_cpio format, no root needed): busybox-static, initramfs/,
# the static lockdep-tool when built, the guest tests and the kernel modules.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TOP=$LOCKDEP_TOP
# Overridable to pack an image for another kernel tree (e.g. a dev clone):
# KTREE (gen_init_cpio), MODROOT (modules_install root), OUT.
KTREE=${KTREE:-$BUILD/linux}
MODROOT=${MODROOT:-$BUILD/modroot}
OUT=${OUT:-$BUILD/initramfs.cpio.gz}
GEN=$KTREE/usr/gen_init_cpio
BUSYBOX=${BUSYBOX:-/bin/busybox}
LIST=${OUT%.cpio.gz}.list

[ -x "$GEN" ] || die "$GEN missing: run 'make kernel' first"
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing: install busybox-static (make deps)"
# (readelf comes with gcc's binutils; an interpreter means dynamic)
# (grep reads it all: stopping early would kill readelf with SIGPIPE, and
# pipefail would take that for no interpreter)
readelf -l "$(readlink -f "$BUSYBOX")" 2>/dev/null |
	grep 'program interpreter' >/dev/null &&
	die "$BUSYBOX is dynamically linked: install busybox-static"

stage packing "guest image ${OUT#$LOCKDEP_TOP/}"
trap 'rm -f "$LIST.$$" "$OUT.$$.tmp"' EXIT
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /usr/local /usr/local/bin \
		 /dev /proc /sys /tmp /run /root /etc /lib /lib/modules /host \
		 /tests /mnt /var; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "nod /dev/null 666 0 0 c 1 3"
	echo "file /init $TOP/initramfs/init 755 0 0"
	echo "file /bin/busybox $BUSYBOX 755 0 0"
	"$BUSYBOX" --list-full | while read -r a; do
		case "$a" in
		bin/busybox|linuxrc) continue ;;
		esac
		echo "slink /$a /bin/busybox 777 0 0"
	done
	echo "file /etc/profile $TOP/initramfs/profile 644 0 0"
	echo "file /etc/passwd $TOP/initramfs/passwd 644 0 0"
	echo "file /etc/group $TOP/initramfs/group 644 0 0"
	for t in "$TOP"/initramfs/tests/*; do
		[ -f "$t" ] || continue
		echo "file /tests/$(basename "$t") $t 755 0 0"
	done
	if [ -x "$BUILD/lockdep-tool-static" ]; then
		echo "file /usr/local/bin/lockdep-tool $BUILD/lockdep-tool-static 755 0 0"
	fi
	if [ -d "$MODROOT/lib/modules" ]; then
		(cd "$MODROOT" && find lib/modules -mindepth 1 | sort) | while read -r f; do
			if [ -d "$MODROOT/$f" ]; then
				echo "dir /$f 755 0 0"
			elif [ -f "$MODROOT/$f" ] && [ ! -L "$MODROOT/$f" ]; then
				echo "file /$f $MODROOT/$f 644 0 0"
			fi
		done
	fi
} >"$LIST.$$"
# names of this run's own: two runs at once (make run, make test) each
# put a whole image in place
"$GEN" "$LIST.$$" | gzip -6 -n >"$OUT.$$.tmp"
mv "$LIST.$$" "$LIST"
mv "$OUT.$$.tmp" "$OUT"
stage_done
