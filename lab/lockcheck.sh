#!/bin/sh
# Check that a built kernel carries the intended lock, from the machine
# code of _raw_spin_lock (and do_raw_spin_lock, where lock debugging puts
# arch_spin_lock()): 8-bit tickets take a ticket with a 16-bit lock xadd,
# 16-bit tickets with a 32-bit one, queued spinlocks with a lock cmpxchg.
# Usage: lab/lockcheck.sh VARIANT
. "$(dirname "$0")/lib.sh"

v=$1
check_variant "$v"
O=$(kbuild_dir "$v")
[ -f "$O/vmlinux" ] || die "no $O/vmlinux"
conf() { grep -q "^$1=y" "$O/.config"; }

asm=$(for f in _raw_spin_lock do_raw_spin_lock; do
	objdump -d --no-show-raw-insn --disassemble="$f" "$O/vmlinux"
done | grep -E 'lock +(xadd|cmpxchg)')
reg16='%([abcd]x|si|di|bp|r[0-9]+w)'
reg32='%(e[abcd]x|esi|edi|ebp|r[0-9]+d)'

if conf CONFIG_X86_TICKET_SPINLOCKS; then
	nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$O/.config")
	if [ "$nr" -lt 256 ]; then want="lock +xadd +$reg16," bits=8; else want="lock +xadd +$reg32," bits=16; fi
	echo "$asm" | grep -Eq "$want" ||
		{ echo "expected a ${bits}-bit-ticket xadd in _raw_spin_lock, found: $(echo $asm)"; exit 1; }
	echo "ticket lock, $bits-bit tickets (NR_CPUS=$nr): $(echo "$asm" | grep -Eo "lock +xadd +[^ ]+" | head -n 1)"
else
	conf CONFIG_QUEUED_SPINLOCKS || { echo "neither ticket nor queued spinlocks configured"; exit 1; }
	echo "$asm" | grep -q xadd && { echo "queued kernel has a ticket xadd: $(echo $asm)"; exit 1; }
	echo "$asm" | grep -Eq "lock +cmpxchg" ||
		{ echo "expected the qspinlock fast path cmpxchg, found: $(echo $asm)"; exit 1; }
	echo "queued spinlock: $(echo "$asm" | grep -Eo "lock +cmpxchg +[^ ]+" | head -n 1)"
fi
