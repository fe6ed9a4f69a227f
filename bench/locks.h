/* SPDX-License-Identifier: GPL-2.0 */
/*
 * locks.h - the spinlock algorithms under test, usable unchanged from a
 * Linux kernel module and from userspace.
 *
 * This header includes NOTHING: no libc header, no kernel header.  It uses
 * only its own fixed-width types, compiler builtins and inline asm, so the
 * very same instruction sequences are measured in the kernel module and in
 * the userspace fairness test.  x86-64 only.
 *
 * Three locks, each with init / lock / trylock / unlock / is_locked, and
 * lock() split into take() (its first atomic attempt) and wait() (the rest):
 *
 *  legacy    The 2.6.24 x86 "decrement" spinlock, exactly as removed by
 *            commit 314cdbefd1fd ("x86: FIFO ticket spinlocks").  A signed
 *            int, 1 = unlocked, <= 0 = locked.
 *
 *  ticket8   Nick Piggin's FIFO ticket lock from the same commit: two 8-bit
 *            tickets in a 16-bit word, head (now serving) in the low byte,
 *            tail (next ticket) in the high byte.  At most 255 CPUs may
 *            contend (256 outstanding tickets wrap the tail onto the head).
 *
 *  ticket16  The "big ticket" variant of commit 3a556b26a271: 16-bit
 *            tickets in a 32-bit word, head in the low half, tail in the
 *            high half.  At most 65535 contending CPUs.
 *
 * Memory ordering (x86 TSO), which is why none of these needs a fence:
 *
 *  - A LOCK-prefixed read-modify-write (lock decl, lock xadd, lock
 *    cmpxchg) and xchg (implicitly locked) are full barriers: no earlier
 *    load or store is reordered after them, and no later load or store is
 *    reordered before them.  So the acquiring RMW is an acquire barrier
 *    (critical-section accesses cannot move above it).
 *  - Loads are not reordered with other loads.  When a waiter spins with
 *    plain loads and finally sees the lock free (legacy: value > 0;
 *    ticket: head == my ticket), every later load of the critical section
 *    happens after that load, hence after the releasing store became
 *    visible: the plain spin-read is itself an acquire ("don't need lfence
 *    here, because loads are in-order", as the 2008 code says).  For
 *    legacy the waiter then still re-does the locked decl, for ticket
 *    locks the observed head is the grant.
 *  - Stores are not reordered with older loads or older stores, so the
 *    plain unlocking store (legacy: movl $1; ticket: inc of the head) is a
 *    release: every access of the critical section is globally visible
 *    before the lock appears free.
 *  - Ticket unlock is an UNLOCKED incb/incw of the head: a non-atomic
 *    load + store of the head byte/word only.  That is safe because only
 *    the lock owner ever writes a NEW head value.  The other writers of
 *    the word are waiters doing "lock xadd" on the whole word to bump the
 *    tail; the xadd reads and writes the word as one atomic step and
 *    writes the head back unchanged.  Whichever side of that step the
 *    owner's head store falls on, neither update is lost: before it, the
 *    xadd reads and keeps head + 1; after it, the store replaces only the
 *    head byte/word (an 8- or 16-bit inc does not carry into the tail)
 *    and leaves the new tail alone.  For the same reason the tail must
 *    live in the HIGH part: the xadd adds to the whole word, a carry out
 *    of the low part would contaminate the high part, while a tail that
 *    overflows on top simply falls off the end of the word.
 *  - Every asm statement below has a "memory" clobber, which makes it a
 *    compiler barrier as well: the compiler may not cache shared data in
 *    registers across lock/unlock nor move accesses out of the critical
 *    section.  The CPU side is covered by the rules above.
 *
 * (PPro errata 66/92 and OOSTORE needed a locked unlock on 32-bit; none of
 * that applies to x86-64, so UNLOCK_LOCK_PREFIX is empty here.)
 *
 * Two deliberate deviations from the 2008 asm, both in constraint strings
 * only (same instructions): scratch outputs that are written before the
 * memory operand is last used are early-clobber ("=&"), so the compiler
 * can never give them the register holding the lock's address.  The 2008
 * constraints allowed that in theory; the kernel happened not to hit it.
 */
