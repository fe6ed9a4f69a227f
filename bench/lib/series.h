/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - the series' own ticket locks, the patched tree's
 * arch/x86/include/asm/ticket_spinlock.h at both ticket widths and
 * asm/skipticket_spinlock.h (the skip-ticket lock), unchanged, for the
 * bench's user-space tools and its kernel module alike.
 *
 * In user space, as ARM's lockhammer runs kernel lock code, the header is
 * compiled against small shims (bench/lib/shim/: the few kernel macros it
 * uses, with their x86 meaning, and no KASAN/KCSAN), so what the tools
 * measure is the code the kernel runs, not a copy. Build with
 *   -I bench/lib/shim -isystem $(TREE)/arch/x86/include
 * (-isystem: the header's "#define arch_spin_is_contended" is redefined on
 * purpose below, which GCC only accepts quietly in a system header).
 *
 * In a kernel module (lockbench) the kernel's own headers are used. The
 * kernel may already have included the header as its spinlock (a ticket
 * kernel) or defined the same names for qspinlock, so every macro this file
 * defines or undefines is saved first and restored at the end
 * (#pragma push_macro/pop_macro), and CONFIG_NR_CPUS is the kernel's again
 * afterwards.
 *
 * The ticket header is included twice, with CONFIG_NR_CPUS at 64 (8-bit
 * tickets in a 16-bit word) and at 512 (16-bit tickets in a 32-bit word),
 * its names renamed to series8_* and series16_*; the skip-ticket header
 * once, renamed to skt_*. All are static inline: a caller gets the same
 * inline code as a kernel caller of arch_spin_lock(). The skip-ticket
 * lock's slow path and the state it waits with (patience, stall clock),
 * which the kernel keeps out of line (skipticket_spin_lock_slowpath(), a
 * static struct skipticket_state), are skt_slowpath() and a struct
 * skt_state here: lib/skipticket.c defines them in user space, lockbench.c
 * in the module, each as the kernel does (__ticket_spin_wait() of the
 * header, with the TSC for clock). A user may define __skipticket_stat() before
 * including this file to count the slow path's events (lockbench does).
 */
#ifndef BENCH_SERIES_H
#define BENCH_SERIES_H

/* Save what the including context has defined under these names. */
#pragma push_macro("CONFIG_NR_CPUS")
#pragma push_macro("_ASM_X86_TICKET_SPINLOCK_H")
#pragma push_macro("_ASM_X86_TICKET_SPINLOCK_TYPES_H")
#pragma push_macro("TICKET_SHIFT")
#pragma push_macro("__TICKET_UNLOCK_INC")
#pragma push_macro("__TICKET_TAIL_INC")
#pragma push_macro("__ARCH_SPIN_LOCK_UNLOCKED")
#pragma push_macro("arch_spinlock")
#pragma push_macro("arch_spinlock_t")
#pragma push_macro("__raw_tickets")
#pragma push_macro("__ticket_t")
#pragma push_macro("__ticketpair_t")
#pragma push_macro("__ticket_spin_take")
#pragma push_macro("__ticket_spin_wait")
#pragma push_macro("arch_spin_lock")
#pragma push_macro("arch_spin_unlock")
#pragma push_macro("arch_spin_trylock")
#pragma push_macro("arch_spin_is_locked")
#pragma push_macro("arch_spin_is_contended")
#pragma push_macro("arch_spin_value_unlocked")
#pragma push_macro("_ASM_X86_SKIPTICKET_SPINLOCK_H")
#pragma push_macro("_ASM_X86_SKIPTICKET_SPINLOCK_TYPES_H")
#pragma push_macro("skipticket_spin_lock_slowpath")
#pragma push_macro("skipticket_spin_lock_hurried")
#pragma push_macro("skipticket_state")
#pragma push_macro("ticket_spinlock")
#pragma push_macro("ticket_spin_lock")
#pragma push_macro("ticket_spin_unlock")
#pragma push_macro("ticket_spin_trylock")
#pragma push_macro("ticket_spin_is_locked")
#pragma push_macro("ticket_spin_is_contended")
#pragma push_macro("ticket_spin_value_unlocked")
#pragma push_macro("__TICKET_SPIN_LOCK_UNLOCKED")
#pragma push_macro("skipticket_spinlock")
#pragma push_macro("skipticket_spin_lock")
#pragma push_macro("skipticket_spin_unlock")
#pragma push_macro("skipticket_spin_trylock")
#pragma push_macro("skipticket_spin_is_locked")
#pragma push_macro("skipticket_spin_is_contended")
#pragma push_macro("skipticket_spin_value_unlocked")
#pragma push_macro("__SKIPTICKET_SPIN_LOCK_UNLOCKED")
#pragma push_macro("__skipticket_t")
#pragma push_macro("__skipticket_head")
#pragma push_macro("__skipticket_tail")
#pragma push_macro("__skipticket_waiting")
#pragma push_macro("__skipticket_queued")
#pragma push_macro("__skipticket_busy")
#pragma push_macro("__skipticket_skip")
#pragma push_macro("__skipticket_spin_take")
#pragma push_macro("__skipticket_spin_take_hurried")
#pragma push_macro("__skipticket_spin_wait")
#pragma push_macro("__skipticket_stall_clock")
#pragma push_macro("__skipticket_patience")
#pragma push_macro("__skipticket_stalled")
#pragma push_macro("__skipticket_xadd")
#pragma push_macro("__skipticket_register")
#pragma push_macro("__skipticket_lazy")
#pragma push_macro("__skipticket_wait_registered")
#pragma push_macro("__skipticket_hurried")
#pragma push_macro("__skipticket_stat")
#pragma push_macro("SKIPTICKET_BITS")
#pragma push_macro("SKIPTICKET_MASK")
#pragma push_macro("SKIPTICKET_WAITING_SHIFT")
#pragma push_macro("SKIPTICKET_SHIFT")
#pragma push_macro("SKIPTICKET_WAITER")
#pragma push_macro("SKIPTICKET_TAIL_INC")
#pragma push_macro("SKIPTICKET_REGISTERED")
#undef CONFIG_NR_CPUS
#undef _ASM_X86_TICKET_SPINLOCK_H
#undef _ASM_X86_TICKET_SPINLOCK_TYPES_H
#undef TICKET_SHIFT
#undef __TICKET_UNLOCK_INC
#undef __TICKET_TAIL_INC
#undef __ARCH_SPIN_LOCK_UNLOCKED
#undef arch_spinlock
#undef arch_spinlock_t
#undef __raw_tickets
#undef __ticket_t
#undef __ticketpair_t
#undef __ticket_spin_take
#undef __ticket_spin_wait
#undef arch_spin_lock
#undef arch_spin_unlock
#undef arch_spin_trylock
#undef arch_spin_is_locked
#undef arch_spin_is_contended
#undef arch_spin_value_unlocked
#undef _ASM_X86_SKIPTICKET_SPINLOCK_H
#undef _ASM_X86_SKIPTICKET_SPINLOCK_TYPES_H
#undef skipticket_spin_lock_slowpath
#undef skipticket_spin_lock_hurried
#undef skipticket_state
#undef ticket_spinlock
#undef ticket_spin_lock
#undef ticket_spin_unlock
#undef ticket_spin_trylock
#undef ticket_spin_is_locked
#undef ticket_spin_is_contended
#undef ticket_spin_value_unlocked
#undef __TICKET_SPIN_LOCK_UNLOCKED
#undef skipticket_spinlock
#undef skipticket_spin_lock
#undef skipticket_spin_unlock
#undef skipticket_spin_trylock
#undef skipticket_spin_is_locked
#undef skipticket_spin_is_contended
#undef skipticket_spin_value_unlocked
#undef __SKIPTICKET_SPIN_LOCK_UNLOCKED
#undef __skipticket_t
#undef __skipticket_head
#undef __skipticket_tail
#undef __skipticket_waiting
#undef __skipticket_queued
#undef __skipticket_busy
#undef __skipticket_skip
#undef __skipticket_spin_take
#undef __skipticket_spin_take_hurried
#undef __skipticket_spin_wait
#undef __skipticket_stall_clock
#undef __skipticket_patience
#undef __skipticket_stalled
#undef __skipticket_xadd
#undef __skipticket_register
#undef __skipticket_lazy
#undef __skipticket_wait_registered
#undef __skipticket_hurried
#undef SKIPTICKET_BITS
#undef SKIPTICKET_MASK
#undef SKIPTICKET_WAITING_SHIFT
#undef SKIPTICKET_SHIFT
#undef SKIPTICKET_WAITER
#undef SKIPTICKET_TAIL_INC
#undef SKIPTICKET_REGISTERED

/* 8-bit tickets: NR_CPUS below 256. */
#define CONFIG_NR_CPUS			64
#define ticket_spinlock			series8_spinlock
#define __raw_tickets			series8_tickets
#define __ticket_t			series8_ticket_t
#define __ticketpair_t			series8_ticketpair_t
#define __ticket_spin_take		series8_take
#define __ticket_spin_wait		series8_wait
#define ticket_spin_lock			series8_lock
#define ticket_spin_unlock		series8_unlock
#define ticket_spin_trylock		series8_trylock
#define ticket_spin_is_locked		series8_is_locked
#define ticket_spin_is_contended		series8_is_contended
#define ticket_spin_value_unlocked	series8_value_unlocked
#include <asm/ticket_spinlock.h>
typedef struct series8_spinlock series8_t;
static inline void series8_init(series8_t *l)
{
	*l = (series8_t)__TICKET_SPIN_LOCK_UNLOCKED;
}
enum { series8_shift = TICKET_SHIFT };

#undef _ASM_X86_TICKET_SPINLOCK_H
#undef _ASM_X86_TICKET_SPINLOCK_TYPES_H
#undef CONFIG_NR_CPUS
#undef TICKET_SHIFT
#undef __TICKET_UNLOCK_INC
#undef __TICKET_TAIL_INC
#undef __TICKET_SPIN_LOCK_UNLOCKED
#undef ticket_spinlock
#undef __raw_tickets
#undef __ticket_t
#undef __ticketpair_t
#undef __ticket_spin_take
#undef __ticket_spin_wait
#undef ticket_spin_lock
#undef ticket_spin_unlock
#undef ticket_spin_trylock
#undef ticket_spin_is_locked
#undef ticket_spin_is_contended
#undef ticket_spin_value_unlocked

/* 16-bit "big" tickets: NR_CPUS of 256 and more. */
#define CONFIG_NR_CPUS			512
#define ticket_spinlock			series16_spinlock
#define __raw_tickets			series16_tickets
#define __ticket_t			series16_ticket_t
#define __ticketpair_t			series16_ticketpair_t
#define __ticket_spin_take		series16_take
#define __ticket_spin_wait		series16_wait
#define ticket_spin_lock			series16_lock
#define ticket_spin_unlock		series16_unlock
#define ticket_spin_trylock		series16_trylock
#define ticket_spin_is_locked		series16_is_locked
#define ticket_spin_is_contended		series16_is_contended
#define ticket_spin_value_unlocked	series16_value_unlocked
#include <asm/ticket_spinlock.h>
typedef struct series16_spinlock series16_t;
static inline void series16_init(series16_t *l)
{
	*l = (series16_t)__TICKET_SPIN_LOCK_UNLOCKED;
}
enum { series16_shift = TICKET_SHIFT };

#undef CONFIG_NR_CPUS
#undef TICKET_SHIFT
#undef __TICKET_UNLOCK_INC
#undef __TICKET_TAIL_INC
#undef __TICKET_SPIN_LOCK_UNLOCKED
#undef ticket_spinlock
#undef __raw_tickets
#undef __ticket_t
#undef __ticketpair_t
#undef __ticket_spin_take
#undef __ticket_spin_wait
#undef ticket_spin_lock
#undef ticket_spin_unlock
#undef ticket_spin_trylock
#undef ticket_spin_is_locked
#undef ticket_spin_is_contended
#undef ticket_spin_value_unlocked

/*
 * The skip-ticket lock: 8-bit tickets, NR_CPUS up to 255 (which the
 * header checks at build time).
 */
#define CONFIG_NR_CPUS			64
#define skipticket_spinlock		skt_spinlock
#define __skipticket_t		skt_ticket_t
#define __skipticket_head		skt_head
#define __skipticket_tail		skt_tail
#define __skipticket_waiting	skt_waiting
#define __skipticket_queued	skt_queued
#define __skipticket_busy		skt_busy
#define __skipticket_skip		skt_skip
#define __skipticket_spin_take	skt_take
#define __skipticket_spin_take_hurried	skt_take_hurried
#define __skipticket_spin_wait	skt_wait_clock
#define skipticket_spin_lock		skt_lock
#define skipticket_spin_unlock	skt_unlock
#define skipticket_spin_trylock	skt_trylock
#define skipticket_spin_is_locked	skt_is_locked
#define skipticket_spin_is_contended	skt_is_contended
#define skipticket_spin_value_unlocked	skt_value_unlocked
#define skipticket_state	skt_state
#define __skipticket_xadd		skt_xadd
#define __skipticket_register	skt_register
#define __skipticket_lazy		skt_lazy
#define __skipticket_wait_registered	skt_wait_registered
#define __skipticket_hurried	skt_hurried
#define __skipticket_stall_clock	skt_stall_clock_after
#define __skipticket_patience	skt_patience_for
#define __skipticket_stalled	skt_stalled
#define skipticket_spin_lock_slowpath	skt_slowpath
#define skipticket_spin_lock_hurried	skt_lock_hurried
#include <asm/skipticket_spinlock.h>
typedef struct skt_spinlock skt_lock_t;
static inline void skt_init(skt_lock_t *l)
{
	*l = (skt_lock_t)__SKIPTICKET_SPIN_LOCK_UNLOCKED;
}
enum {
	skt_max_cpus = SKIPTICKET_MASK,
	skt_ticket_bits = SKIPTICKET_BITS,
	skt_tail_inc = SKIPTICKET_TAIL_INC,	/* one ticket (xadd) */
	skt_waiter = SKIPTICKET_WAITER,	/* one registered waiter */
	skt_registered = SKIPTICKET_REGISTERED,	/* a token registered in its xadd */
};

#undef CONFIG_NR_CPUS
#undef SKIPTICKET_SHIFT
#undef SKIPTICKET_BITS
#undef SKIPTICKET_MASK
#undef SKIPTICKET_WAITING_SHIFT
#undef SKIPTICKET_WAITER
#undef SKIPTICKET_TAIL_INC
#undef SKIPTICKET_REGISTERED
#undef __SKIPTICKET_SPIN_LOCK_UNLOCKED
#undef skipticket_spinlock
#undef __skipticket_t
#undef __skipticket_head
#undef __skipticket_tail
#undef __skipticket_waiting
#undef __skipticket_queued
#undef __skipticket_busy
#undef __skipticket_skip
#undef __skipticket_spin_take
#undef __skipticket_spin_take_hurried
#undef __skipticket_spin_wait
#undef skipticket_spin_lock
#undef skipticket_spin_unlock
#undef skipticket_spin_trylock
#undef skipticket_spin_is_locked
#undef skipticket_spin_is_contended
#undef skipticket_spin_value_unlocked
#undef __skipticket_stall_clock
#undef __skipticket_patience
#undef __skipticket_stalled
#undef skipticket_spin_lock_slowpath
#undef skipticket_spin_lock_hurried
#undef __skipticket_xadd
#undef __skipticket_register
#undef __skipticket_lazy
#undef __skipticket_wait_registered
#undef __skipticket_hurried
#undef skipticket_state

#ifndef __KERNEL__
/*
 * For comparison, the kernel's generic ticket lock, include/asm-generic/
 * spinlock.h from the same tree (16-bit tickets in an atomic_t, with an
 * smp_mb() after the spin), as generic_*. Needs -isystem $(TREE)/include
 * after the x86 one. User space only: a module has no use for it.
 */
#define GENERIC_AS			generic
#include "generic-as.h"
static inline void generic_init(generic_t *l)
{
	*l = (generic_t)__ARCH_SPIN_LOCK_UNLOCKED;
}
#undef __ARCH_SPIN_LOCK_UNLOCKED

#endif /* !__KERNEL__ */

/* Give the including context its macros back. */
#pragma pop_macro("SKIPTICKET_REGISTERED")
#pragma pop_macro("SKIPTICKET_TAIL_INC")
#pragma pop_macro("SKIPTICKET_WAITER")
#pragma pop_macro("SKIPTICKET_SHIFT")
#pragma pop_macro("SKIPTICKET_WAITING_SHIFT")
#pragma pop_macro("SKIPTICKET_MASK")
#pragma pop_macro("SKIPTICKET_BITS")
#pragma pop_macro("__skipticket_stat")
#pragma pop_macro("__skipticket_hurried")
#pragma pop_macro("__skipticket_wait_registered")
#pragma pop_macro("__skipticket_lazy")
#pragma pop_macro("__skipticket_register")
#pragma pop_macro("__skipticket_xadd")
#pragma pop_macro("__skipticket_stalled")
#pragma pop_macro("__skipticket_patience")
#pragma pop_macro("__skipticket_stall_clock")
#pragma pop_macro("__skipticket_spin_wait")
#pragma pop_macro("__skipticket_spin_take_hurried")
#pragma pop_macro("__skipticket_spin_take")
#pragma pop_macro("__skipticket_skip")
#pragma pop_macro("__skipticket_busy")
#pragma pop_macro("__skipticket_queued")
#pragma pop_macro("__skipticket_waiting")
#pragma pop_macro("__skipticket_tail")
#pragma pop_macro("__skipticket_head")
#pragma pop_macro("__skipticket_t")
#pragma pop_macro("__SKIPTICKET_SPIN_LOCK_UNLOCKED")
#pragma pop_macro("skipticket_spin_value_unlocked")
#pragma pop_macro("skipticket_spin_is_contended")
#pragma pop_macro("skipticket_spin_is_locked")
#pragma pop_macro("skipticket_spin_trylock")
#pragma pop_macro("skipticket_spin_unlock")
#pragma pop_macro("skipticket_spin_lock")
#pragma pop_macro("skipticket_spinlock")
#pragma pop_macro("__TICKET_SPIN_LOCK_UNLOCKED")
#pragma pop_macro("ticket_spin_value_unlocked")
#pragma pop_macro("ticket_spin_is_contended")
#pragma pop_macro("ticket_spin_is_locked")
#pragma pop_macro("ticket_spin_trylock")
#pragma pop_macro("ticket_spin_unlock")
#pragma pop_macro("ticket_spin_lock")
#pragma pop_macro("ticket_spinlock")
#pragma pop_macro("skipticket_state")
#pragma pop_macro("skipticket_spin_lock_hurried")
#pragma pop_macro("skipticket_spin_lock_slowpath")
#pragma pop_macro("_ASM_X86_SKIPTICKET_SPINLOCK_TYPES_H")
#pragma pop_macro("_ASM_X86_SKIPTICKET_SPINLOCK_H")
#pragma pop_macro("arch_spin_value_unlocked")
#pragma pop_macro("arch_spin_is_contended")
#pragma pop_macro("arch_spin_is_locked")
#pragma pop_macro("arch_spin_trylock")
#pragma pop_macro("arch_spin_unlock")
#pragma pop_macro("arch_spin_lock")
#pragma pop_macro("__ticket_spin_wait")
#pragma pop_macro("__ticket_spin_take")
#pragma pop_macro("__ticketpair_t")
#pragma pop_macro("__ticket_t")
#pragma pop_macro("__raw_tickets")
#pragma pop_macro("arch_spinlock_t")
#pragma pop_macro("arch_spinlock")
#pragma pop_macro("__ARCH_SPIN_LOCK_UNLOCKED")
#pragma pop_macro("__TICKET_TAIL_INC")
#pragma pop_macro("__TICKET_UNLOCK_INC")
#pragma pop_macro("TICKET_SHIFT")
#pragma pop_macro("_ASM_X86_TICKET_SPINLOCK_TYPES_H")
#pragma pop_macro("_ASM_X86_TICKET_SPINLOCK_H")
#pragma pop_macro("CONFIG_NR_CPUS")

#endif /* BENCH_SERIES_H */
