#!/usr/bin/env bash
# Install (as root) or name (otherwise) the Debian packages the build needs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.12 qemu-system-x86 busybox-static libreadline-dev
libncurses-dev gcc make flex bison bc libelf-dev libssl-dev cpio xz-utils
kmod graphviz python3 perl clang libclang-rt-14-dev expect jq groff-base git"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'ok installed' >/dev/null ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "Missing packages:$missing" >&2
	echo "Install them with:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
stage installing "$missing"
export DEBIAN_FRONTEND=noninteractive
# (a fresh VM's unattended-upgrades may hold the dpkg lock a while)
quiet "$LOGDIR/apt-update.log" apt-get -o DPkg::Lock::Timeout=600 update -q
quiet "$LOGDIR/apt-install.log" apt-get -o DPkg::Lock::Timeout=600 install -y -q $missing
stage_done
