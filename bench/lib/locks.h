/* SPDX-License-Identifier: GPL-2.0 */
/*
 * locks.h - the spinlock algorithms under test, usable unchanged from a
 * Linux kernel module (bench/lockbench/) and from user space (bench/tools/).
 *
 * Four locks, each with init / lock / trylock / unlock / is_locked, and
 * lock() split into take() (its first atomic attempt) and wait() (the rest),
 * behind one dispatch (lb_lock(), lb_take(), ...):
 *
 *  legacy    The 2.6.24 x86 "decrement" spinlock, exactly as removed by
 *            commit 314cdbefd1fd ("x86: FIFO ticket spinlocks"), kept here
 *            as the seed's inline asm.  A signed int, 1 = unlocked, <= 0 =
 *            locked.
 *
 *  ticket8   The series' own FIFO ticket lock, the patched tree's
 *  ticket16  arch/x86/include/asm/ticket_spinlock.h at both widths (8-bit
 *            tickets below 256 CPUs, 16-bit "big tickets" above), included
 *            unchanged through series.h: in a kernel module that is the
 *            kernel's header as it is, in user space it builds against the
 *            shims in shim/.  Its algorithm and memory ordering are
 *            documented there; this file keeps no copy of it.
 *
 *  skipticket  The series' skip-ticket lock, the patched tree's
 *            arch/x86/include/asm/skipticket_spinlock.h, through series.h:
 *            FIFO while waiters run; a registered waiter that leaves the
 *            lock unclaimed for the patience is skipped and queues again.
 *            8-bit tickets, at most 255 CPUs.  Its slow path is
 *            skt_slowpath() (lib/skipticket.c, or lockbench.c in the
 *            module), the kernel's skipticket_spin_lock_slowpath().
 *
 * Include path: in user space -I bench/lib/shim -isystem
 * $(TREE)/arch/x86/include -isystem $(TREE)/include (bench/Makefile); in a
 * module, nothing beyond the kernel's own.  x86-64 only.
 *
 * The legacy lock's memory ordering (x86 TSO), which is why it needs no
 * fence:
 *
 *  - A LOCK-prefixed read-modify-write (lock decl) and xchg (implicitly
 *    locked) are full barriers: no earlier load or store is reordered
 *    after them, and no later load or store is reordered before them.  So
 *    the acquiring decl is an acquire barrier (critical-section accesses
 *    cannot move above it).
 *  - Loads are not reordered with other loads.  A waiter spins with plain
 *    loads until it sees the lock free (value > 0) and then re-does the
 *    locked decl, which is the acquire.
 *  - Stores are not reordered with older loads or older stores, so the
 *    plain unlocking store (movl $1) is a release: every access of the
 *    critical section is globally visible before the lock appears free.
 *  - Every asm statement below has a "memory" clobber, which makes it a
 *    compiler barrier as well: the compiler may not cache shared data in
 *    registers across lock/unlock nor move accesses out of the critical
 *    section.  The CPU side is covered by the rules above.
 *
 * (PPro errata 66/92 and OOSTORE needed a locked unlock on 32-bit; none of
 * that applies to x86-64, so UNLOCK_LOCK_PREFIX is empty here.)
 */
#ifndef LB_LOCKS_H
#define LB_LOCKS_H

#if !defined(__x86_64__)
#error "bench/lib/locks.h: x86-64 only (the lock algorithms are x86 inline asm)"
#endif

#ifndef LB_TYPES_DEFINED
#define LB_TYPES_DEFINED
/* Own fixed-width types: no <stdint.h>, no <linux/types.h>. */
typedef unsigned char		lb_u8;
typedef unsigned short		lb_u16;
typedef unsigned int		lb_u32;
typedef signed int		lb_s32;
typedef unsigned long long	lb_u64;
__extension__ typedef unsigned __int128 lb_u128;
#endif

#include "series.h"

/* "rep; nop" is the PAUSE instruction: a spin-wait hint to the CPU. */
static inline void lb_cpu_relax(void)
{
	__asm__ __volatile__("rep; nop" : : : "memory");
}

/* ------------------------------------------------------------------ */
/* legacy: 2.6.24 decrement lock                                       */
/* ------------------------------------------------------------------ */

struct lb_legacy {
	lb_s32 slock;		/* 1: unlocked, <= 0: locked */
};

#define LB_LEGACY_UNLOCKED	{ 1 }

static inline void lb_legacy_init(struct lb_legacy *l)
{
	*(volatile lb_s32 *)&l->slock = 1;
}

