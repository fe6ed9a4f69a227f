#!/bin/sh
# Check that a built kernel carries the intended lock, from the machine
# code of _raw_spin_lock (and do_raw_spin_lock, where lock debugging puts
# arch_spin_lock()). What is intended comes from the variant's config
# fragments, never from the built .config:
#   ticket, NR_CPUS < 256    a 16-bit lock xadd (8-bit tickets)
#   ticket, NR_CPUS >= 256   a 32-bit lock xadd (16-bit tickets)
#   skip-ticket              a 32-bit lock xadd (take a ticket), nothing
#                            else LOCKed, then a call of the out-of-line
#                            slow path, which registers, claims and skips
#                            with a 32-bit lock cmpxchg, requeues with a
#                            32-bit lock xadd and reads the TSC (rdtsc);
#                            and a call of the out-of-line hurried lock,
#                            which takes a free lock with a 32-bit lock
#                            cmpxchg, else a ticket with a 32-bit lock xadd
#   queued                   qspinlock's lock cmpxchg, and no xadd
#   KCSAN                    the lock and unlock call __kcsan_check_access()
#                            (the xadd and the unlock are asm, invisible to
#                            KCSAN and KASAN unless announced); with the
#                            skip-ticket lock, its slow path and the KUnit
#                            threads' functions call KCSAN (__tsan_*: the
#                            directory they are in is not instrumented
#                            unless the Makefile opts them in)
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
	echo "$asm" | grep -Eq "lock +xadd +$reg32," ||
		{ echo "expected a 32-bit xadd (skip-ticket take) in _raw_spin_lock, found: $(echo $asm)"; exit 1; }
	echo "$asm" | grep -Eq 'cmpxchg|addl' &&
		{ echo "skip-ticket _raw_spin_lock has more than its xadd (the fast path is the ticket lock's): $(echo $asm)"; exit 1; }
	dis _raw_spin_lock do_raw_spin_lock | grep -q 'call.*<skipticket_spin_lock_slowpath>' ||
		{ echo "_raw_spin_lock does not call skipticket_spin_lock_slowpath()"; exit 1; }
	slow=$(dis skipticket_spin_lock_slowpath)
	echo "$slow" | grep -Eq "lock +cmpxchg +$reg32," && echo "$slow" | grep -Eq "lock +xadd +$reg32," &&
		echo "$slow" | grep -q 'rdtsc' ||
		{ echo "skipticket_spin_lock_slowpath() lacks a 32-bit cmpxchg (register, claim, skip), a 32-bit xadd (requeue) or rdtsc"; exit 1; }
	dis _raw_spin_lock do_raw_spin_lock | grep -q 'call.*<skipticket_spin_lock_hurried>' ||
		{ echo "_raw_spin_lock does not call skipticket_spin_lock_hurried()"; exit 1; }
	hurried=$(dis skipticket_spin_lock_hurried)
	echo "$hurried" | grep -Eq "lock +cmpxchg +$reg32,\(" && echo "$hurried" | grep -Eq "lock +xadd +$reg32," ||
		{ echo "skipticket_spin_lock_hurried() lacks a 32-bit cmpxchg of the lock (a free lock) or a 32-bit xadd (a registered ticket)"; exit 1; }
	summary="skip-ticket lock: $(echo "$asm" | grep -Eo "lock +xadd +[^ ]+" | sort -u | tr '\n' ' ')+ slow path (32-bit cmpxchg and xadd, rdtsc) + hurried lock"
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
	if [ "$(fragconf "$v" CONFIG_X86_TICKET_SKIP_PREEMPTED)" = y ]; then
		dis skipticket_spin_lock_slowpath | grep -q 'call .*<__tsan_' ||
			{ echo "skipticket_spin_lock_slowpath() calls no __tsan_*(): KCSAN does not see the slow path"; exit 1; }
		summary="$summary; slow path instrumented"
	fi
	if [ "$(fragconf "$v" CONFIG_X86_TICKET_SPINLOCK_KUNIT_TEST)" = y ]; then
		# The threads of the multi-CPU cases, whatever the compiler
		# named their clones (hammer_fn.constprop.0, ...).
		fns=$(nm "$O/vmlinux" | sed -n 's/^[0-9a-f]* [tT] \(\(hammer\|retake\|fifo\)_fn[.a-z0-9]*\)$/\1/p')
		[ -n "$fns" ] || { echo "no KUnit thread functions (hammer_fn, retake_fn, fifo_fn) in vmlinux"; exit 1; }
		for f in $fns; do
			dis "$f" | grep -q 'call .*<__tsan_' ||
				{ echo "KUnit's $f() calls no __tsan_*(): KCSAN does not see the tests"; exit 1; }
		done
		summary="$summary; KUnit threads instrumented ($(echo $fns))"
	fi
fi

if [ "$(fragconf "$v" CONFIG_PARAVIRT)" = y ]; then
	dis osq_lock | grep -q 'pv_ops' ||
		{ echo "osq_lock's vcpu_is_preempted() does not go through pv_ops"; exit 1; }
	summary="$summary; vcpu_is_preempted() through pv_ops"
fi
echo "$summary"
