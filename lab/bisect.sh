#!/bin/sh
# Bisectability: check that the tree builds after each patch of the series.
# A git worktree of build/linux (build/bisect/linux) is moved through the
# series one patch at a time; at each step the objects that compile what
# the series touches are built for the queued configuration and, once the
# ticket lock exists, for the ticket configuration (the .configs of the
# built variants). Prints one "ok"/"FAIL" line per patch, named
# "bisect I/N"; exits non-zero if any failed.
# Usage: lab/bisect.sh
. "$(dirname "$0")/lib.sh"

WT=$BUILD/bisect/linux
for v in queued ticket; do
	[ -f "$(kbuild_dir $v)/.config" ] || die "$v is not configured: run lab/build.sh $v"
done
mkdir -p "$BUILD/bisect" "$LOGS"
log=$LOGS/bisect.log
if [ ! -d "$WT" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$WT" base >"$log" 2>&1 ||
		{ show_tail "$log"; die "cannot make a worktree at $WT"; }
fi

# Objects that compile the files the series touches, plus users of the
# lock headers; only those that exist at a given step are built.
OBJS="arch/x86/kernel/smpboot.o arch/x86/kernel/paravirt.o arch/x86/kernel/kvm.o
arch/x86/kernel/paravirt-spinlocks.o kernel/locking/osq_lock.o
kernel/locking/spinlock.o kernel/locking/qrwlock.o lib/lockref.o
kernel/locking/locktorture.o arch/x86/kernel/ticket_spinlock_kunit.o"

failed=0 i=0
n=$(git -C "$TREE" rev-list --count base..HEAD)
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	i=$((i + 1))
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	git -C "$WT" checkout -q --detach "$c" || die "cannot check out $c in $WT"
	built=
	for v in queued ticket; do
		if [ $v = ticket ] && ! grep -q 'config X86_TICKET_SPINLOCKS' "$WT/arch/x86/Kconfig"; then
			continue
		fi
		O=$BUILD/bisect/kernel-$v
		mkdir -p "$O"
		cp "$(kbuild_dir $v)/.config" "$O/.config"
		if ! make -C "$WT" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
			olddefconfig >"$log" 2>&1; then
			echo "FAIL bisect $i/$n: \"$subj\" does not configure ($v)"
			failed=1
			continue 2
		fi
		objs=
		for o in $OBJS; do
			obj_enabled "$WT" "$O" "$o" && objs="$objs $o"
		done
		if ! make -C "$WT" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
			-j"$NCPU" $objs >>"$log" 2>&1; then
			grep -E 'error|Error' "$log" | head -n 5 >&2
			echo "FAIL bisect $i/$n: \"$subj\" does not build ($v)"
			failed=1
			continue 2
		fi
		built="$built $v"
	done
	echo "ok   bisect $i/$n: \"$subj\" builds ($(echo $built | tr ' ' ,))"
done
exit $failed
