#!/bin/sh
# Build coverage beyond the variants: configurations the series must build
# in but the lab does not boot. Each is configured from tinyconfig plus
# configs/cover-*.config in build/cover-NAME (every option must take), and
# only the objects that compile what the series touches, or use the lock,
# are built: a full build of each would not fit make test's time.
#   i386 ticket   32-bit SMP, ticket choice, KVM guest, KUnit
#   pv queued     64-bit guest with KVM, Xen (PV and PVH) and Hyper-V,
#                 queued choice with PARAVIRT_SPINLOCKS
#   pv ticket     the same guest with the ticket choice: no
#                 PARAVIRT_SPINLOCKS, and vcpu_is_preempted() still wired
#                 through pv_ops (osq_lock.o and mutex.o call it there)
#   boot nopv     the spinlock chosen at boot without PARAVIRT
#   debian boot   Debian's own amd64 configuration with the spinlock
#                 chosen at boot (debian_config in lab/lib.sh); make debian
#                 builds all of its vmlinux and boots it
# Prints one "ok"/"FAIL" line per configuration, "coverage NAME"; exits
# non-zero if any failed; LAB_LIST=1 lists the checks' names.
# Usage: lab/coverage.sh
. "$(dirname "$0")/lib.sh"

[ -n "$LAB_LIST" ] || [ -f "$TREE/Makefile" ] || die "no kernel tree in $TREE: run lab/tree.sh"
[ -n "$LAB_LIST" ] || mkdir -p "$LOGS"
failed=0

# The objects each configuration builds: REQUIRED ones must be enabled,
# OFF ones must not be; the pv configurations also build PV_OBJS where
# enabled (obj_enabled reads an object's own Makefile line, not whether its
# folder is built: xen/ and hyperv/ are only built in the pv ones).
LOCK_OBJS="kernel/locking/spinlock.o kernel/locking/qrwlock.o lib/lockref.o
kernel/locking/osq_lock.o kernel/locking/mutex.o arch/x86/kernel/smpboot.o
arch/x86/kernel/paravirt.o arch/x86/kernel/kvm.o"
PV_OBJS="arch/x86/kernel/paravirt-spinlocks.o kernel/locking/qspinlock.o
arch/x86/kernel/alternative.o arch/x86/xen/enlighten.o arch/x86/xen/enlighten_pv.o
arch/x86/xen/enlighten_pvh.o arch/x86/xen/smp.o arch/x86/xen/smp_pv.o
arch/x86/xen/smp_hvm.o arch/x86/xen/spinlock.o arch/x86/hyperv/hv_init.o
arch/x86/hyperv/hv_spinlock.o"

# cover NAME ARCH "FRAGMENTS" "REQUIRED" "OFF" "OPTIONAL" CHECK
cover() {
	name=$1 arch=$2 frags=$3 required=$4 off=$5 optional=$6 extra=$7 why=
	[ -n "$LAB_LIST" ] && { echo "coverage $name"; return 0; }
	O=$BUILD/cover-$(echo "$name" | tr ' ' -)
	log=$LOGS/cover-$(echo "$name" | tr ' ' -).log
	mkdir -p "$O"
	paths=
	for f in $frags; do paths="$paths $LAB/configs/$f"; done
	if ! err=$( (configure "$arch" "$O" "$log" $paths) 2>&1); then
		echo "FAIL coverage $name: $(echo "$err" | tail -n 1)"
		return 1
	fi
	objs=
	for o in $required; do
		obj_enabled "$TREE" "$O" "$o" || { echo "FAIL coverage $name: $o is not enabled"; return 1; }
		objs="$objs $o"
	done
	for o in $off; do
		obj_enabled "$TREE" "$O" "$o" && { echo "FAIL coverage $name: $o is enabled"; return 1; }
	done
	for o in $optional; do
		case " $required $off " in *" $o "*) continue ;; esac
		obj_enabled "$TREE" "$O" "$o" && objs="$objs $o"
	done
	if ! make -C "$TREE" O="$O" ARCH="$arch" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$NCPU" $objs >>"$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -n 5 >&2
		echo "FAIL coverage $name: does not build (log: $log)"
		return 1
	fi
	if [ -n "$extra" ] && ! why=$($extra "$O"); then
		echo "FAIL coverage $name: $why"
		return 1
	fi
	echo "ok   coverage $name: $(echo $objs | wc -w) objects build${why:+; $why}"
}

