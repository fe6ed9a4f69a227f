/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ticketpb.h - a FIFO ticket lock with proportional backoff: the ticket
 * lock of Mellor-Crummey and Scott ("Algorithms for Scalable
 * Synchronization on Shared-Memory Multiprocessors", ACM TOCS 9(1), 1991,
 * algorithm 2), in which a waiter that sees N waiters ahead of it (the
 * owner not counted) pauses N times LB_TICKETPB_DELAY before it looks
 * again.  Fewer waiters read the lock's line at each handoff, so the next
 * owner's read competes with fewer others; the next in line (N = 0) spins
 * without pausing, so a handoff costs what the plain ticket lock's does,
 * but a waiter further back may be pausing when its turn comes (the
 * paper counts the owner too, which delays every handoff).  It is in this lab to show how a lock is
 * added (docs/adding-a-lock.md): this header and one line in locks.h.
 *
 * The word: 16-bit tickets, head (now serving) in the low half, tail
 * (next ticket) in the high half, so one xadd of 1 << 16 takes a ticket
 * and returns the head to compare with.  At most 65535 CPUs.
 *
 * Memory ordering (x86 TSO, as the legacy lock in locks.h): the xadd that
 * takes a ticket is a LOCKed read-modify-write, a full barrier, and so is
 * the cmpxchg of trylock; a waiter that sees its ticket in head with a
 * plain load owns the lock, and since loads are not reordered with later
 * loads or stores, nothing of its critical section moves above that load.
 * The unlock is a plain 16-bit add on head by its only writer, the owner:
 * stores are not reordered with older loads and stores, so it is a
 * release.  The compiler: every asm has a "memory" clobber, and the wait
 * ends with an empty asm with one, so that no access of the critical
 * section is moved above the volatile load that saw our turn (a volatile
 * load alone does not stop the compiler from hoisting plain ones).
 */
#ifndef LB_TICKETPB_H
#define LB_TICKETPB_H

/* PAUSEs per place between a waiter and the head. */
#define LB_TICKETPB_DELAY	16

struct lb_ticketpb {
	union {
		lb_u32 word;
		struct {
			lb_u16 head;	/* now serving */
			lb_u16 tail;	/* next ticket */
		};
	};
};

static inline void lb_ticketpb_init(struct lb_ticketpb *l)
{
	*(volatile lb_u32 *)&l->word = 0;
}

/* The xadd: *tok is the word before it, its high half our ticket. */
static inline int lb_ticketpb_take(struct lb_ticketpb *l, lb_u32 *tok)
{
	lb_u32 old = 1U << 16;

	__asm__ __volatile__("lock; xaddl %0, %1"
			     : "+r" (old), "+m" (l->word) : : "memory", "cc");
	*tok = old;
	return (lb_u16)old == (lb_u16)(old >> 16);
}

static inline void lb_ticketpb_wait(struct lb_ticketpb *l, lb_u32 tok)
{
	const lb_u16 me = (lb_u16)(tok >> 16);

	for (;;) {
		lb_u16 head = *(volatile lb_u16 *)&l->head;
		lb_u32 n;

		if (head == me)
			break;
		/* waiters ahead of us, the owner not counted */
		n = ((lb_u16)(me - head) - 1) * LB_TICKETPB_DELAY;
		do
			__asm__ __volatile__("rep; nop" : : : "memory");
		while (n--);
	}
	__asm__ __volatile__("" : : : "memory");	/* acquire, for the compiler */
}

static inline void lb_ticketpb_lock(struct lb_ticketpb *l)
{
	lb_u32 tok;

	if (!lb_ticketpb_take(l, &tok))
		lb_ticketpb_wait(l, tok);
}

/* Only a free lock (head == tail) is taken: cmpxchg tail + 1 into it. */
static inline int lb_ticketpb_trylock(struct lb_ticketpb *l)
{
	lb_u32 old = *(volatile lb_u32 *)&l->word;
	lb_u32 prev;

	if ((lb_u16)old != (lb_u16)(old >> 16))
		return 0;
	__asm__ __volatile__("lock; cmpxchgl %2, %1"
			     : "=a" (prev), "+m" (l->word)
			     : "r" (old + (1U << 16)), "0" (old)
			     : "memory", "cc");
	return prev == old;
}

static inline void lb_ticketpb_unlock(struct lb_ticketpb *l)
{
	__asm__ __volatile__("addw $1, %0" : "+m" (l->head) : : "memory", "cc");
}

static inline int lb_ticketpb_is_locked(struct lb_ticketpb *l)
{
	lb_u32 w = *(volatile lb_u32 *)&l->word;

	return (lb_u16)w != (lb_u16)(w >> 16);
}

static inline int lb_ticketpb_is_contended(struct lb_ticketpb *l)
{
	lb_u32 w = *(volatile lb_u32 *)&l->word;

	return (lb_u16)((w >> 16) - w) > 1;
}

static inline lb_u32 lb_ticketpb_ticket(lb_u32 tok)
{
	return tok >> 16;
}

static inline lb_u32 lb_ticketpb_ticket_bits(void)
{
	return 16;
}

static inline lb_u32 lb_ticketpb_max_cpus(void)
{
	return 65535;
}

#endif /* LB_TICKETPB_H */
