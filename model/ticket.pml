/*
 * ticket.pml -- Promela model of the x86 FIFO ticket spinlock
 * (Nick Piggin, 2008: "x86: FIFO ticket spinlocks"), as ported to 6.12
 * in arch/x86/include/asm/ticket_spinlock.h.
 *
 * K = bits per ticket counter, P = number of CPUs (processes):
 *
 *   spin -DK=2 -DP=3 -a ticket.pml
 *   gcc -O2 -DSAFETY -DNOCLAIM -o pan pan.c && ./pan      # safety
 *   gcc -O2 -o pan pan.c && ./pan -a -f                   # liveness
 *   spin -t -p -DK=2 -DP=4 ticket.pml                     # replay a trail
 *
 * (model/check.sh does all of this.)  The kernel needs NR_CPUS < 2^K;
 * the model verifies for P < 2^K and has counterexamples for P >= 2^K.
 *
 * The lock word is two K-bit counters:
 *
 *      +------------------+------------------+
 *      | tail (high half) | head (low half)  |
 *      | "next ticket"    | "now serving"    |
 *      +------------------+------------------+
 *
 * Each half is a variable of its own and every update is reduced modulo
 * 2^K, which is what the kernel gets from its operand sizes: the carry out
 * of tail falls off the top of the word, and "incb head" never carries
 * into tail.
 *
 * Kernel code and the model:
 *
 *  arch_spin_lock()     old = xadd(&head_tail, 1 << TICKET_SHIFT);
 *                       my ticket = old.tail; done if old.head == my;
 *                       else spin while smp_load_acquire(&head) != my
 *     spin_lock():      ONE atomic step reads the word and increments
 *                       tail (mod 2^K); then a guard that blocks until
 *                       head == my.  Each spin iteration is a plain load
 *                       of head and a failing test changes nothing, so
 *                       blocking is equivalent to spinning.
 *  arch_spin_unlock()   "incb head" ("incw" for 16-bit tickets), no LOCK
 *     spin_unlock():    plain load of head, then plain store of head + 1
 *                       (mod 2^K): two steps.  Only the owner writes head,
 *                       and xadd/cmpxchg write head back unchanged, so
 *                       modelling them as writing only tail is exact.
 *  arch_spin_trylock()  old = READ_ONCE(head_tail); fail if head != tail;
 *                       try_cmpxchg(&head_tail, &old, old + TAIL_INC)
 *     spin_trylock():   one step reads the word and fails if head != tail;
 *                       then one atomic cmpxchg that succeeds only if the
 *                       word still equals what was read.
 *  arch_spin_is_locked()     IS_LOCKED:    head != tail
 *  arch_spin_is_contended()  IS_CONTENDED: (tail - head) mod 2^K > 1
 *
 * Options (spin -D...):
 *
 *  -DMERGED_TRYLOCK  trylock's read and cmpxchg become one atomic step.
 *     A state-space reduction, used by check.sh only where the two-step
 *     version is too big to search exhaustively (K=3, P>=6): the stale
 *     value `seen` held between the two steps multiplies the states by
 *     about (2^K + 1)^P.  On shared and ghost state both versions have the
 *     same behaviours up to stuttering: the read only records `seen`; the
 *     cmpxchg then either fails (no shared effect, like a failed one-step
 *     trylock) or succeeds because the word is (seen, seen), i.e.
 *     head == tail at that instant, which is exactly when a one-step
 *     trylock at that instant succeeds, with the same effect.  README.md
 *     shows that the two versions agree wherever both fit.
 *  -DNO_IS_LOCKED_CHECKS  drop the is_locked/is_contended assertions, and
 *  -DNO_FIFO_CHECK        drop the FIFO assertion, to see what happens to
 *     mutual exclusion alone when P >= 2^K.
 */

#ifndef K
#define K 2
#endif
#ifndef P
#define P 3
#endif

#define N (1 << K)                          /* counters count modulo N */

#define IS_LOCKED     (head != tail)
#define IS_CONTENDED  (((tail + N - head) % N) > 1)

/* ---------------------------------------------------------------- */
/* The real shared state: the lock word.                             */
/* ---------------------------------------------------------------- */
byte head = 0;                              /* now serving (low half)  */
byte tail = 0;                              /* next ticket (high half) */

/* ---------------------------------------------------------------- */
/* Ghost state: read only by assertions and the LTL property, never  */
/* by the algorithm.  It is updated in the same atomic step as the   */
/* real operation it describes.                                      */
/* ---------------------------------------------------------------- */
byte owners = 0;        /* CPUs that hold the lock (granted, not yet
                           past the unlock store)                      */
byte queued = 0;        /* tickets taken by lock() but not yet granted */
bool waiting[P];        /* waiting[i]: CPU i has a ticket from lock()
                           and has not been granted the lock yet       */
/*
 * gseq[i]: ghost sequence number of CPU i's outstanding lock() ticket:
 * conceptually a global counter handed out at the xadd step.  To keep
 * the state space finite it is stored relative to the oldest outstanding
 * ticket: each grant subtracts one from every waiter's number.  So
 * "I hold the oldest outstanding ticket" is gseq[i] == 0, and the
 * absolute number would be gseq[i] + (grants so far).
 */
byte gseq[P];

/* ---------------------------------------------------------------- */
/* Invariants over the lock word and the ghost state.  Every step    */
/* that writes shared or ghost state ends with check(), so they are  */
/* checked in every reachable state, in particular in every state    */
/* in which some CPU is inside its critical section.                 */
/* ---------------------------------------------------------------- */
inline check()
{
	/* mutual exclusion: never two owners */
	assert(owners <= 1);
#ifndef NO_IS_LOCKED_CHECKS
	/* arch_spin_is_locked() must be true while someone holds the lock */
	assert(owners == 0 || IS_LOCKED);
	/* arch_spin_is_contended() must say whether anyone waits in lock() */
	assert(owners == 0 || IS_CONTENDED == (queued > 0))
#endif
}

