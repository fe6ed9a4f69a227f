/*
 * skipticket.pml -- Promela model of the skip-ticket lock of issue 9, the
 * series' arch/x86/include/asm/skipticket_spinlock.h: __ticket_spin_take(),
 * __ticket_spin_wait() (the slow path), arch_spin_trylock() and
 * arch_spin_unlock(); the bench calls them skt_take(), skt_slowpath() and
 * skt_unlock() (lib/series.h).
 *
 *   spin -DK=3 -DP=3 -DNO_WRAP_AWAY -a skipticket.pml
 *   gcc -O2 -DSAFETY -DNOCLAIM -o pan pan.c && ./pan   # safety, bypass bound
 *   gcc -O2 -o pan pan.c && ./pan -a -f                 # starvation freedom
 *
 * (model/skipticket.sh does all of this.)
 *
 * The lock word (asm/skipticket_spinlock_types.h), a byte per field:
 * head (bits 0-7), waiting (bits 8-15, registered waiters), tail (bits
 * 24-31); here three variables, each counting modulo N = 2^K (K-bit
 * counters; 8 bits in the code). busy = (tail - head - waiting) mod N: the
 * tickets out that are not registered waiters, i.e. the holder and the
 * CPUs between their xadd and their registration ("in transit"). Code and
 * model, one atomic step per LOCKed instruction or plain access of the
 * lock word:
 *
 *  take         __ticket_spin_take(): val = xadd(&slock, TICKET_TAIL_INC):
 *                my = tail, tail + 1; if old head == my the lock was free
 *                and is ours (the fast path)             -> one step;
 *                else atomic_add(TICKET_WAITER): waiting + 1, a second
 *                step: in between the CPU is in transit and counts as
 *                busy (ghost transit), and it may be preempted there.
 *  wait         __ticket_spin_wait(): each iteration reads the word once
 *                and then, in the same step here (a cmpxchg succeeds
 *                only if the word is unchanged, so a read followed by a
 *                successful cmpxchg is one atomic decision, and a failed
 *                one changes nothing), does one of:
 *                  (my - head) mod N >= (tail - head) mod N: skipped:
 *                    take again: the xadd (and the registration) are the
 *                    next steps, as in take (the read only decides; the
 *                    xadd does not depend on what it read);
 *                  busy != 0: held, or a CPU in transit: spin on;
 *                  head == my: claim, try_cmpxchg(val, val - TICKET_WAITER):
 *                    waiting - 1, we hold the lock;
 *                  else offered to another ticket, unclaimed: after the
 *                    patience skip, try_cmpxchg(val, __ticket_skip(val)):
 *                    head + 1, waiting - 1.
 *  trylock      arch_spin_trylock(): READ_ONCE, then if head == tail
 *                cmpxchg tail + 1. Read and cmpxchg are one decision (the
 *                argument of ticket.pml's MERGED_TRYLOCK): a success is
 *                exactly take's fast-path step (head == tail -> tail + 1,
 *                held; my is not used after a grant), a failure changes
 *                nothing, so take's fast path models it.
 *  unlock       arch_spin_unlock(): incb head, not LOCKed: the holder
 *                reads head, then stores head + 1 into the head byte
 *                only: two steps; the store writes head alone, so the
 *                LOCKed read-modify-writes of waiting and tail by other
 *                CPUs in between are kept, as the byte store keeps them.
 *
 * Patience. The code skips a head that stays offered and unclaimed for
 * the patience (skipticket_patience TSC cycles, or 256 of them in a calm
 * guest); a running waiter claims within far less. The model has no
 * clock: a waiter may be preempted (ghost preempted[i]) while it waits and
 * while it is in transit (a preempted CPU in transit makes the lock look
 * busy, as a preempted holder does); a holder is not preempted
 * (lock-holder preemption stalls every lock and is not what this lock is
 * about). The skip is enabled unless a running waiter holds ticket head:
 * that is the assumption "patience is longer than a running waiter takes
 * to claim"; an offer (busy == 0) whose ticket no running waiter holds may
 * always be skipped, as the code would after its patience.
 * -DSHORT_PATIENCE drops the assumption: any offer may be skipped, as when
 * the patience is too short.
 *
 * Mutants (spin must find two owners; the count checks below are off for
 * them, so that what spin reports is the consequence):
 *  -DMUTANT_CLAIM       a claim that sets nothing, cmpxchg(val, val):
 *                       waiting is not decremented, the holder still counts
 *                       as a registered waiter, busy stays 0, and the
 *                       offer behind it is skipped and claimed;
 *  -DMUTANT_SKIP        a skip that ignores busy: a held head is skipped;
 *  -DMUTANT_CLAIM_BUSY  a claim that ignores busy (head == my only). It
 *                       verifies with -DNO_WRAP_AWAY (while tickets are
 *                       unique, head == my means nobody holds the lock)
 *                       and breaks exclusion once the counters may wrap
 *                       while a skipped waiter is away: its stale ticket
 *                       equals head while the live holder of that ticket
 *                       holds the lock.
 *
 * Properties (checked in every reachable state, or at the grant):
 *  - mutual exclusion: at most one owner;
 *  - the counts, what exclusion rests on (not tickets being unique):
 *    busy == owners + CPUs in transit, at most P tickets out (the types
 *    header's "tail - head never exceeds NR_CPUS"), and nobody writes
 *    head between the unlock's load and store (its incb is not torn);
 *    -DNO_COUNT_CHECK drops these;
 *  - no deadlock (no invalid end state: pan's default);
 *  - FIFO while nobody has been skipped: a claim goes to the oldest
 *    arrival among the waiters, a fast-path grant to a CPU when nobody
 *    waits;
 *  - bounded bypass: CPU 0 is never preempted; while it waits, at most
 *    B = 0 grants go to CPUs that arrived after it (the bench's
 *    definition: arrival = the first atomic attempt of that acquisition).
 *    With -DSHORT_PATIENCE spin finds the counterexample: CPU 0 skipped
 *    while running, overtaken by a later arrival. Without -DNO_WRAP_AWAY
 *    it finds the other one: a waiter skipped while preempted stays away
 *    until the counters wrap, its stale ticket equals CPU 0's live one
 *    when that is head, it claims in CPU 0's place (busy == 0: exclusion
 *    holds), and CPU 0, finding itself outside [head, tail), queues again
 *    behind a later arrival. B = 0 needs both assumptions. -DNO_BYPASS_CHECK
 *    drops the bound, to check all the rest without the assumptions;
 *  - starvation freedom for CPU 0 (LTL, weak fairness, finitely many
 *    preemptions: -DMAXPRE), under both assumptions. Without
 *    -DNO_WRAP_AWAY it fails; the cycle spin reports is a schedule that
 *    weak fairness allows and a spinning CPU does not follow: waiters
 *    whose stale tickets went round read the word only at the moments
 *    when their number is head and held, and never see that they were
 *    skipped, while a third CPU takes the free lock again and again.
 */