#ifndef LB_LOCKS_H
#define LB_LOCKS_H

#if !defined(__x86_64__)
#error "bench/locks.h: x86-64 only (the lock algorithms are x86 inline asm)"
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
/* ticket8: 8-bit tickets in a 16-bit word                             */
/* ------------------------------------------------------------------ */

struct lb_ticket8 {
	lb_u16 slock;		/* low byte: head (owner), high byte: tail */
};

#define LB_TICKET8_UNLOCKED	{ 0 }
#define LB_TICKET8_MAX_CPUS	255

static inline void lb_ticket8_init(struct lb_ticket8 *l)
{
	*(volatile lb_u16 *)&l->slock = 0;
}

/*
 * One "lock xaddw" of 0x0100 takes a ticket (old tail, returned in the high
 * byte %h0) and returns the current head (low byte %b0) in the same atomic
 * operation.  If they are equal the lock is ours; otherwise pause and
 * re-read only the head byte until it reaches our ticket.  Waiters are
 * served strictly in xadd order: FIFO.
 *
 * Split in two, as for legacy: lb_ticket8_take() is the xadd and returns
 * the old word (ticket in the high byte, head in the low byte; the lock is
 * ours at once if they are equal), lb_ticket8_wait() is the loop.  The
 * ticket is the waiter's exact place in line.
 */
static inline lb_u16 lb_ticket8_take(struct lb_ticket8 *l)
{
	lb_u16 inc = 0x0100;

	__asm__ __volatile__(
		"lock; xaddw %w0, %1"
		: "+Q" (inc), "+m" (l->slock)
		:
		: "memory", "cc");
	return inc;
}

static inline int lb_ticket8_got(lb_u16 inc)
{
	return (inc >> 8) == (inc & 0xff);
}

static inline void lb_ticket8_wait(struct lb_ticket8 *l, lb_u16 inc)
{
	__asm__ __volatile__(
		"1:\t"
		"cmpb %h0, %b0\n\t"
		"je 2f\n\t"
		"rep; nop\n\t"
		"movb %1, %b0\n\t"
		/* no lfence needed: loads are in-order */
		"jmp 1b\n"
		"2:"
		: "+Q" (inc)
		: "m" (l->slock)
		: "memory", "cc");
}

static inline void lb_ticket8_lock(struct lb_ticket8 *l)
{
	lb_ticket8_wait(l, lb_ticket8_take(l));
}

/*
 * Succeeds only if the lock is free (head == tail): cmpxchg the word with
 * tail + 1.  %1 is early-clobber: it is written before %2 is last used.
 */
static inline int lb_ticket8_trylock(struct lb_ticket8 *l)
{
	lb_u32 tmp;
	lb_u16 new;

	__asm__ __volatile__(
		"movw %2, %w0\n\t"
		"cmpb %h0, %b0\n\t"
		"jne 1f\n\t"
		"movw %w0, %w1\n\t"
		"incb %h1\n\t"
		"lock; cmpxchgw %w1, %2\n\t"
		"1:"
		"sete %b1\n\t"
		"movzbl %b1, %0\n\t"
		: "=&a" (tmp), "=&Q" (new), "+m" (l->slock)
		:
		: "memory", "cc");
	return (int)tmp;
}

/* Only the owner writes the head: a plain (unlocked) incb is enough. */
static inline void lb_ticket8_unlock(struct lb_ticket8 *l)
{
	__asm__ __volatile__(
		"incb %0"
		: "+m" (l->slock)
		:
		: "memory", "cc");
}

static inline int lb_ticket8_is_locked(struct lb_ticket8 *l)
{
	lb_u32 tmp = *(volatile lb_u16 *)&l->slock;

	return ((tmp >> 8) & 0xff) != (tmp & 0xff);
}

/* More than one ticket outstanding: someone is waiting. */
static inline int lb_ticket8_is_contended(struct lb_ticket8 *l)
{
	lb_u32 tmp = *(volatile lb_u16 *)&l->slock;

	return (lb_u8)(((tmp >> 8) & 0xff) - (tmp & 0xff)) > 1;
}

/* ------------------------------------------------------------------ */
/* ticket16: 16-bit tickets in a 32-bit word                           */
/* ------------------------------------------------------------------ */

