/* SPDX-License-Identifier: GPL-2.0 */
/*
 * locks.h - the spinlock algorithms under test, usable unchanged from a
 * Linux kernel module (bench/lockbench/) and from user space (bench/tools/).
 *
 * The locks, each with init / lock / trylock / unlock / is_locked, and
 * lock() split into take() (its first atomic attempt) and wait() (the rest),
 * listed once in LB_LOCKS() below, behind one dispatch (lb_lock(),
 * lb_take(), ...).  A lock with a header of its own is added there
 * (docs/adding-a-lock.md); these are here:
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
#include <asm/msr.h>		/* rdtsc(): skipticket's clock */

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
static inline int lb_legacy_take(struct lb_legacy *l, lb_u32 *tok)
{
	lb_u8 neg;

	*tok = 0;	/* nothing to carry to wait() */

	__asm__ __volatile__(
		"lock; decl %0\n\t"
		"sets %1"
		: "+m" (l->slock), "=qm" (neg) : : "memory", "cc");
	return !neg;
}

static inline void lb_legacy_wait(struct lb_legacy *l, lb_u32 tok)
{
	(void)tok;
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
	lb_u32 tok;

	if (!lb_legacy_take(l, &tok))
		lb_legacy_wait(l, tok);
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

static inline int lb_legacy_is_contended(struct lb_legacy *l)
{
	(void)l;
	return 0;	/* its waiters only read the word: no queue to show */
}

static inline lb_u32 lb_legacy_ticket(lb_u32 tok)
{
	(void)tok;
	return 0;
}

static inline lb_u32 lb_legacy_ticket_bits(void)
{
	return 0;
}

static inline lb_u32 lb_legacy_max_cpus(void)
{
	return 0;
}

/* ------------------------------------------------------------------ */
/* ticket8, ticket16: the series' own ticket lock (series.h)           */
/* ------------------------------------------------------------------ */

/*
 * Not a copy: series.h includes the patched tree's asm/ticket_spinlock.h
 * twice, as series8_*() (8-bit tickets in a 16-bit word, NR_CPUS < 256)
 * and series16_*() (16-bit tickets, the "big tickets" of NR_CPUS >= 256).
 * The lock word is the series' arch_spinlock_t, 32 bits either way.  The
 * functions below only give them the names of the list: take() is the
 * xadd (__ticket_spin_take()), and its token the ticket it took.
 */
#define LB_TICKET_OPS(W)						\
static inline void lb_ticket##W##_init(series##W##_t *l)		\
{									\
	series##W##_init(l);						\
}									\
static inline int lb_ticket##W##_take(series##W##_t *l, lb_u32 *tok)	\
{									\
	struct series##W##_tickets t = series##W##_take(l);		\
									\
	*tok = t.tail;							\
	return t.head == t.tail;					\
}									\
static inline void lb_ticket##W##_wait(series##W##_t *l, lb_u32 tok)	\
{									\
	series##W##_wait(l, tok);					\
}									\
static inline void lb_ticket##W##_lock(series##W##_t *l)		\
{									\
	series##W##_lock(l);						\
}									\
static inline int lb_ticket##W##_trylock(series##W##_t *l)		\
{									\
	return series##W##_trylock(l);					\
}									\
static inline void lb_ticket##W##_unlock(series##W##_t *l)		\
{									\
	series##W##_unlock(l);						\
}									\
static inline int lb_ticket##W##_is_locked(series##W##_t *l)		\
{									\
	return series##W##_is_locked(l);				\
}									\
static inline int lb_ticket##W##_is_contended(series##W##_t *l)		\
{									\
	return series##W##_is_contended(l);				\
}									\
static inline lb_u32 lb_ticket##W##_ticket(lb_u32 tok)			\
{									\
	return tok;							\
}									\
static inline lb_u32 lb_ticket##W##_ticket_bits(void)			\
{									\
	return series##W##_shift;					\
}									\
static inline lb_u32 lb_ticket##W##_max_cpus(void)			\
{									\
	return (1U << series##W##_shift) - 1;				\
}
LB_TICKET_OPS(8)
LB_TICKET_OPS(16)

#define LB_TICKET8_MAX_CPUS	((1U << series8_shift) - 1)
#define LB_TICKET16_MAX_CPUS	((1U << series16_shift) - 1)

/* ------------------------------------------------------------------ */
/* skipticket: the series' skip-ticket lock (series.h)                 */
/* ------------------------------------------------------------------ */

/*
 * take() is skt_lock()'s: its xadd (__skipticket_spin_take()), or while
 * skt_state's hint says hurried, __skipticket_spin_take_hurried() (a
 * cmpxchg of a free word, else an xadd that registers); the token is the
 * word before it, marked if the xadd registered. wait() is the slow path,
 * skt_slowpath().
 */
static inline void lb_skipticket_init(skt_lock_t *l)
{
	skt_init(l);
}

static inline int lb_skipticket_take(skt_lock_t *l, lb_u32 *tok)
{
	u32 val = 0;
	int got;

	if (unlikely(READ_ONCE(skt_state.hurried_until)))
		got = skt_take_hurried(l, &val, &skt_state, rdtsc);
	else
		got = skt_take(l, &val);
	*tok = val;
	return got;
}

static inline void lb_skipticket_wait(skt_lock_t *l, lb_u32 tok)
{
	skt_slowpath(l, tok);
}

static inline void lb_skipticket_lock(skt_lock_t *l)
{
	skt_lock(l);
}

static inline int lb_skipticket_trylock(skt_lock_t *l)
{
	return skt_trylock(l);
}

static inline void lb_skipticket_unlock(skt_lock_t *l)
{
	skt_unlock(l);
}

static inline int lb_skipticket_is_locked(skt_lock_t *l)
{
	return skt_is_locked(l);
}

static inline int lb_skipticket_is_contended(skt_lock_t *l)
{
	return skt_is_contended(l);
}

static inline lb_u32 lb_skipticket_ticket(lb_u32 tok)
{
	return skt_tail(tok);
}

static inline lb_u32 lb_skipticket_ticket_bits(void)
{
	return skt_ticket_bits;
}

static inline lb_u32 lb_skipticket_max_cpus(void)
{
	return skt_max_cpus;
}

/* ------------------------------------------------------------------ */
/* The list: every lock of this file, declared once                    */
/* ------------------------------------------------------------------ */

/* Locks with a header of their own (docs/adding-a-lock.md) go here. */
#include "ticketpb.h"

/*
 * LB_LOCKS(X) calls X(ID, name, type) for each lock, in the order the
 * tools list and run them.  ID gives LB_ID (enum lb_lock_kind); name is
 * the lock's name everywhere else (fairness -l, lockbench's locks=, the
 * scripts, the report) and the prefix of its functions; type is its lock
 * word.  Each lock provides, for a TYPE *l:
 *
 *   void   lb_NAME_init(l)
 *   int    lb_NAME_take(l, lb_u32 *tok)   its first atomic attempt: 1 if
 *                                         that got the lock; *tok is what
 *                                         wait() and ticket() need (ticket8:
 *                                         the ticket; skipticket: the word
 *                                         its xadd returned)
 *   void   lb_NAME_wait(l, lb_u32 tok)    the rest of lock() after take()
 *                                         refused
 *   void   lb_NAME_lock(l)                take() then wait(), as one
 *   int    lb_NAME_trylock(l)             1 if it got the lock
 *   void   lb_NAME_unlock(l)
 *   int    lb_NAME_is_locked(l)
 *   int    lb_NAME_is_contended(l)        a waiter queued behind the
 *                                         owner, as the lock word shows it
 *                                         (0 where it cannot show one)
 *   lb_u32 lb_NAME_ticket(lb_u32 tok)     the ticket in a token, 0 if none
 *   lb_u32 lb_NAME_ticket_bits(void)      bits in a ticket, 0: not a
 *                                         ticket lock (its grant order is
 *                                         then checked for bypasses only)
 *   lb_u32 lb_NAME_max_cpus(void)         most CPUs that may contend at
 *                                         once, 0: unlimited
 *
 * Everything else (the module, the tools, the scripts, the report) takes
 * its list from here: fairness -L and lockbench's output print it.
 */
#define LB_LOCKS(X)							\
	X(LEGACY, legacy, struct lb_legacy)				\
	X(TICKET8, ticket8, series8_t)					\
	X(TICKET16, ticket16, series16_t)				\
	X(SKIPTICKET, skipticket, skt_lock_t)				\
	X(TICKETPB, ticketpb, struct lb_ticketpb)

/* ------------------------------------------------------------------ */
/* Generic dispatch, so callers can loop over the kinds                */
/* ------------------------------------------------------------------ */

enum lb_lock_kind {
#define LB_X(ID, name, type)	LB_##ID,
	LB_LOCKS(LB_X)
#undef LB_X
	LB_NR_KINDS
};

union lb_anylock {
#define LB_X(ID, name, type)	type name;
	LB_LOCKS(LB_X)
#undef LB_X
};

static const char *const lb_lock_names[LB_NR_KINDS] = {
#define LB_X(ID, name, type)	[LB_##ID] = #name,
	LB_LOCKS(LB_X)
#undef LB_X
};

static inline const char *lb_lock_name(enum lb_lock_kind kind)
{
	return (unsigned int)kind < LB_NR_KINDS ? lb_lock_names[kind] : "?";
}

/*
 * With a compile-time constant kind each switch below folds away after
 * inlining; a hot loop should be instantiated per kind rather than switch
 * each time.
 */

/* Largest number of CPUs that may contend at once, 0 = unlimited. */
static inline lb_u32 lb_lock_max_cpus(enum lb_lock_kind kind)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_max_cpus();
	LB_LOCKS(LB_X)
#undef LB_X
	default:		return 0;
	}
}