#ifndef K
#define K 3
#endif
#ifndef P
#define P 3
#endif
#ifndef B
#define B 0
#endif
#if defined(MUTANT_CLAIM) || defined(MUTANT_SKIP) || defined(MUTANT_CLAIM_BUSY)
#define NO_COUNT_CHECK
#endif

#define N (1 << K)
#define QUEUED     ((tail + N - head) % N)                 /* tickets out */
#define BUSY       ((tail + 2 * N - head - waiting) % N)
#define SKIPPED(t) (((t) + N - head) % N >= QUEUED)

/* the lock word */
byte head = 0;
byte waiting = 0;
byte tail = 0;

/* ghost */
byte owners = 0;
byte transit = 0;       /* CPUs between their xadd and their registration */
bool wants[P];          /* in lock(): took a ticket, not granted */
bool preempted[P];      /* not running: takes no step */
byte ticket[P];         /* the ticket a waiter holds (N: skipped) */
byte gseq[P];           /* arrival order among the waiters (0 = oldest) */
byte nwait = 0;         /* CPUs with wants[i] */
bool skipped_ever = false;
bool after0[P];         /* arrived while CPU 0 was waiting */
byte bypass0 = 0;       /* grants to such CPUs while CPU 0 waits */

/*
 * -DMAXPRE=M (liveness runs): at most M preemptions in all. Without a
 * bound, weak fairness lets a CPU be preempted and resumed forever at
 * exactly the moments that keep it from registering (the lock looks busy
 * for ever) or the others from skipping it, which the patience (a
 * preemption must last longer than it to matter) rules out.
 */
