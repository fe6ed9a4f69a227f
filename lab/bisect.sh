#!/bin/sh
# Bisectability: check that the tree builds after each patch of the series.
# A git worktree of build/linux (build/bisect/linux) is moved through the
# series one patch at a time; at each step the objects that compile what
# the series touches are built for the queued configuration and, once the
# ticket lock exists, for the ticket configuration (the variants' config
# fragments, configured on the whole series here). Prints one "ok"/"FAIL"
# line per patch, named "bisect I/N"; exits non-zero if any failed.
# LAB_LIST=1 lists the checks' names (one per patch of patches/series).
# Usage: lab/bisect.sh
. "$(dirname "$0")/lib.sh"
. "$LAB/lab/checks.sh"

WT=$BUILD/bisect/linux
log=$LOGS/bisect.log
if [ -n "$LAB_LIST" ]; then
	commits=$(grep -v -e '^#' -e '^0000-cover-letter.patch$' "$LAB/patches/series")
else
	mkdir -p "$BUILD/bisect" "$LOGS"
	for v in queued ticket; do
		configure x86_64 "$BUILD/bisect/config-$v" "$LOGS/bisect-config-$v.log" \
			"$LAB/configs/base.config" "$LAB/configs/$v.config"
	done
	if [ ! -d "$WT" ]; then
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$WT" base >"$log" 2>&1 ||
			{ show_tail "$log"; die "cannot make a worktree at $WT"; }
	fi
	commits=$(git -C "$TREE" rev-list --reverse base..HEAD)
fi

# Objects that compile the files the series touches, plus users of the
# lock headers; only those that exist at a given step are built.
OBJS="arch/x86/kernel/smpboot.o arch/x86/kernel/paravirt.o arch/x86/kernel/kvm.o
arch/x86/kernel/paravirt-spinlocks.o kernel/locking/osq_lock.o
kernel/locking/spinlock.o kernel/locking/qrwlock.o lib/lockref.o
kernel/locking/locktorture.o arch/x86/kernel/ticket_spinlock_kunit.o"

i=0
n=$(echo "$commits" | wc -l)
for c in $commits; do
	i=$((i + 1))
	name="bisect $i/$n"
	[ -n "$LAB_LIST" ] && { line "ok   $name"; continue; }
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	git -C "$WT" checkout -q --detach "$c" || die "cannot check out $c in $WT"
	built=
	for v in queued ticket; do
		if [ $v = ticket ] && ! grep -q 'config X86_TICKET_SPINLOCKS' "$WT/arch/x86/Kconfig"; then
			continue
		fi
		O=$BUILD/bisect/kernel-$v
		mkdir -p "$O"
		cp "$BUILD/bisect/config-$v/.config" "$O/.config"
		if ! make -C "$WT" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
			olddefconfig >"$log" 2>&1; then
			line "FAIL $name" "\"$subj\" does not configure ($v)"
			continue 2
		fi
		objs=
		for o in $OBJS; do
			obj_enabled "$WT" "$O" "$o" && objs="$objs $o"
		done
		if ! make -C "$WT" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
			-j"$NCPU" $objs >>"$log" 2>&1; then
			grep -E 'error|Error' "$log" | head -n 5 >&2
			line "FAIL $name" "\"$subj\" does not build ($v)"
			continue 2
		fi
		built="$built $v"
	done
	line "ok   $name" "\"$subj\" builds ($(echo $built | tr ' ' ,))"
done
exit $failed