struct lb_ticket16 {
	lb_u32 slock;		/* low half: head (owner), high half: tail */
};

#define LB_TICKET16_UNLOCKED	{ 0 }
#define LB_TICKET16_MAX_CPUS	65535

static inline void lb_ticket16_init(struct lb_ticket16 *l)
{
	*(volatile lb_u32 *)&l->slock = 0;
}

/*
 * Same algorithm with a 32-bit "lock xaddl" of 0x10000; there are no
 * 16-bit partial registers for the high half, so the ticket is shifted
 * down and the head zero-extended into a scratch register for the compare.
 * Split like ticket8: lb_ticket16_take() returns the old word (ticket in
 * the high half, head in the low half), lb_ticket16_wait() the loop.
 */
static inline lb_u32 lb_ticket16_take(struct lb_ticket16 *l)
{
	lb_u32 inc = 0x00010000;

	__asm__ __volatile__(
		"lock; xaddl %0, %1"
		: "+r" (inc), "+m" (l->slock)
		:
		: "memory", "cc");
	return inc;
}

static inline int lb_ticket16_got(lb_u32 inc)
{
	return (inc >> 16) == (inc & 0xffff);
}

static inline void lb_ticket16_wait(struct lb_ticket16 *l, lb_u32 inc)
{
	lb_u32 tmp;

	__asm__ __volatile__(
		"movzwl %w0, %1\n\t"
		"shrl $16, %0\n\t"
		"1:\t"
		"cmpl %0, %1\n\t"
		"je 2f\n\t"
		"rep; nop\n\t"
		"movzwl %2, %1\n\t"
		/* no lfence needed: loads are in-order */
		"jmp 1b\n"
		"2:"
		: "+r" (inc), "=&r" (tmp)
		: "m" (l->slock)
		: "memory", "cc");
}

static inline void lb_ticket16_lock(struct lb_ticket16 *l)
{
	lb_ticket16_wait(l, lb_ticket16_take(l));
}

/*
 * Load the word, rotate it by 16 and compare with itself: equal iff
 * head == tail.  In that case the rotated value in %eax equals the
 * original, so it can serve directly as cmpxchg's expected value.
 */
static inline int lb_ticket16_trylock(struct lb_ticket16 *l)
{
	lb_u32 tmp;
	lb_u32 new;

	__asm__ __volatile__(
		"movl %2, %0\n\t"
		"movl %0, %1\n\t"
		"roll $16, %0\n\t"
		"cmpl %0, %1\n\t"
		"jne 1f\n\t"
		"addl $0x00010000, %1\n\t"
		"lock; cmpxchgl %1, %2\n\t"
		"1:"
		"sete %b1\n\t"
		"movzbl %b1, %0\n\t"
		: "=&a" (tmp), "=&q" (new), "+m" (l->slock)
		:
		: "memory", "cc");
	return (int)tmp;
}

/* incw of the low half: wraps 0xffff -> 0 without carrying into the tail. */
static inline void lb_ticket16_unlock(struct lb_ticket16 *l)
{
	__asm__ __volatile__(
		"incw %0"
		: "+m" (l->slock)
		:
		: "memory", "cc");
}

static inline int lb_ticket16_is_locked(struct lb_ticket16 *l)
{
	lb_u32 tmp = *(volatile lb_u32 *)&l->slock;

	return ((tmp >> 16) & 0xffff) != (tmp & 0xffff);
}

static inline int lb_ticket16_is_contended(struct lb_ticket16 *l)
{
	lb_u32 tmp = *(volatile lb_u32 *)&l->slock;

	return (lb_u16)(((tmp >> 16) & 0xffff) - (tmp & 0xffff)) > 1;
}

/* ------------------------------------------------------------------ */
/* Generic dispatch, so callers can loop over the kinds                */
/* ------------------------------------------------------------------ */

enum lb_lock_kind {
	LB_LEGACY,
	LB_TICKET8,
	LB_TICKET16,
	LB_NR_KINDS
};

union lb_anylock {
	struct lb_legacy	legacy;
	struct lb_ticket8	ticket8;
	struct lb_ticket16	ticket16;
};

