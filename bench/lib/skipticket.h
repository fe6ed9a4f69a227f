/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skipticket.h - a ticket spinlock that skips a preempted waiter: FIFO
 * while its waiters run, and no collapse when the next one in line is a
 * vCPU the host is not running (lock-waiter preemption).
 *
 * PROTOTYPE for issue 9: written against the kernel's API (linux/atomic.h,
 * cpu_relax(), rdtsc()) so that it can become
 * arch/x86/include/asm/skipticket_spinlock.h unchanged; until then the
 * bench's tools use it through the shims in shim/ (skt_* names).
 *
 * Lock word, 32 bits (the size lockref, BPF and HPET rely on):
 *
 *   bits  0-14  head   the ticket allowed to claim the lock next
 *   bit   15    taken  set while a CPU holds the lock
 *   bits 16-31  tail   the next ticket; counted modulo 2^15 like head
 *                      (the xadd's carry out of bit 31 is lost, and 2^16
 *                      is a multiple of 2^15)
 *
 * Tickets count modulo 2^15: a CPU holds at most one ticket of a lock, so
 * [head, tail) never wraps with fewer than 32768 CPUs (SKT_MAX_CPUS; x86
 * allows 8192). A waiter skipped while preempted holds a stale ticket;
 * it queues again when it finds it outside [head, tail). Should it stay
 * away while 2^15 - (waiters) more tickets are handed out, its stale
 * number can fall inside [head, tail) again and alias a live ticket: the
 * two then race for that ticket's claim, exclusion still holds (the claim
 * is a cmpxchg), and the loser queues again: one bypass. model/
 * skipticket.pml shows this with small counters; 15 bits make it need a
 * preemption of 32768 lock handoffs.
 *
 * A ticket lock grants the lock by advancing head: the waiter holding that
 * ticket owns it at once, whether it runs or not. Here a grant is only an
 * offer: the holder of ticket head must *claim* the lock, with a cmpxchg of
 * (head, taken) from (my, 0) to (my, 1). While it runs it does so within
 * microseconds. If the lock stays free and unclaimed with the same head for
 * longer than skt_patience TSC cycles, the holder of that ticket is taken
 * to be preempted, and any other waiter may *skip* it: a cmpxchg of (head,
 * taken) from (h, 0) to (h + 1, 0), which offers the lock to the next
 * ticket. A skipped waiter, when it runs again, sees its ticket fall
 * outside [head, tail) and takes a new ticket at the back of the queue.
 * Every ticket ends in exactly one head advance (its holder's unlock, or
 * one skip), so head and tail stay consistent.
 *
 * Compared with Ouyang and Lange's preemptable ticket lock (VEE 2013, where
 * a timed-out waiter takes a test-and-set byte, so ticket order is only a
 * hint and timed-out waiters race), exclusion here comes from the claim and
 * the order stays FIFO: the only way past a waiter is to skip it, which
 * needs it to leave the lock unclaimed for the whole patience, and a
 * skipped waiter queues again instead of racing. Patience is time, not a
 * spin count (a spin costs 100x more under TCG than on hardware), like the
 * time-published queue locks of He, Scherer and Scott (HiPC 2005), whose
 * releaser skips waiters with stale time stamps; here the skipping is done
 * by the waiters behind, and no time stamp is published.
 *
 * Memory ordering (x86 TSO): the claim's and the fast path's LOCKed
 * cmpxchg is a full barrier (acquire); unlock is one plain 16-bit store of
 * (head + 1, taken = 0), a release. Only the owner writes head and taken
 * while taken is 1 (a claim needs taken == 0 and a skip too), and the
 * LOCKed xadd of tail and any cmpxchg write head and taken back as they
 * read them, so the owner's plain store is never lost.
 */
#ifndef SKIPTICKET_H
#define SKIPTICKET_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/processor.h>
#include <linux/types.h>
#include <asm/cmpxchg.h>
#include <asm/msr.h>

#define SKT_MAX_CPUS	32767
#define SKT_MASK	0x7fffU

typedef struct skt_lock {
	union {
		u32 slock;
		struct {
			u16 head_taken;	/* head | taken << 15 */
			u16 tail;
		};
	};
} skt_lock_t;

