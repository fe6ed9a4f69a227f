#!/bin/sh
# Check that a built kernel carries the intended lock, from the machine
# code of _raw_spin_lock (and do_raw_spin_lock, where lock debugging puts
# arch_spin_lock()). What is intended comes from the variant's config
# fragments, never from the built .config:
#   ticket, NR_CPUS < 256    a 16-bit lock xadd (8-bit tickets)
#   ticket, NR_CPUS >= 256   a 32-bit lock xadd (16-bit tickets)
#   skip-ticket              a 32-bit lock xadd (take a ticket) and a
#                            lock add of one waiter (register), then a
#                            call of the out-of-line slow path, which
#                            claims and skips with a 32-bit lock cmpxchg
#                            and reads the TSC (rdtsc)
#   queued                   qspinlock's lock cmpxchg, and no xadd
#   KCSAN                    the lock and unlock call __kcsan_check_access()
#                            (the xadd and the unlock are asm, invisible to
#                            KCSAN and KASAN unless announced)
#   PARAVIRT                 vcpu_is_preempted() goes through pv_ops
#                            (osq_lock), whatever the lock
# Usage: lab/lockcheck.sh VARIANT
. "$(dirname "$0")/lib.sh"

v=$1
check_variant "$v"
O=$(kbuild_dir "$v")
[ -f "$O/vmlinux" ] || die "no $O/vmlinux"

dis() {
	for f in "$@"; do
		objdump -d --no-show-raw-insn --disassemble="$f" "$O/vmlinux"
	done
}
asm=$(dis _raw_spin_lock do_raw_spin_lock | grep -E 'lock +(xadd|cmpxchg|addl)')
reg16='%([abcd]x|si|di|bp|r[0-9]+w)'
reg32='%(e[abcd]x|esi|edi|ebp|r[0-9]+d)'

if [ "$(fragconf "$v" CONFIG_X86_TICKET_SKIP_PREEMPTED)" = y ]; then
	echo "$asm" | grep -Eq "lock +xadd +$reg32," && echo "$asm" | grep -Eq 'lock +addl +\$0x100,' ||
		{ echo "expected a 32-bit xadd and a lock addl \$0x100 (skip-ticket take, register) in _raw_spin_lock, found: $(echo $asm)"; exit 1; }
	echo "$asm" | grep -q cmpxchg &&
		{ echo "skip-ticket _raw_spin_lock has a cmpxchg (the fast path is an xadd): $(echo $asm)"; exit 1; }
	dis _raw_spin_lock do_raw_spin_lock | grep -q 'call.*<skipticket_spin_lock_slowpath>' ||
		{ echo "_raw_spin_lock does not call skipticket_spin_lock_slowpath()"; exit 1; }
	slow=$(dis skipticket_spin_lock_slowpath)
	echo "$slow" | grep -Eq "lock +cmpxchg +$reg32," && echo "$slow" | grep -q 'rdtsc' ||
		{ echo "skipticket_spin_lock_slowpath() has no 32-bit cmpxchg (claim, skip) or no rdtsc"; exit 1; }
	summary="skip-ticket lock: $(echo "$asm" | grep -Eo "lock +(xadd|addl) +[^ ]+" | sort -u | tr '\n' ' ')+ slow path (32-bit cmpxchg, rdtsc)"
elif [ "$(fragconf "$v" CONFIG_X86_TICKET_SPINLOCKS)" = y ]; then
	nr=$(fragconf "$v" CONFIG_NR_CPUS)
	[ -n "$nr" ] || die "configs/$v.config sets no CONFIG_NR_CPUS"
	if [ "$nr" -lt 256 ]; then want="lock +xadd +$reg16," bits=8; else want="lock +xadd +$reg32," bits=16; fi
	echo "$asm" | grep -Eq "$want" ||
		{ echo "expected a ${bits}-bit-ticket xadd in _raw_spin_lock, found: $(echo $asm)"; exit 1; }
	summary="ticket lock, $bits-bit tickets (NR_CPUS=$nr): $(echo "$asm" | grep -Eo "lock +xadd +[^ ]+" | head -n 1)"
else
	echo "$asm" | grep -q xadd && { echo "queued kernel has a ticket xadd: $(echo $asm)"; exit 1; }
	echo "$asm" | grep -Eq "lock +cmpxchg" ||
		{ echo "expected the qspinlock fast path cmpxchg, found: $(echo $asm)"; exit 1; }
	summary="queued spinlock: $(echo "$asm" | grep -Eo "lock +cmpxchg +[^ ]+" | head -n 1)"
fi

if [ "$(fragconf "$v" CONFIG_KCSAN)" = y ]; then
	for f in lock unlock; do
		# The compiler instruments the spin's READ_ONCE() by itself
		# (__tsan_volatile_read*); __kcsan_check_access() only comes from
		# the explicit instrument_atomic_read_write() of the asm.
		dis "_raw_spin_$f" "do_raw_spin_$f" | grep -q 'call .*<__kcsan_check_access>' ||
			{ echo "arch_spin_$f() announces no access to KCSAN: its asm is invisible to KCSAN and KASAN"; exit 1; }
	done
	summary="$summary; the take and the unlock announced to KCSAN"
fi

if [ "$(fragconf "$v" CONFIG_PARAVIRT)" = y ]; then
	dis osq_lock | grep -q 'pv_ops' ||
		{ echo "osq_lock's vcpu_is_preempted() does not go through pv_ops"; exit 1; }
	summary="$summary; vcpu_is_preempted() through pv_ops"
fi
echo "$summary"
