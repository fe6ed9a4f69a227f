#!/bin/sh
# Code size of the spinlock paths, as the RISC-V combo spinlock series
# tabulated it: the bytes of _raw_spin_lock(), _raw_spin_trylock() and
# _raw_spin_unlock() (kernel/locking/spinlock.o, where each arch_spin_*()
# is inline) under Debian's own amd64 configuration (package
# linux-config-6.12: -O2, NR_CPUS=8192, preemption dynamic, so the unlock
# is out of line too) with each spinlock choice:
#   queued   Debian's kernel as shipped (queued spinlocks, paravirt)
#   ticket   the FIFO ticket lock (16-bit tickets; no paravirt spinlocks)
#   boot     the spinlock chosen at boot (X86_BOOT_SPINLOCKS), paravirt kept
# (The skip-ticket lock alone needs NR_CPUS < 256, which Debian's
# configuration is not.) A function's size is its symbol's (nm -S): GCC
# moves the parts it expects to be cold out of it, which is where the
# boot-time choice puts the ticket locks (behind their static keys), so the
# last column adds up all of spinlock.o's text sections (.spinlock.text,
# where every lock function is, and .text). Module signing keys and debug
# info are off, which changes no code. Builds spinlock.o only, in
# build/size-CHOICE.
# Usage: lab/codesize.sh     (prints a table; about 3 minutes per choice)
. "$(dirname "$0")/lib.sh"

[ -f "$TREE/Makefile" ] || die "no kernel tree in $TREE: run lab/tree.sh"
mkdir -p "$LOGS"
printf '%-8s %16s %18s %17s %18s\n' choice _raw_spin_lock _raw_spin_trylock _raw_spin_unlock 'spinlock.o text'
for c in queued ticket boot; do
	O=$BUILD/size-$c
	log=$LOGS/size-$c.log
	mkdir -p "$O"
	case $c in
	queued) opts= ;;
	ticket) opts="--disable X86_QUEUED_SPINLOCKS --enable X86_TICKET_SPINLOCKS" ;;
	boot) opts="--disable X86_QUEUED_SPINLOCKS --enable X86_BOOT_SPINLOCKS" ;;
	esac
	# shellcheck disable=SC2086
	debian_base "$O" "$log" $opts
	make -C "$TREE" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$NCPU" \
		kernel/locking/spinlock.o >>"$log" 2>&1 ||
		{ show_tail "$log"; die "building spinlock.o for $c failed (log: $log)"; }
	case $c in
	ticket) want=CONFIG_X86_TICKET_SPINLOCKS=y ;;
	boot) want=CONFIG_X86_BOOT_SPINLOCKS=y ;;
	*) want=CONFIG_X86_QUEUED_SPINLOCKS=y ;;
	esac
	grep -qx "$want" "$O/.config" || die "$c: $want did not take"
	text=$(size -A "$O/kernel/locking/spinlock.o" | awk '$1 ~ /text$/ { t += $2 } END { print t }')
	nm -S "$O/kernel/locking/spinlock.o" | awk -v c=$c -v text="$text" '
		function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		$4 == "_raw_spin_lock" { l = hex($2) } $4 == "_raw_spin_trylock" { t = hex($2) }
		$4 == "_raw_spin_unlock" { u = hex($2) }
		END { printf "%-8s %16s %18s %17s %18s\n", c, l, t, u, text }'
done