#ifndef MAXPRE
#define MAXPRE 255
#endif
byte npre = 0;

/*
 * -DNO_WRAP_AWAY: a skipped waiter comes back before its stale ticket
 * number can equal a live one: before the counters wrap round to it (the
 * code's 8-bit counters: at least 256 - NR_CPUS more tickets). Modelled
 * by letting nobody else take a ticket (xadd) while tail equals a skipped
 * waiter's old ticket: the next xadd would hand out that number again.
 * Two skipped waiters' old tickets differ (both lie in the N tickets
 * before tail), so at most one waiter blocks at a time, and it may run.
 */
#ifdef NO_WRAP_AWAY
byte stale[P];          /* 1 + the old ticket of a skipped waiter; 0: none */
byte blocker = P;       /* the skipped waiter i with stale[i] == tail + 1 */
#define ADVANCE_OK (blocker == P || blocker == _pid)
#else
#define ADVANCE_OK true
#endif

inline check()
{
	assert(owners <= 1);
#ifndef NO_COUNT_CHECK
	assert(BUSY == owners + transit && QUEUED <= P);
#endif
#ifndef NO_BYPASS_CHECK
	assert(bypass0 <= B);
#endif
	skip
}

/* tail + 1: is a skipped waiter's old ticket next? */
inline advance_tail()
{
	tail = (tail + 1) % N;
#ifdef NO_WRAP_AWAY
	for (i : 0 .. P - 1) {
		if
		:: stale[i] == tail + 1 -> blocker = i
		:: else -> skip
		fi
	};
	i = 0;
#endif
	skip
}

/* this CPU is no longer a skipped waiter */
inline forget_skip()
{
#ifdef NO_WRAP_AWAY
	stale[_pid] = 0;
	if
	:: blocker == _pid -> blocker = P
	:: else -> skip
	fi;
#endif
	skip
}

/* xadd: my = tail, tail + 1 (a live ticket) */
inline xadd()
{
	forget_skip();
	my = tail;
	ticket[_pid] = my;
	advance_tail()
}

/* after0[j]: j's current acquisition began after CPU 0's current one */
inline arrive()
{
	if
	:: _pid == 0 ->
		for (i : 1 .. P - 1) { after0[i] = false };
		i = 0
	:: _pid != 0 && wants[0] -> after0[_pid] = true
	:: else -> after0[_pid] = false
	fi
}

/* this CPU starts to wait: the youngest waiter */
inline enqueue()
{
	wants[_pid] = true;
	gseq[_pid] = nwait;
	nwait++
}

/* this CPU, waiting, is granted the lock */
inline dequeue()
{
	wants[_pid] = false;
	nwait--;
	for (i : 0 .. P - 1) {
		if
		:: wants[i] && gseq[i] > gseq[_pid] -> gseq[i]--
		:: else -> skip
		fi
	};
	i = 0;
	gseq[_pid] = 0
}

inline granted()
{
	if
	:: _pid != 0 && wants[0] && after0[_pid] -> bypass0++
	:: else -> skip
	fi;
	forget_skip();
	ticket[_pid] = 0;
	my = 0;
	owners++
}

/*
 * v: the waiter holding ticket head (P if none). A skipped waiter's
 * ghost ticket is set to N, which no counter value equals, so a stale
 * ticket never looks like head again after the counters wrap.
 */