/*
 * Atomically decrement; if the result is not negative (it went 1 -> 0) the
 * lock is ours.  Otherwise spin with plain reads (no bus locking) until the
 * value becomes positive again, then race to decrement it once more.
 * Whoever's locked decl reaches the cache line first wins; nothing orders
 * the waiters, and the releasing CPU, which still owns the line, has a
 * head start.  That is the unfairness the ticket lock removes.
 *
 * Split in two so that a caller can note the moment it is first refused
 * (the fairness test stamps its arrival there): lb_legacy_take() is the
 * first "lock; decl" and says whether it won, lb_legacy_wait() is the rest
 * of the loop.  lb_legacy_lock() is the two together, the 2008 sequence.
 */
static inline int lb_legacy_take(struct lb_legacy *l)
{
	lb_u8 neg;

	__asm__ __volatile__(
		"lock; decl %0\n\t"
		"sets %1"
		: "+m" (l->slock), "=qm" (neg) : : "memory", "cc");
	return !neg;
}

static inline void lb_legacy_wait(struct lb_legacy *l)
{
	__asm__ __volatile__(
		"\n1:\t"
		"rep; nop\n\t"
		"cmpl $0, %0\n\t"
		"jle 1b\n\t"
		"lock; decl %0\n\t"
		"js 1b\n\t"
		: "+m" (l->slock) : : "memory", "cc");
}

static inline void lb_legacy_lock(struct lb_legacy *l)
{
	if (!lb_legacy_take(l))
		lb_legacy_wait(l);
}

/*
 * xchg (implicitly locked) 0 into the lock; we got it if the old value was
 * positive.  If the lock was held this writes 0 over a possibly negative
 * value; that is harmless because waiters only wait for "> 0" and the
 * owner's unlock stores 1 unconditionally.
 */
static inline int lb_legacy_trylock(struct lb_legacy *l)
{
	lb_s32 oldval;

	__asm__ __volatile__(
		"xchgl %0, %1"
		: "=q" (oldval), "+m" (l->slock)
		: "0" (0) : "memory");
	return oldval > 0;
}

/* A plain store of 1 is a release on x86 (see the comment at the top). */
static inline void lb_legacy_unlock(struct lb_legacy *l)
{
	__asm__ __volatile__(
		"movl $1, %0"
		: "=m" (l->slock) : : "memory");
}

static inline int lb_legacy_is_locked(struct lb_legacy *l)
{
	return *(volatile lb_s32 *)&l->slock <= 0;
}

/* ------------------------------------------------------------------ */
/* ticket8, ticket16: the series' own ticket lock (series.h)           */
/* ------------------------------------------------------------------ */

/*
 * Not a copy: series.h includes the patched tree's asm/ticket_spinlock.h
 * twice, as series8_*() (8-bit tickets in a 16-bit word, NR_CPUS < 256)
 * and series16_*() (16-bit tickets, the "big tickets" of NR_CPUS >= 256).
 * The lock word is the series' arch_spinlock_t, 32 bits either way.
 */
#define LB_TICKET8_MAX_CPUS	((1U << series8_shift) - 1)
#define LB_TICKET16_MAX_CPUS	((1U << series16_shift) - 1)

/* ------------------------------------------------------------------ */
/* Generic dispatch, so callers can loop over the kinds                */
/* ------------------------------------------------------------------ */

enum lb_lock_kind {
	LB_LEGACY,
	LB_TICKET8,
	LB_TICKET16,
	LB_SKIPTICKET,
	LB_NR_KINDS
};

union lb_anylock {
	struct lb_legacy	legacy;
	series8_t		ticket8;
	series16_t		ticket16;
	skt_lock_t		skipticket;
};

static inline const char *lb_lock_name(enum lb_lock_kind kind)
{
	switch (kind) {
	case LB_LEGACY:		return "legacy";
	case LB_TICKET8:	return "ticket8";
	case LB_TICKET16:	return "ticket16";
	case LB_SKIPTICKET:	return "skipticket";
	default:		return "?";
	}
}

/* Largest number of CPUs that may contend at once, 0 = unlimited. */
static inline lb_u32 lb_lock_max_cpus(enum lb_lock_kind kind)
{
	switch (kind) {
	case LB_TICKET8:	return LB_TICKET8_MAX_CPUS;
	case LB_TICKET16:	return LB_TICKET16_MAX_CPUS;
	case LB_SKIPTICKET:	return skt_max_cpus;
	default:		return 0;
	}
}

