#!/bin/sh
# Run sparse (make C=2) over the objects that compile what the series
# touches, in one built variant, and fail on any warning located in a file
# the series touches. Warnings elsewhere (spinlock.c's well-known context
# imbalances, say) are counted but are not the series' doing.
# Usage: lab/sparse.sh VARIANT
. "$(dirname "$0")/lib.sh"

v=$1
check_variant "$v"
O=$(kbuild_dir "$v")
command -v sparse >/dev/null || die "sparse not found (apt-get install sparse)"
[ -f "$O/vmlinux" ] || die "$v is not built: run lab/build.sh $v"

touched=$(git -C "$TREE" diff --name-only base..HEAD -- '*.c' '*.h')
[ -n "$touched" ] || die "the tree carries no patches: run lab/tree.sh"
# The touched .c files, and users of the lock headers (spinlock.c, qrwlock,
# lockref, spinlock_debug), where they are built in this configuration.
objs=
for f in $(echo "$touched" | grep '\.c$') kernel/locking/spinlock.c \
	kernel/locking/qrwlock.c kernel/locking/spinlock_debug.c lib/lockref.c; do
	o=${f%.c}.o
	[ -f "$O/$o" ] && objs="$objs $o"
done
out=$(make -s -C "$TREE" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" C=2 $objs 2>&1) ||
	{ echo "$out" | tail -n 5 >&2; echo "make C=2 failed"; exit 1; }
pat=$(echo "$touched" | sed 's/\./\\./g' | tr '\n' '|' | sed 's/|$//')
mine=$(echo "$out" | grep -E ": (warning|error):" | grep -E "/($pat):")
all=$(echo "$out" | grep -cE ": (warning|error):")
if [ -n "$mine" ]; then
	echo "$mine" >&2
	echo "$(echo "$mine" | wc -l) warnings in files the series touches: $(echo "$mine" | head -n 1 | sed 's|.*/linux/||')"
	exit 1
fi
echo "no warnings in the series' files ($(echo $objs | wc -w) objects; $all in files it does not touch)"
