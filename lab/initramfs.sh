#!/bin/sh
# Pack the guest's initramfs for one variant: static busybox, guest/init,
# the variant's test modules and any extra files given.
# Usage: lab/initramfs.sh VARIANT [FILE...]   (FILEs land in /lib/modules or /bin)
. "$(dirname "$0")/lib.sh"

v=$1
check_variant "$v"
shift
O=$(kbuild_dir "$v")
out=$BUILD/initramfs-$v.cpio.gz
stage=$BUILD/initramfs-$v
BUSYBOX=/bin/busybox

[ -x "$BUSYBOX" ] || die "no static $BUSYBOX (apt-get install busybox-static)"
command -v cpio >/dev/null || die "cpio not found (apt-get install cpio)"

rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib/modules" "$stage/proc" "$stage/sys" \
	"$stage/dev" "$stage/tmp" "$stage/root"
cp "$BUSYBOX" "$stage/bin/busybox"
cp "$LAB/guest/init" "$stage/init"
chmod 755 "$stage/init"
for m in kernel/torture.ko kernel/locking/locktorture.ko; do
	[ -f "$O/$m" ] || die "$v: $m not built (CONFIG_LOCK_TORTURE_TEST=m?)"
	cp "$O/$m" "$stage/lib/modules/"
done
for f in "$@"; do
	[ -f "$f" ] || die "no such file: $f"
	case $f in
	*.ko) cp "$f" "$stage/lib/modules/" ;;
	*) cp "$f" "$stage/bin/" ;;
	esac
done
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet --owner=0:0) |
	gzip -1 >"$out.tmp" || die "packing $out failed"
mv "$out.tmp" "$out"