/*
 * With a compile-time constant kind the switch folds away after inlining;
 * a hot loop should be instantiated per kind rather than switch each time.
 */
static inline void lb_lock_init(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_init(&l->legacy); break;
	case LB_TICKET8:	series8_init(&l->ticket8); break;
	case LB_TICKET16:	series16_init(&l->ticket16); break;
	case LB_SKIPTICKET:	skt_init(&l->skipticket); break;
	default:		break;
	}
}

static inline void lb_lock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_lock(&l->legacy); break;
	case LB_TICKET8:	series8_lock(&l->ticket8); break;
	case LB_TICKET16:	series16_lock(&l->ticket16); break;
	case LB_SKIPTICKET:	skt_lock(&l->skipticket); break;
	default:		break;
	}
}

/*
 * lb_take - the lock's first attempt, as lb_lock() makes it: legacy's
 * first "lock; decl", a ticket lock's xadd (the series'
 * __ticket_spin_take()).  Returns non-zero if that got the lock.  *tok is
 * what lb_wait() needs to finish the job; for a ticket lock it is the
 * ticket the xadd took (lb_ticket()), the caller's exact place in line.
 */
static inline int lb_take(enum lb_lock_kind kind, union lb_anylock *l,
			  lb_u32 *tok)
{
	switch (kind) {
	case LB_LEGACY:
		*tok = 0;
		return lb_legacy_take(&l->legacy);
	case LB_TICKET8: {
		struct series8_tickets t = series8_take(&l->ticket8);

		*tok = t.tail;
		return t.head == t.tail;
	}
	case LB_TICKET16: {
		struct series16_tickets t = series16_take(&l->ticket16);

		*tok = t.tail;
		return t.head == t.tail;
	}
	case LB_SKIPTICKET: {
		u32 val = 0;
		int got = skt_take(&l->skipticket, &val);

		*tok = val;		/* the word before the xadd */
		return got;
	}
	default:
		*tok = 0;
		return 1;
	}
}

/*
 * lb_wait - after an lb_take() that did not get the lock: wait for it (a
 * ticket lock: the series' __ticket_spin_wait()).
 */
static inline void lb_wait(enum lb_lock_kind kind, union lb_anylock *l,
			   lb_u32 tok)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_wait(&l->legacy); break;
	case LB_TICKET8:	series8_wait(&l->ticket8, tok); break;
	case LB_TICKET16:	series16_wait(&l->ticket16, tok); break;
	case LB_SKIPTICKET:	skt_slowpath(&l->skipticket, tok); break;
	default:		break;
	}
}

/* The ticket in a token from lb_take() (ticket locks), 0 otherwise. */
static inline lb_u32 lb_ticket(enum lb_lock_kind kind, lb_u32 tok)
{
	switch (kind) {
	case LB_TICKET8:
	case LB_TICKET16:	return tok;
	case LB_SKIPTICKET:	return skt_tail(tok);
	default:		return 0;
	}
}

/* Bits in a ticket (ticket locks), 0 otherwise. */
static inline lb_u32 lb_ticket_bits(enum lb_lock_kind kind)
{
	switch (kind) {
	case LB_TICKET8:	return series8_shift;
	case LB_TICKET16:	return series16_shift;
	case LB_SKIPTICKET:	return skt_ticket_bits;
	default:		return 0;
	}
}

static inline int lb_trylock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		return lb_legacy_trylock(&l->legacy);
	case LB_TICKET8:	return series8_trylock(&l->ticket8);
	case LB_TICKET16:	return series16_trylock(&l->ticket16);
	case LB_SKIPTICKET:	return skt_trylock(&l->skipticket);
	default:		return 0;
	}
}

static inline void lb_unlock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_unlock(&l->legacy); break;
	case LB_TICKET8:	series8_unlock(&l->ticket8); break;
	case LB_TICKET16:	series16_unlock(&l->ticket16); break;
	case LB_SKIPTICKET:	skt_unlock(&l->skipticket); break;
	default:		break;
	}
}

static inline int lb_is_locked(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		return lb_legacy_is_locked(&l->legacy);
	case LB_TICKET8:	return series8_is_locked(&l->ticket8);
	case LB_TICKET16:	return series16_is_locked(&l->ticket16);
	case LB_SKIPTICKET:	return skt_is_locked(&l->skipticket);
	default:		return 0;
	}
}

#endif /* LB_LOCKS_H */