/* ---------------------------------------------------------------- */
/* spin_lock(): take a ticket, wait until it is served.              */
/* ---------------------------------------------------------------- */
inline spin_lock()
{
	/*
	 * xadd (lock xadd): ONE atomic read-modify-write of the whole
	 * word.  Our ticket is the old tail; tail goes up by one and the
	 * carry out of tail is lost.  If the old head equals our ticket the
	 * wait below succeeds at once, like the kernel's fast path.
	 * Ghost: take the next sequence number, join the queue.
	 */
	atomic {
		my = tail;
		tail = (tail + 1) % N;
		gseq[_pid] = queued;
		queued++;
		waiting[_pid] = true;
		printf("cpu%d lock:    xadd takes ticket %d    -> head %d tail %d\n",
		       _pid, my, head, tail);
		check()
	};
	/*
	 * while (smp_load_acquire(&head) != my) cpu_relax();
	 * Blocks until head == my.  The grant (the load that sees our
	 * ticket) and the ghost bookkeeping are one step.
	 */
	atomic {
		head == my ->
		printf("cpu%d lock:    head == ticket %d, granted -> head %d tail %d\n",
		       _pid, my, head, tail);
#ifndef NO_FIFO_CHECK
		assert(gseq[_pid] == 0);            /* FIFO: oldest ticket first */
#endif
		waiting[_pid] = false;
		queued--;
		for (i : 0 .. P - 1) {              /* renumber the waiters      */
			if
			:: waiting[i] -> gseq[i]--
			:: else -> skip
			fi
		};
		i = 0;
		my = 0;                             /* ticket no longer needed   */
		owners++;
		check()
	}
}

/* ---------------------------------------------------------------- */
/* spin_trylock(): on failure go back to label `again` in cpu().    */
/* ---------------------------------------------------------------- */
inline spin_trylock()
{
#ifndef MERGED_TRYLOCK
	/* old = READ_ONCE(head_tail): one plain read of the whole word */
	atomic {
		seen = head;
		if
		:: seen != tail ->                  /* held: fail */
			printf("cpu%d trylock: reads head %d tail %d, fails\n",
			       _pid, head, tail);
			seen = 0;
			goto again
		:: else ->
			printf("cpu%d trylock: reads head %d tail %d: free\n",
			       _pid, head, tail)
		fi
	};
	/*
	 * try_cmpxchg (lock cmpxchg): succeeds only if the word is still
	 * (tail = seen, head = seen); it then becomes (seen + 1, seen).
	 * Between the read and here other CPUs may have changed the word,
	 * and even changed it back: that is why `seen` is kept.
	 */
	atomic {
		if
		:: head == seen && tail == seen ->
			tail = (seen + 1) % N;
			printf("cpu%d trylock: cmpxchg succeeds       -> head %d tail %d\n",
			       _pid, head, tail);
			seen = 0;
			owners++;
			check()
		:: else ->                          /* word changed: fail */
			printf("cpu%d trylock: cmpxchg fails (head %d tail %d)\n",
			       _pid, head, tail);
			seen = 0;
			goto again
		fi
	}
#else
	/* read and cmpxchg as one step (see the comment at the top) */
	atomic {
		if
		:: head == tail ->
			tail = (tail + 1) % N;
			printf("cpu%d trylock: succeeds               -> head %d tail %d\n",
			       _pid, head, tail);
			owners++;
			check()
		:: else ->
			printf("cpu%d trylock: head %d tail %d, fails\n",
			       _pid, head, tail);
			goto again
		fi
	}
#endif
}

/* ---------------------------------------------------------------- */
/* spin_unlock(): "incb head" without LOCK prefix: load, then store. */
/* Only the owner writes head; concurrent xadds only change tail.     */
/* ---------------------------------------------------------------- */
inline spin_unlock()
{
	h = head;                               /* plain load of head  */
	atomic {
		head = (h + 1) % N;                 /* plain store of head */
		printf("cpu%d unlock:  head %d -> %d               -> head %d tail %d\n",
		       _pid, h, head, head, tail);
		h = 0;
		owners--;
		check()
	}
}

/* ---------------------------------------------------------------- */
/* A CPU: forever lock or trylock, critical section, unlock.         */
/* ---------------------------------------------------------------- */
active [P] proctype cpu()
{
	byte my;            /* lock(): my ticket                        */
	byte seen;          /* trylock(): head (== tail) as read        */
	byte h;             /* unlock(): head as loaded                 */
	byte i;             /* loop index for the ghost renumbering     */

again:
	if
	:: spin_lock()
	:: spin_trylock()           /* on failure: go round again */
	fi;
	/*
	 * Critical section: we own the lock from the grant until the store
	 * in spin_unlock().  check() runs after every step of every CPU,
	 * so the properties are checked in all states in which we are here.
	 */
	spin_unlock();
	goto again
}

/*
 * Starvation freedom: a CPU that has taken a ticket in lock() eventually
 * gets the lock.  All CPUs run the same code from the same initial
 * state, so by symmetry it is enough to state it for CPU 0.  It needs
 * weak fairness (pan -a -f); without it the scheduler could simply never
 * run the owner again.  A CPU that keeps retrying trylock may starve:
 * that is the documented semantics of trylock and is not claimed here.
 */
ltl starvation_free { [] (waiting[0] -> <> !waiting[0]) }
