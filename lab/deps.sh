#!/bin/sh
# Install the Debian packages the lab needs, or say which are missing.
# Usage: lab/deps.sh [extra packages...]
. "$(dirname "$0")/lib.sh"

PKGS="build-essential git bc bison flex libelf-dev libssl-dev cpio xz-utils
perl python3 python3-ply python3-git ccache linux-source-6.12 qemu-system-x86 busybox-static
spin sparse linux-config-6.12 $*"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	die "missing packages:$missing (run as root, or: apt-get install$missing)"
fi
say "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
{ apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } \
	>"${TMPDIR:-/tmp}/lab-apt.log" 2>&1 ||
	{ show_tail "${TMPDIR:-/tmp}/lab-apt.log" 20
	  die "apt-get install failed for:$missing"; }
exit 0