#define SKT_TAKEN	(1U << 15)
#define SKT_TAIL_INC	(1U << 16)
#define SKT_HEAD(v)	((u16)((v) & SKT_MASK))
#define SKT_TAIL(v)	((u16)(((v) >> 16) & SKT_MASK))
#define SKT_IS_TAKEN(v)	(((v) & SKT_TAKEN) != 0)
#define SKT_DIST(a, b)	((u16)(((a) - (b)) & SKT_MASK))	/* a - b, mod 2^15 */

/* TSC cycles a free lock may stay unclaimed before its head is skipped. */
extern u64 skt_patience;
#ifndef __KERNEL__
u64 skt_set_patience_us(u64 us);	/* lib/skipticket.c */
#endif

static __always_inline void skt_init(skt_lock_t *lock)
{
	WRITE_ONCE(lock->slock, 0);
}

/* Free: nobody holds it and no ticket is out. */
static __always_inline bool skt_value_unlocked(u32 v)
{
	return SKT_HEAD(v) == SKT_TAIL(v) && !SKT_IS_TAKEN(v);
}

/*
 * The first attempt: a free lock is taken with one cmpxchg that takes the
 * next ticket and claims it at once (the uncontended cost of a trylock);
 * otherwise one xadd takes a ticket, the waiter's place in line. Returns
 * true if the lock is ours, else false; *ticket is the ticket taken (the
 * one to wait for).
 */
static __always_inline bool skt_take(skt_lock_t *lock, u16 *ticket)
{
	u32 v = READ_ONCE(lock->slock);

	if (likely(skt_value_unlocked(v)) &&
	    likely(try_cmpxchg(&lock->slock, &v, v + SKT_TAIL_INC + SKT_TAKEN))) {
		*ticket = SKT_TAIL(v);
		return true;
	}
	*ticket = SKT_TAIL(xadd(&lock->slock, SKT_TAIL_INC));
	return false;
}

/*
 * Wait for the lock with @ticket: claim it when head offers it, skip a head
 * that stays unclaimed for skt_patience, queue again when skipped.
 */
static __always_inline void skt_wait(skt_lock_t *lock, u16 ticket)
{
	u64 since = 0;
	u16 seen = 0;

	for (;;) {
		u32 v = READ_ONCE(lock->slock);
		u16 head = SKT_HEAD(v);
		u16 ht = (u16)v;

		if (head == ticket) {
			/* Offered: claim it. Acquire: the LOCKed cmpxchg. */
			if (!SKT_IS_TAKEN(v) &&
			    try_cmpxchg(&lock->head_taken, &ht, ht | SKT_TAKEN))
				return;
		} else if (SKT_DIST(ticket, head) >= SKT_DIST(SKT_TAIL(v), head)) {
			/* Skipped while away: queue again, at the back. */
			ticket = SKT_TAIL(xadd(&lock->slock, SKT_TAIL_INC));
			since = 0;
			continue;
		} else if (!SKT_IS_TAKEN(v)) {
			/* Free but unclaimed: skip its head after patience. */
			u64 now = rdtsc();

			if (!since || head != seen) {
				since = now;
				seen = head;
			} else if (now - since > skt_patience &&
				   try_cmpxchg(&lock->head_taken, &ht,
					       (u16)((head + 1) & SKT_MASK))) {
				since = 0;
			}
		} else {
			since = 0;
		}
		cpu_relax();
	}
}

static __always_inline void skt_lock(skt_lock_t *lock)
{
	u16 ticket;

	if (!skt_take(lock, &ticket))
		skt_wait(lock, ticket);
}

static __always_inline bool skt_trylock(skt_lock_t *lock)
{
	u32 v = READ_ONCE(lock->slock);

	return skt_value_unlocked(v) &&
	       try_cmpxchg(&lock->slock, &v, v + SKT_TAIL_INC + SKT_TAKEN);
}

/* Offer the lock to the next ticket and drop taken, in one 16-bit store. */
static __always_inline void skt_unlock(skt_lock_t *lock)
{
	u16 head = SKT_HEAD(READ_ONCE(lock->slock));

	smp_store_release(&lock->head_taken, (u16)((head + 1) & SKT_MASK));
}

static __always_inline bool skt_is_locked(skt_lock_t *lock)
{
	return !skt_value_unlocked(READ_ONCE(lock->slock));
}

/* Contended: held or offered, and another ticket is out. */
static __always_inline bool skt_is_contended(skt_lock_t *lock)
{
	u32 v = READ_ONCE(lock->slock);

	return SKT_DIST(SKT_TAIL(v), SKT_HEAD(v)) > 1;
}

#endif /* SKIPTICKET_H */