# The ticket take: a 16-bit lock xadd (8-bit tickets) in spinlock.o (its
# _raw_spin_lock* functions share one body on i386).
i386_lock() {
	x=$(objdump -d --no-show-raw-insn "$1/kernel/locking/spinlock.o" |
		grep -Eo 'lock +xadd +%([abcd]x|si|di),' | head -n 1)
	[ -n "$x" ] || { echo "no 16-bit lock xadd (8-bit ticket take) in spinlock.o"; return 1; }
	echo "spinlock.o takes tickets with ${x%,}"
}

# vcpu_is_preempted() goes through pv_ops (the steal-time hook that
# kvm_guest_init() installs), not the generic "return false".
pv_preempted() {
	for o in kernel/locking/osq_lock.o kernel/locking/mutex.o; do
		nm -u "$1/$o" | grep -qw pv_ops || { echo "$o does not call vcpu_is_preempted() through pv_ops"; return 1; }
	done
	grep -q '^CONFIG_PARAVIRT_SPINLOCKS=y' "$1/.config" && pv=with || pv=without
	echo "vcpu_is_preempted() through pv_ops in osq_lock.o and mutex.o, $pv PARAVIRT_SPINLOCKS"
}

cover "i386 ticket" i386 "cover-i386.config" \
	"$LOCK_OBJS arch/x86/kernel/ticket_spinlock_kunit.o" "kernel/locking/qspinlock.o" "" i386_lock ||
	failed=1
cover "pv queued" x86_64 "cover-pv.config cover-pv-queued.config" \
	"$LOCK_OBJS arch/x86/kernel/paravirt-spinlocks.o kernel/locking/qspinlock.o arch/x86/xen/spinlock.o arch/x86/xen/enlighten_pvh.o arch/x86/hyperv/hv_spinlock.o" \
	"" "$PV_OBJS" pv_preempted || failed=1
cover "pv ticket" x86_64 "cover-pv.config cover-pv-ticket.config" \
	"$LOCK_OBJS arch/x86/xen/enlighten_pvh.o arch/x86/xen/smp.o arch/x86/hyperv/hv_init.o" \
	"arch/x86/kernel/paravirt-spinlocks.o kernel/locking/qspinlock.o arch/x86/xen/spinlock.o arch/x86/hyperv/hv_spinlock.o" \
	"$PV_OBJS" pv_preempted || failed=1
cover "boot nopv" x86_64 "cover-boot-nopv.config" \
	"kernel/locking/spinlock.o kernel/locking/qrwlock.o lib/lockref.o arch/x86/kernel/smpboot.o arch/x86/kernel/spinlock_boot.o kernel/locking/qspinlock.o" \
	"arch/x86/kernel/paravirt.o" "" "" || failed=1

# Debian's configuration, with the spinlock chosen at boot.
debian() {
	name="debian boot"
	[ -n "$LAB_LIST" ] && { echo "coverage $name"; return 0; }
	O=$BUILD/cover-debian
	log=$LOGS/cover-debian.log
	mkdir -p "$O"
	if ! err=$( (debian_config "$O" "$log") 2>&1); then
		echo "FAIL coverage $name: $(echo "$err" | tail -n 1)"
		return 1
	fi
	objs="$LOCK_OBJS arch/x86/kernel/spinlock_boot.o arch/x86/kernel/skipticket_spinlock.o
arch/x86/kernel/paravirt-spinlocks.o kernel/locking/qspinlock.o arch/x86/xen/spinlock.o"
	if ! make -C "$TREE" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$NCPU" $objs >>"$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -n 5 >&2
		echo "FAIL coverage $name: does not build (log: $log)"
		return 1
	fi
	nm "$O/arch/x86/kernel/smpboot.o" | grep -q ' U x86_spinlock_choose$' ||
		{ echo "FAIL coverage $name: smpboot.o does not call x86_spinlock_choose()"; return 1; }
	nm -u "$O/kernel/locking/spinlock.o" | grep -q 'x86_spinlock_ticket_key' ||
		{ echo "FAIL coverage $name: spinlock.o does not dispatch on x86_spinlock_ticket_key"; return 1; }
	echo "ok   coverage $name: $(echo $objs | wc -w) objects build with Debian's amd64 config (NR_CPUS=8192, PARAVIRT_SPINLOCKS); spinlock.o dispatches on the static keys"
}
debian || failed=1
exit $failed