static inline void lb_lock_init(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: lb_##name##_init(&l->name); break;
	LB_LOCKS(LB_X)
#undef LB_X
	default:		break;
	}
}

static inline void lb_lock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: lb_##name##_lock(&l->name); break;
	LB_LOCKS(LB_X)
#undef LB_X
	default:		break;
	}
}

/*
 * lb_take - the lock's first attempt, as lb_lock() makes it: legacy's
 * first "lock; decl", a ticket lock's xadd (the series'
 * __ticket_spin_take()).  Returns non-zero if that got the lock.  *tok is
 * what lb_wait() needs to finish the job; for a ticket lock lb_ticket()
 * gives the ticket the xadd took, the caller's exact place in line.
 */
static inline int lb_take(enum lb_lock_kind kind, union lb_anylock *l,
			  lb_u32 *tok)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_take(&l->name, tok);
	LB_LOCKS(LB_X)
#undef LB_X
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
#define LB_X(ID, name, type)	case LB_##ID: lb_##name##_wait(&l->name, tok); break;
	LB_LOCKS(LB_X)
#undef LB_X
	default:		break;
	}
}

/* The ticket in a token from lb_take() (ticket locks), 0 otherwise. */
static inline lb_u32 lb_ticket(enum lb_lock_kind kind, lb_u32 tok)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_ticket(tok);
	LB_LOCKS(LB_X)
#undef LB_X
	default:		return 0;
	}
}

/* Bits in a ticket (ticket locks), 0 otherwise. */
static inline lb_u32 lb_ticket_bits(enum lb_lock_kind kind)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_ticket_bits();
	LB_LOCKS(LB_X)
#undef LB_X
	default:		return 0;
	}
}

static inline int lb_trylock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_trylock(&l->name);
	LB_LOCKS(LB_X)
#undef LB_X
	default:		return 0;
	}
}

static inline void lb_unlock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: lb_##name##_unlock(&l->name); break;
	LB_LOCKS(LB_X)
#undef LB_X
	default:		break;
	}
}

static inline int lb_is_locked(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_is_locked(&l->name);
	LB_LOCKS(LB_X)
#undef LB_X
	default:		return 0;
	}
}

static inline int lb_is_contended(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
#define LB_X(ID, name, type)	case LB_##ID: return lb_##name##_is_contended(&l->name);
	LB_LOCKS(LB_X)
#undef LB_X
	default:		return 0;
	}
}

#endif /* LB_LOCKS_H */
