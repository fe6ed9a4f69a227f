#!/bin/sh
# The skip-ticket lock's CPU bound, enforced at build time: the tree's
# asm/skipticket_spinlock_types.h must build with CONFIG_NR_CPUS=255 and
# stop the build with NR_CPUS=256, with an error that names the bound
# (8-bit tickets and an 8-bit count of waiters). Called from make -C
# bench check (make test).
# Usage: test/nrcpus.sh TREE CC
tree=$1 cc=${2:-cc}
hdr=asm/skipticket_spinlock_types.h
[ -f "$tree/arch/x86/include/$hdr" ] || { echo "FAIL skipticket NR_CPUS bound: no $tree/arch/x86/include/$hdr"; exit 1; }
build() {
	printf '#include <%s>\n' "$hdr" |
		$cc -fsyntax-only -DCONFIG_NR_CPUS="$1" -I lib/shim -isystem "$tree/arch/x86/include" -x c - 2>&1
}
if ! out=$(build 255); then
	echo "FAIL skipticket NR_CPUS bound: NR_CPUS=255 does not build: $(echo "$out" | grep -m1 error)"
	exit 1
fi
if out=$(build 256); then
	echo "FAIL skipticket NR_CPUS bound: NR_CPUS=256 builds"
	exit 1
fi
err=$(echo "$out" | grep -m1 'error:')
err=${err#*error: }
case $err in
*255*) echo "ok skipticket NR_CPUS bound: 255 builds; 256 stops the build: $err" ;;
*) echo "FAIL skipticket NR_CPUS bound: NR_CPUS=256 fails without naming the bound: $err"; exit 1 ;;
esac