static inline const char *lb_lock_name(enum lb_lock_kind kind)
{
	switch (kind) {
	case LB_LEGACY:		return "legacy";
	case LB_TICKET8:	return "ticket8";
	case LB_TICKET16:	return "ticket16";
	default:		return "?";
	}
}

/* Largest number of CPUs that may contend at once, 0 = unlimited. */
static inline lb_u32 lb_lock_max_cpus(enum lb_lock_kind kind)
{
	switch (kind) {
	case LB_TICKET8:	return LB_TICKET8_MAX_CPUS;
	case LB_TICKET16:	return LB_TICKET16_MAX_CPUS;
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
	case LB_TICKET8:	lb_ticket8_init(&l->ticket8); break;
	case LB_TICKET16:	lb_ticket16_init(&l->ticket16); break;
	default:		break;
	}
}

static inline void lb_lock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_lock(&l->legacy); break;
	case LB_TICKET8:	lb_ticket8_lock(&l->ticket8); break;
	case LB_TICKET16:	lb_ticket16_lock(&l->ticket16); break;
	default:		break;
	}
}

/*
 * lb_take - the lock's first attempt, as lb_lock() makes it: legacy's
 * first "lock; decl", a ticket lock's xadd.  Returns non-zero if that got
 * the lock.  *tok is what lb_wait() needs to finish the job; for a ticket
 * lock it is the word the xadd returned, whose ticket (lb_ticket()) is the
 * caller's exact place in line.
 */
static inline int lb_take(enum lb_lock_kind kind, union lb_anylock *l,
			  lb_u32 *tok)
{
	switch (kind) {
	case LB_LEGACY:
		*tok = 0;
		return lb_legacy_take(&l->legacy);
	case LB_TICKET8:
		*tok = lb_ticket8_take(&l->ticket8);
		return lb_ticket8_got((lb_u16)*tok);
	case LB_TICKET16:
		*tok = lb_ticket16_take(&l->ticket16);
		return lb_ticket16_got(*tok);
	default:
		*tok = 0;
		return 1;
	}
}

/* lb_wait - after an lb_take() that did not get the lock: wait for it. */
static inline void lb_wait(enum lb_lock_kind kind, union lb_anylock *l,
			   lb_u32 tok)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_wait(&l->legacy); break;
	case LB_TICKET8:	lb_ticket8_wait(&l->ticket8, (lb_u16)tok); break;
	case LB_TICKET16:	lb_ticket16_wait(&l->ticket16, tok); break;
	default:		break;
	}
}

/* The ticket in a token from lb_take() (ticket locks), 0 otherwise. */
static inline lb_u32 lb_ticket(enum lb_lock_kind kind, lb_u32 tok)
{
	switch (kind) {
	case LB_TICKET8:	return (tok >> 8) & 0xff;
	case LB_TICKET16:	return tok >> 16;
	default:		return 0;
	}
}

/* Bits in a ticket (ticket locks), 0 otherwise. */
static inline lb_u32 lb_ticket_bits(enum lb_lock_kind kind)
{
	switch (kind) {
	case LB_TICKET8:	return 8;
	case LB_TICKET16:	return 16;
	default:		return 0;
	}
}

static inline int lb_trylock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		return lb_legacy_trylock(&l->legacy);
	case LB_TICKET8:	return lb_ticket8_trylock(&l->ticket8);
	case LB_TICKET16:	return lb_ticket16_trylock(&l->ticket16);
	default:		return 0;
	}
}

static inline void lb_unlock(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		lb_legacy_unlock(&l->legacy); break;
	case LB_TICKET8:	lb_ticket8_unlock(&l->ticket8); break;
	case LB_TICKET16:	lb_ticket16_unlock(&l->ticket16); break;
	default:		break;
	}
}

static inline int lb_is_locked(enum lb_lock_kind kind, union lb_anylock *l)
{
	switch (kind) {
	case LB_LEGACY:		return lb_legacy_is_locked(&l->legacy);
	case LB_TICKET8:	return lb_ticket8_is_locked(&l->ticket8);
	case LB_TICKET16:	return lb_ticket16_is_locked(&l->ticket16);
	default:		return 0;
	}
}

#endif /* LB_LOCKS_H */