inline head_holder()
{
	v = P;
	for (i : 0 .. P - 1) {
		if
		:: wants[i] && ticket[i] == head -> v = i
		:: else -> skip
		fi
	};
	i = 0
}

/* __ticket_skip(): head + 1, waiting - 1 */
inline skip_head()
{
	head = (head + 1) % N;
	waiting = (waiting + N - 1) % N;
	if
	:: v < P ->
#ifdef NO_WRAP_AWAY
		stale[v] = ticket[v] + 1;
#endif
		ticket[v] = N
	:: else -> skip
	fi;
	v = 0;
	skipped_ever = true;
	check()
}

active [P] proctype cpu()
{
	byte my;
	byte h;
	byte i;
	byte v;

again:
	/* __ticket_spin_take() (and arch_spin_trylock(), see above): xadd */
	atomic {
		ADVANCE_OK;
		arrive();
		xadd();
		if
		:: head == my ->                      /* it was free: ours */
			assert(skipped_ever || nwait == 0);   /* FIFO */
			granted();
			check();
			goto cs
		:: else ->
			enqueue();
			transit++;
			check()
		fi
	};
reg:
	/* atomic_add(TICKET_WAITER): registered */
	do
	:: atomic {
		!preempted[_pid] ->
		waiting = (waiting + 1) % N;
		transit--;
		check()
	   };
	   break
	:: _pid != 0 && !preempted[_pid] && npre < MAXPRE ->
		preempted[_pid] = true;                                  /* host takes the vCPU */
#if MAXPRE < 255
		npre++
#else
		skip
#endif
	:: preempted[_pid] -> preempted[_pid] = false                  /* and gives it back */
	od;
	/* __ticket_spin_wait() */
	do
	:: atomic {
		!preempted[_pid] ->
		if
		:: SKIPPED(my) -> goto retake         /* skipped: take again */
		:: !SKIPPED(my) && BUSY != 0 -> skip  /* held or in transit: spin on */
#ifndef MUTANT_CLAIM_BUSY
		:: !SKIPPED(my) && BUSY == 0 && head == my ->   /* claim */
#else
		:: !SKIPPED(my) && head == my ->      /* mutant: a claim that ignores busy */
#endif
#ifndef MUTANT_CLAIM
			waiting = (waiting + N - 1) % N;
#else
			skip;                         /* mutant: a claim that sets nothing */
#endif
			assert(skipped_ever || gseq[_pid] == 0);   /* FIFO */
			dequeue();
			granted();
			check();
			goto cs
#ifndef MUTANT_SKIP
		:: !SKIPPED(my) && BUSY == 0 && head != my ->
#else
		:: !SKIPPED(my) && head != my ->      /* mutant: a skip that ignores busy */
#endif
			head_holder();
#ifdef SHORT_PATIENCE
			skip_head()                       /* patience too short */
#else
			if
			:: v == P || preempted[v] ->
				skip_head()               /* nobody running claims it */
			:: else -> v = 0              /* spin on */
			fi
#endif
		fi
	   }
	:: _pid != 0 && !preempted[_pid] && npre < MAXPRE ->
		preempted[_pid] = true;                                  /* host takes the vCPU */
#if MAXPRE < 255
		npre++
#else
		skip
#endif
	:: preempted[_pid] -> preempted[_pid] = false                  /* and gives it back */
	od;
retake:
	/* __ticket_spin_take() again, from the wait loop: xadd */
	atomic {
		ADVANCE_OK;
		xadd();
		if
		:: head == my ->                      /* it was free: ours */
			dequeue();
			granted();
			check();
			goto cs
		:: else ->
			transit++;
			check()
		fi
	};
	goto reg;
cs:
	/* critical section; arch_spin_unlock(): load head, then store head + 1 */
	h = head;
	atomic {
#ifndef NO_COUNT_CHECK
		assert(head == h);                    /* nobody else wrote head */
#endif
		head = (h + 1) % N;
		h = 0;
		owners--;
		check()
	};
	goto again
}

ltl starvation_free { [] (wants[0] -> <> !wants[0]) }
