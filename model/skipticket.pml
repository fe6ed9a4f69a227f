/*
 * skipticket.pml -- Promela model of the skip-ticket lock of patch 7, the
 * series' arch/x86/include/asm/skipticket_spinlock.h as it is now: lazy
 * (unregistered) waiting next in line, registration by a cmpxchg that is
 * refused once head == ticket, a hurried first arrival and a requeue
 * registered in their own xadd.
 * Modelled: __skipticket_spin_take(), __skipticket_spin_take_hurried(),
 * __skipticket_spin_wait() (__skipticket_lazy(),
 * __skipticket_register(), __skipticket_wait_registered()), skipticket_spin_trylock(),
 * skipticket_spin_unlock(), skipticket_spin_is_locked(), skipticket_spin_is_contended(); the
 * bench calls the first ones skt_take(), skt_slowpath(), skt_unlock().
 *
 *   spin -DK=3 -DP=3 -DNO_WRAP_AWAY -a skipticket.pml
 *   gcc -O2 -DSAFETY -DNOCLAIM -o pan pan.c && ./pan  # safety and deadlock
 *   gcc -O2 -o pan pan.c && ./pan -a                   # starvation freedom
 *   spin -t -DK=3 -DP=3 -DNO_WRAP_AWAY skipticket.pml  # a trail, a line a step
 *
 * (model/skipticket.sh does all of this.)
 *
 * THE WORD. asm/skipticket_spinlock_types.h: head (bits 0-7), waiting
 * (8-15, registered waiters), tail (24-31); here three variables per lock,
 * each counting modulo N = 2^K (8 bits in the code; P < N, as the code
 * needs NR_CPUS < 256). queued = tail - head, busy = queued - waiting (mod
 * N): the tickets out whose CPU is not registered: the holder, a lazy
 * waiter, a CPU in transit between its xadd and its registration.
 *
 * THE STEPS, one atomic step (d_step) per LOCKed instruction or plain
 * access of the word; a read followed by a successful cmpxchg is one step
 * (the cmpxchg succeeds only if the word is unchanged), a failed cmpxchg
 * changes nothing and is no step:
 *
 *  take     __skipticket_spin_take(): xadd tail + 1, my = old tail. Old head
 *           == my: held (fast path). skipticket_spin_trylock() succeeds exactly
 *           where this step does, with the same effect, and fails without
 *           one, so it is not modelled apart. Else the CPU is in transit
 *           (ghost transit + 1) and __skipticket_spin_wait() decides, from the
 *           word before the xadd: lazy if it showed queued == 1, waiting
 *           == 0 and the guest is calm (__skipticket_hurried() reads a hint,
 *           not the word: a nondeterministic choice), else register.
 *  early    __skipticket_spin_take_hurried(), a first arrival in a hurried
 *           guest: its read of the word and, if free, the cmpxchg of tail
 *           + 1 are take's fast path (same effect, not modelled apart);
 *           else, a step later, xadd(SKIPTICKET_TAIL_INC +
 *           SKIPTICKET_WAITER) as requeue's: my = old tail, tail + 1 and
 *           waiting + 1 in one step, registered, never in transit. Enabled
 *           in every state, free or not: the lock may be freed between the
 *           read and the xadd, and is then offered to us, which wait
 *           claims.
 *           With -DMUTANT_EARLY_UNCOUNTED its xadd adds no waiter.
 *  lazy     the lazy loop's smp_load_acquire(): head == my: held, no
 *           write (transit - 1). Or stop waiting lazily (the code: after
 *           SKIPTICKET_LAZY_SPINS spins) and go to register: once a wait.
 *  register __skipticket_register(), its cmpxchg loop as one step: head == my:
 *           refused, held (transit - 1); else waiting + 1 (transit - 1),
 *           registered. With -DMUTANT_REGISTER_AT_HEAD it never refuses.
 *  wait     __skipticket_wait_registered(), an iteration: its read and the
 *           cmpxchg it leads to, as one of:
 *             my outside [head, tail): skipped: go to requeue;
 *             busy != 0: spin (no step: see below);
 *             busy == 0, head == my: claim: waiting - 1, held;
 *             busy == 0, head != my: an offer nobody claims: after the
 *               patience (see below) skip: head + 1, waiting - 1.
 *  requeue  xadd(SKIPTICKET_TAIL_INC + SKIPTICKET_WAITER): my = old tail, tail + 1
 *           and waiting + 1 in one step, registered; back to wait (if head
 *           == my the lock was free: an offer to us, which wait claims). A
 *           step of its own after the read that found my skipped: the xadd
 *           does not depend on what was read.
 *  unlock   skipticket_spin_unlock(), the incb that is not LOCKed: load head;
 *           then store head + 1 into head alone (two steps), keeping what
 *           LOCKed read-modify-writes of waiting and tail did in between.
 *
 * The model is interleaving (sequentially consistent); the x86-TSO ordering
 * argument is in the header's comment. Every step of a lock ends with
 * check(). "spin -t" prints a trail as one line a step: the word after it
 * is [head waiting tail].
 *
 * WAITING BLOCKS. No step models a spin: a CPU whose next action would
 * only read the word again (busy != 0, an offer it may not skip yet, a lazy
 * waiter with head != my, the xadd that -DNO_WRAP_AWAY holds back) has no
 * enabled step, so a state in which every CPU only spins has no step at
 * all, and pan reports it as an invalid end state (CPUs never end, so
 * every end state is invalid): a deadlock check that can fail
 * (-DMUTANT_NEVER_CLAIM, -DMUTANT_UNLOCK_NOADVANCE). The steps that are
 * always enabled are bounded so that they mask no deadlock: stopping lazy
 * waiting happens once a wait; a CPU is preempted again only after a step
 * of its own since its last preemption (stalled[]), and takes an interrupt
 * again only after a step on lock A (irqd[]). These bounds lose nothing: a
 * CPU resumed and preempted again without a step in between behaves as one
 * that stayed preempted, and while it is preempted every step of the
 * others that is enabled while it runs is enabled too (running only
 * disables: a skip of its ticket under the patience assumption, a grant
 * under -DPROMPT); no property reads preempted[]. Two interrupts without a
 * step on A in between are one interrupt whose handler takes B twice (it
 * may take B again before it returns). So preemptions and interrupts are
 * unbounded in every run here, and a deadlock is a state where every CPU
 * runs and none can move.
 *
 * PREEMPTION. A waiter (in transit, lazy, registered, about to requeue; of
 * lock A, or of lock B in an interrupt) may be preempted (preempted[i]: it
 * takes no step) and resumed at any time; CPU 0 is never preempted (the
 * bypass bound is stated for a running CPU 0); a holder is not (lock-holder
 * preemption stalls every lock and is not what this lock is about). A
 * preempted CPU in transit or lazy makes the lock look busy, as a preempted
 * holder does: nobody can claim or skip until it runs.
 *
 * ASSUMPTION 1, the patience (the model has no clock): the code skips an
 * offer left unclaimed for the patience (or 256 of them in a calm guest);
 * a running waiter claims in far less. So a skip is enabled only if no
 * running waiter (not preempted, not in an interrupt) holds the live ticket
 * head. -DSHORT_PATIENCE drops it: any offer may be skipped; preemption is
 * then compiled out, as it only removes behaviours there.
 *
 * ASSUMPTION 2, no wrap while away (-DNO_WRAP_AWAY): a skipped waiter
 * comes back before its old number is handed out again (the code: about
 * 256 - NR_CPUS more tickets). Modelled by letting nobody else xadd while
 * tail equals the old ticket of a waiter that was skipped (or displaced,
 * below) and has not taken a new one. Without it a skipped waiter whose
 * number came round finds itself inside [head, tail), and when that number
 * is head with busy == 0 it claims in the place of the live holder of that
 * ticket, who is displaced (ghost ticket N: it finds itself skipped after
 * the stale holder's unlock) -- a stale claim; exclusion holds.
 *
 * ONE VIOLATION, -DMAXVIOL=M: at most M violations of the assumptions in
 * a run, each counted: a skip of a running waiter's offer (patience), an
 * xadd that hands out a skipped waiter's old number while it is away
 * (wrap; a stale claim is then its consequence). With -DNO_WRAP_AWAY only
 * patience violations, with -DKEEP_PATIENCE only wraps. -DPROMPT adds a
 * speed assumption: a running waiter that was skipped sees it and requeues
 * before the lock is granted again (grants of lock A are disabled while a
 * running CPU is about to requeue or waits with my outside [head, tail)).
 * Without it a skipped running waiter may take no step while the others
 * take the lock again and again, and only the wrap assumption bounds that.
 *
 * INTERRUPTS, -DIRQ_LOCK: a second lock B (its own head, waiting, tail,
 * the same protocol, the same checks), used only in interrupt context: a
 * CPU waiting on lock A, lazy or registered, may take an interrupt
 * (inirq[i]) whose handler takes and releases B, possibly several times,
 * and returns. Meanwhile it takes no step on A, and for A's patience it
 * does not run: it may be skipped, as the code skips a waiter whose
 * interrupt handler outlasts the patience. In B it may be preempted like
 * any waiter; CPU 0 takes interrupts too.
 *
 * PROPERTIES, checked in every state (check()) or at the grant, for each
 * lock:
 *  - mutual exclusion: owners <= 1;
 *  - the counts, what exclusion rests on (not tickets being unique):
 *    busy == owners + transit (transit: CPUs unregistered with a live
 *    ticket, in transit or lazy); queued == owners + waiters with a live
 *    ticket (every ticket in [head, tail) is one CPU's), hence waiting ==
 *    registered waiters with a live ticket; queued <= P (the types
 *    header's "tail - head never exceeds NR_CPUS"); and nobody writes head
 *    between the unlock's load and store (its incb is never torn);
 *  - is_locked, is_contended: held -> head != tail; no holder and no live
 *    ticket -> head == tail; queued > 1 (contended) -> some CPU waits
 *    (wants[]); held and some CPU waiting with a live ticket -> queued > 1.
 *    (Both also read true while an offer is unclaimed, by design: "held,
 *    or offered", so those directions are not asserted.)
 *  - lazy waiting: while a CPU waits lazily no registered waiter holds
 *    ticket head: a lazy waiter is always right behind an unregistered
 *    ticket (the holder's, or one whose registration will be refused), so
 *    it never keeps a registered waiter from claiming (busy != 0) and the
 *    holder's unlock makes it the holder, as the header says;
 *  - no deadlock: pan's invalid end states (see above);
 *  - FIFO while nobody was skipped or displaced: a claim, a lazy waiter's
 *    grant and a refused registration go to the oldest waiter, a fast-path
 *    grant to a CPU when nobody waits (lock A);
 *  - bounded bypass: while CPU 0 waits for lock A, at most B grants go to
 *    CPUs that arrived after it (arrival: its take step, the bench's
 *    definition). B = 0 under both assumptions. -DNO_BYPASS_CHECK drops it;
 *  - starvation freedom for CPU 0 (LTL [] (wants[0] -> <> !wants[0]),
 *    pan -a), under both assumptions. It holds without weak fairness:
 *    nobody spins, a preemption needs a step in between, and while CPU 0
 *    waits the others can only queue behind it (FIFO, and CPU 0 runs, so
 *    it is not skipped), so they run out of steps and CPU 0's is left.
 *
 * MUTANTS (the count, is_locked/is_contended and lazy checks are off for
 * the first three, -DNO_COUNT_CHECK, so that what spin reports is the
 * consequence):
 *  -DMUTANT_CLAIM           a claim that sets nothing, cmpxchg(val, val):
 *                           the holder still counts as registered, busy
 *                           stays 0, the offer "behind" is skipped and
 *                           claimed: two owners;
 *  -DMUTANT_SKIP            a skip that ignores busy: two owners;
 *  -DMUTANT_CLAIM_BUSY      a claim that ignores busy: verifies with
 *                           -DNO_WRAP_AWAY, two owners once a stale ticket
 *                           equals head while its live holder holds;
 *  -DMUTANT_REGISTER_AT_HEAD  registration not refused at head: it
 *                           registers anyway and claims like any waiter.
 *                           Safe, no deadlock, starvation free; caught by
 *                           the lazy-waiting check: a lazy waiter behind it
 *                           keeps it from its claim until it stops waiting
 *                           lazily (the code: 1024 spins);
 *  -DMUTANT_UNLOCK_NOADVANCE  the unlock stores head, not head + 1: the
 *                           counts fail at once; with pan -A (assertions
 *                           compiled in, not stopped at) a deadlock;
 *  -DMUTANT_NEVER_CLAIM     the claim removed: a deadlock (and an
 *                           acceptance cycle in the LTL run).
 *
 * OPTIONS: -DK=bits -DP=cpus (P < 2^K, P <= 5) -DB=bound,
 * -DNO_WRAP_AWAY, -DSHORT_PATIENCE, -DMAXVIOL=M, -DKEEP_PATIENCE,
 * -DPROMPT, -DIRQ_LOCK, -DNO_BYPASS_CHECK, -DNO_FIFO_CHECK (drops the FIFO
 * ghost, which multiplies the states by about 4 with -DIRQ_LOCK),
 * -DNO_COUNT_CHECK, the mutants.
 *
 * LIMITS. The counters are K bits with K = 2 or 3 and P <= 4 CPUs (the
 * code: 8 bits, NR_CPUS < 256); no clock: calm and hurried patiences are
 * one patience, SKIPTICKET_LAZY_SPINS is "any time"; the stall clock
 * (struct skipticket_state) is not modelled, only its outcome (hurried:
 * any value at any time); no memory model; an interrupt handler takes one
 * other lock, B, and only while its CPU waits on A, lazy or registered.
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
#if P > 5
#error "P <= 5: the patience and PROMPT macros list the CPUs"
#endif
#if P >= (1 << K)
#error "P < 2^K: the code needs NR_CPUS < 256"
#endif
#if defined(MUTANT_CLAIM) || defined(MUTANT_SKIP) || defined(MUTANT_CLAIM_BUSY)
#define NO_COUNT_CHECK
#endif
#ifdef IRQ_LOCK
#define NL 2                    /* lock 0 (A) and lock 1 (B) */
#else
#define NL 1
#endif

#define N (1 << K)
#define WORD(L)    head[L], waiting[L], tail[L]     /* for printf */

/* where CPU i is in lock L: pc[IDX(L, i)] */
#define IDLE 0          /* next: take */
#define REG  1          /* in transit: next, register */
#define LAZY 2          /* next in line, unregistered */
#define WAIT 3          /* registered */
#define REQ  4          /* found itself skipped: next, the requeue xadd */
#define CS   5          /* holds the lock: next, the unlock's load */
#define UNL  6          /* next, the unlock's store */
#define DONE 7          /* lock B: released; take it again, or return */

#define IDX(L, i)  ((L) * P + (i))
#define ME(L)      IDX(L, _pid)
#define MY(L)      my[ME(L)]
#define Q(L)       ((tail[L] + N - head[L]) % N)                   /* queued */
#define BUSY(L)    ((tail[L] + 2 * N - head[L] - waiting[L]) % N)
#define SKIPPED(L, t) (((t) + N - head[L]) % N >= Q(L))
#define WAITER(L)  (pc[ME(L)] >= REG && pc[ME(L)] <= REQ)

/* the lock words */
byte head[NL];
byte waiting[NL];
byte tail[NL];

/* the CPUs' state in each lock */
byte pc[NL * P];
byte my[NL * P];        /* the ticket the code holds (stale once skipped) */

/* ghost */
byte owners[NL];
byte transit[NL];       /* unregistered with a live ticket, not holding */
bool wants[NL * P];     /* in lock(): took a ticket, not yet granted */
byte ticket[NL * P];    /* a waiter's live ticket; N: skipped, displaced */
bool preempted[P];      /* not running: takes no step */
bool stalled[P];        /* preempted since its last step */
#ifndef NO_FIFO_CHECK
byte gseq[P];           /* lock A: arrival order among the waiters */
byte nwait = 0;         /* lock A: CPUs with wants[] */
bool skipped_ever = false;      /* lock A: a waiter was skipped */
#define SKIPPED_EVER skipped_ever = true
#else
#define SKIPPED_EVER skip
#endif
#ifndef NO_BYPASS_CHECK
bool after0[P];         /* lock A: arrived while CPU 0 was waiting */
byte bypass0 = 0;       /* lock A: grants to such CPUs while CPU 0 waits */
#endif
#ifdef MAXVIOL
byte nviol = 0;         /* assumption violations so far */
#endif
/* scratch, 0 between steps */
byte i, v, c, w, f;

#ifdef IRQ_LOCK
bool inirq[P];          /* in an interrupt handler: lock B's steps */
bool irqd[P];           /* in an interrupt since its last step on lock A */
#define ACT(L)     (!preempted[_pid] && inirq[_pid] == (L))
#define AWAY(L, i) (preempted[i] || (L) == 0 && inirq[i])
#define CUR_WAITER (inirq[_pid] -> WAITER(1) : WAITER(0))
#else
#define ACT(L)     (!preempted[_pid])
#define AWAY(L, i) (preempted[i])
#define CUR_WAITER WAITER(0)
#endif

/* CPU i runs and waits with the live ticket head of lock L */
#define RH(L, i) (wants[IDX(L, i)] && ticket[IDX(L, i)] == head[L] && !AWAY(L, i))
#if P == 1
#define RUN_AT_HEAD(L) (RH(L, 0))
#elif P == 2
#define RUN_AT_HEAD(L) (RH(L, 0) || RH(L, 1))
#elif P == 3
#define RUN_AT_HEAD(L) (RH(L, 0) || RH(L, 1) || RH(L, 2))
#elif P == 4
#define RUN_AT_HEAD(L) (RH(L, 0) || RH(L, 1) || RH(L, 2) || RH(L, 3))
#else
#define RUN_AT_HEAD(L) (RH(L, 0) || RH(L, 1) || RH(L, 2) || RH(L, 3) || RH(L, 4))
#endif

/* assumption 1: the patience */
#if defined(SHORT_PATIENCE)
#define PATIENCE_OK(L) true
#elif defined(MAXVIOL) && !defined(KEEP_PATIENCE)
#define PATIENCE_OK(L) (!RUN_AT_HEAD(L) || nviol < MAXVIOL)
#else
#define PATIENCE_OK(L) (!RUN_AT_HEAD(L))
#endif

/* assumption 2: no wrap while away */
#if defined(NO_WRAP_AWAY) || defined(MAXVIOL)
#define WRAP_TRACK
byte stale[NL * P];     /* 1 + the old ticket of a skipped waiter; 0: none */
byte blocker[NL] = P;   /* the skipped waiter whose old ticket is tail */
#endif
#if defined(NO_WRAP_AWAY)
#define ADVANCE_OK(L) (blocker[L] == P || blocker[L] == _pid)
#elif defined(MAXVIOL)
#define ADVANCE_OK(L) (blocker[L] == P || blocker[L] == _pid || nviol < MAXVIOL)
#else
#define ADVANCE_OK(L) true
#endif

/* -DPROMPT: no grant of lock A while a running CPU has yet to requeue */
#ifdef PROMPT
#define SKR(i) (!AWAY(0, i) && (pc[IDX(0, i)] == REQ || \
		pc[IDX(0, i)] == WAIT && SKIPPED(0, my[IDX(0, i)])))
#if P == 2
#define NO_SKR (!(SKR(0) || SKR(1)))
#elif P == 3
#define NO_SKR (!(SKR(0) || SKR(1) || SKR(2)))
#elif P == 4
#define NO_SKR (!(SKR(0) || SKR(1) || SKR(2) || SKR(3)))
#else
#define NO_SKR (!(SKR(0) || SKR(1) || SKR(2) || SKR(3) || SKR(4)))
#endif
#define GRANT_OK(L) ((L) != 0 || NO_SKR)
#else
#define GRANT_OK(L) true
#endif

#if defined(MUTANT_NEVER_CLAIM)
#define CLAIM_OK(L) false
#elif defined(MUTANT_CLAIM_BUSY)
#define CLAIM_OK(L) true
#else
#define CLAIM_OK(L) (BUSY(L) == 0)
#endif
#ifdef MUTANT_SKIP
#define SKIP_OK(L) true
#else
#define SKIP_OK(L) (BUSY(L) == 0)
#endif

inline check_lock(L)
{
	assert(owners[L] <= 1);
#ifndef NO_COUNT_CHECK
	/* c: waiters with a live ticket; w: waiters; f: 1 lazy, 2 registered at head */
	for (i : 0 .. P - 1) {
		if
		:: wants[IDX(L, i)] ->
			w++;
			if
			:: ticket[IDX(L, i)] != N -> c++
			:: else -> skip
			fi;
			if
			:: pc[IDX(L, i)] == LAZY -> f = f | 1
			:: pc[IDX(L, i)] == WAIT && ticket[IDX(L, i)] == head[L] -> f = f | 2
			:: else -> skip
			fi
		:: else -> skip
		fi
	};
	i = 0;
	/* the counts */
	assert(BUSY(L) == owners[L] + transit[L]);
	assert(Q(L) == owners[L] + c && Q(L) <= P);
	/* is_locked (head != tail) and is_contended (queued > 1) */
	assert(owners[L] == 0 || head[L] != tail[L]);
	assert(owners[L] + c > 0 || head[L] == tail[L]);
	assert(Q(L) <= 1 || w > 0);
	assert(owners[L] == 0 || c == 0 || Q(L) > 1);
	/* a lazy waiter never keeps a registered waiter from its offer */
	assert(f != 3);
	c = 0;
	w = 0;
	f = 0;
#endif
	skip
}

inline check()
{
	check_lock(0);
#ifdef IRQ_LOCK
	check_lock(1);
#endif
#ifndef NO_BYPASS_CHECK
	assert(bypass0 <= B);
#endif
	skip
}

/* the CPU takes a step on lock L: it may be preempted (interrupted) again */
inline stepped(L)
{
	stalled[_pid] = false;
#ifdef IRQ_LOCK
	if
	:: L == 0 -> irqd[_pid] = false
	:: else -> skip
	fi;
#endif
	skip
}

/* tail + 1, and is a skipped waiter's old ticket next? */
inline advance_tail(L)
{
#ifdef MAXVIOL
	if
	:: blocker[L] != P && blocker[L] != _pid ->
		/* wrap while away: its old number handed out again */
		nviol++;
		stale[IDX(L, blocker[L])] = 0;
		blocker[L] = P
	:: else -> skip
	fi;
#endif
	tail[L] = (tail[L] + 1) % N;
#ifdef WRAP_TRACK
	for (i : 0 .. P - 1) {
		if
		:: stale[IDX(L, i)] == tail[L] + 1 -> blocker[L] = i
		:: else -> skip
		fi
	};
	i = 0;
#endif
	skip
}

/* this CPU is no longer a skipped waiter of lock L */
inline forget_skip(L)
{
#ifdef WRAP_TRACK
	stale[ME(L)] = 0;
	if
	:: blocker[L] == _pid -> blocker[L] = P
	:: else -> skip
	fi;
#endif
	skip
}

/* ticket[v] (its live ticket, head) taken from waiter v: skipped, displaced */
inline lose_ticket(L)
{
	if
	:: v < P ->
#ifdef WRAP_TRACK
		stale[IDX(L, v)] = ticket[IDX(L, v)] + 1;
#endif
		ticket[IDX(L, v)] = N
	:: else -> skip
	fi;
	v = 0;
	if
	:: L == 0 -> SKIPPED_EVER
	:: else -> skip
	fi
}

/* v: the waiter holding the live ticket head of lock L (P if none) */
inline head_holder(L)
{
	v = P;
	for (i : 0 .. P - 1) {
		if
		:: wants[IDX(L, i)] && ticket[IDX(L, i)] == head[L] -> v = i
		:: else -> skip
		fi
	};
	i = 0
}

/* xadd of tail + 1: a new live ticket */
inline xadd(L)
{
	forget_skip(L);
	MY(L) = tail[L];
	ticket[ME(L)] = tail[L];
	advance_tail(L)
}

/* lock A: after0[j]: j's current acquisition began after CPU 0's */
inline arrive(L)
{
#ifndef NO_BYPASS_CHECK
	if
	:: L == 0 && _pid == 0 ->
		for (i : 1 .. P - 1) { after0[i] = false };
		i = 0;
		bypass0 = 0
	:: L == 0 && _pid != 0 && wants[0] -> after0[_pid] = true
	:: L == 0 && _pid != 0 && !wants[0] -> after0[_pid] = false
	:: else -> skip
	fi;
#endif
	skip
}

/* this CPU starts to wait: the youngest waiter */
inline enqueue(L)
{
	wants[ME(L)] = true;
#ifndef NO_FIFO_CHECK
	if
	:: L == 0 ->
		gseq[_pid] = nwait;
		nwait++
	:: else -> skip
	fi;
#endif
	skip
}

/* FIFO while nobody was skipped: a waiter granted is the oldest one */
inline fifo(L)
{
#ifndef NO_FIFO_CHECK
	if
	:: L == 0 -> assert(skipped_ever || gseq[_pid] == 0)
	:: else -> skip
	fi;
#endif
	skip
}

/* this CPU is granted lock L: it holds it from now on */
inline granted(L)
{
	if
	:: wants[ME(L)] ->
		wants[ME(L)] = false;
#ifndef NO_FIFO_CHECK
		if
		:: L == 0 ->
			nwait--;
			for (i : 0 .. P - 1) {
				if
				:: wants[i] && gseq[i] > gseq[_pid] -> gseq[i]--
				:: else -> skip
				fi
			};
			i = 0;
			gseq[_pid] = 0
		:: else -> skip
		fi;
#endif
		skip
	:: else -> skip
	fi;
#ifndef NO_BYPASS_CHECK
	if
	:: L == 0 && _pid != 0 && wants[0] && after0[_pid] -> bypass0++
	:: else -> skip
	fi;
#endif
	forget_skip(L);
	ticket[ME(L)] = 0;
	MY(L) = 0;
	owners[L]++;
	pc[ME(L)] = CS
}

/* __skipticket_spin_take(); LZ: the guest is calm (else hurried) */
inline take(L, LZ)
{
	arrive(L);
	xadd(L);
	if
	:: head[L] == MY(L) ->                  /* it was free: ours */
#ifndef NO_FIFO_CHECK
		if
		:: L == 0 -> assert(skipped_ever || nwait == 0)     /* FIFO */
		:: else -> skip
		fi;
#endif
		printf("cpu%d L%d take %d: free, held [%d %d %d]\n", _pid, L, MY(L), WORD(L));
		granted(L)
	:: else ->                              /* in transit */
		printf("cpu%d L%d take %d [%d %d %d]\n", _pid, L, MY(L), WORD(L));
		enqueue(L);
		transit[L]++;
		if
		:: LZ && Q(L) == 2 && waiting[L] == 0 ->  /* __skipticket_lazy() */
			pc[ME(L)] = LAZY
		:: else ->
			pc[ME(L)] = REG
		fi
	fi;
	check()
}

/* __skipticket_spin_take_hurried()'s xadd: ticket and registration at once */
inline take_early(L)
{
	arrive(L);
	xadd(L);
	enqueue(L);
#ifndef MUTANT_EARLY_UNCOUNTED
	waiting[L] = (waiting[L] + 1) % N;
#endif
#ifndef MUTANT_EARLY_TWICE
	pc[ME(L)] = WAIT;
#else
	/*
	 * mutant: the returned word not marked registered, so the wait
	 * registers again (its lazy branch, taken in a calm guest next in
	 * line, ends held or registering too: not modelled apart)
	 */
	transit[L]++;
	pc[ME(L)] = REG;
#endif
	printf("cpu%d L%d takes %d registered [%d %d %d]\n", _pid, L, MY(L), WORD(L));
	check()
}

/* __skipticket_register(): refused once head == my, then the lock is ours */
inline register(L)
{
	transit[L]--;
	if
#ifndef MUTANT_REGISTER_AT_HEAD
	:: head[L] == MY(L) ->
		printf("cpu%d L%d register %d refused: held\n", _pid, L, MY(L));
		fifo(L);
		granted(L)
#endif
	:: else ->
		waiting[L] = (waiting[L] + 1) % N;
		printf("cpu%d L%d register %d [%d %d %d]\n", _pid, L, MY(L), WORD(L));
		pc[ME(L)] = WAIT
	fi;
	check()
}

/* the claim: try_cmpxchg(val, val - SKIPTICKET_WAITER) */
inline claim(L)
{
#ifndef MUTANT_CLAIM
	waiting[L] = (waiting[L] + N - 1) % N;
#endif
	if
	:: ticket[ME(L)] != MY(L) ->
		/* a stale claim: the old number came round, head's waiter displaced */
#ifdef NO_WRAP_AWAY
		assert(ticket[ME(L)] == MY(L));         /* none while tickets are unique */
#endif
		head_holder(L);
		printf("cpu%d L%d claims %d with a stale ticket (cpu%d displaced; %d: nobody) [%d %d %d]\n",
		       _pid, L, MY(L), v, P, WORD(L));
		lose_ticket(L)
	:: else ->
		printf("cpu%d L%d claims %d [%d %d %d]\n", _pid, L, MY(L), WORD(L))
	fi;
	fifo(L);
	granted(L);
	check()
}

/* the skip: try_cmpxchg(val, __skipticket_skip(val)): head + 1, waiting - 1 */
inline skip_head(L)
{
	head_holder(L);
	printf("cpu%d L%d skips %d (cpu%d; %d: nobody's) -> [%d %d %d]\n", _pid, L,
	       head[L], v, P, (head[L] + 1) % N, (waiting[L] + N - 1) % N, tail[L]);
	head[L] = (head[L] + 1) % N;
	waiting[L] = (waiting[L] + N - 1) % N;
#ifdef MAXVIOL
	if
	:: v < P && !AWAY(L, v) -> nviol++      /* a running waiter skipped */
	:: else -> skip
	fi;
#endif
	lose_ticket(L);
	check()
}

/* the requeue: xadd(SKIPTICKET_TAIL_INC + SKIPTICKET_WAITER), registered */
inline requeue(L)
{
	xadd(L);
	waiting[L] = (waiting[L] + 1) % N;
	pc[ME(L)] = WAIT;
	printf("cpu%d L%d requeues: ticket %d [%d %d %d]\n", _pid, L, MY(L), WORD(L));
	check()
}

/* the store of the unlock's incb: head alone */
inline unlock_store(L)
{
#ifndef NO_COUNT_CHECK
	assert(head[L] == h);                   /* nobody else wrote head */
#endif
#ifndef MUTANT_UNLOCK_NOADVANCE
	head[L] = (h + 1) % N;
#else
	head[L] = h;                            /* mutant: head not advanced */
#endif
	h = 0;
	printf("cpu%d L%d unlocks [%d %d %d]\n", _pid, L, WORD(L));
	owners[L]--;
	if
	:: L == 0 -> pc[ME(L)] = IDLE
	:: else -> pc[ME(L)] = DONE
	fi;
	check()
}

/* the steps of lock L; a CPU that would only spin has none */
#define LOCK_STEPS(L) \
	:: d_step { ACT(L) && (pc[ME(L)] == IDLE || pc[ME(L)] == DONE) && \
		    ADVANCE_OK(L) && (head[L] != tail[L] || GRANT_OK(L)) -> \
		    stepped(L); take(L, false) } \
	:: d_step { ACT(L) && (pc[ME(L)] == IDLE || pc[ME(L)] == DONE) && \
		    ADVANCE_OK(L) && Q(L) == 1 && waiting[L] == 0 -> \
		    stepped(L); take(L, true) } \
	:: d_step { ACT(L) && (pc[ME(L)] == IDLE || pc[ME(L)] == DONE) && \
		    ADVANCE_OK(L) -> \
		    stepped(L); take_early(L) } \
	:: d_step { ACT(L) && pc[ME(L)] == LAZY && head[L] == MY(L) && \
		    GRANT_OK(L) -> \
		    stepped(L); transit[L]--; fifo(L); \
		    printf("cpu%d L%d lazy %d: held\n", _pid, L, MY(L)); \
		    granted(L); check() } \
	:: d_step { ACT(L) && pc[ME(L)] == LAZY -> \
		    stepped(L); pc[ME(L)] = REG; \
		    printf("cpu%d L%d stops waiting lazily\n", _pid, L); check() } \
	:: d_step { ACT(L) && pc[ME(L)] == REG && \
		    (head[L] != MY(L) || GRANT_OK(L)) -> \
		    stepped(L); register(L) } \
	:: d_step { ACT(L) && pc[ME(L)] == WAIT && SKIPPED(L, MY(L)) -> \
		    stepped(L); pc[ME(L)] = REQ; \
		    printf("cpu%d L%d finds %d skipped\n", _pid, L, MY(L)); check() } \
	:: d_step { ACT(L) && pc[ME(L)] == WAIT && !SKIPPED(L, MY(L)) && \
		    CLAIM_OK(L) && head[L] == MY(L) && GRANT_OK(L) -> \
		    stepped(L); claim(L) } \
	:: d_step { ACT(L) && pc[ME(L)] == WAIT && !SKIPPED(L, MY(L)) && \
		    SKIP_OK(L) && head[L] != MY(L) && PATIENCE_OK(L) -> \
		    stepped(L); skip_head(L) } \
	:: d_step { ACT(L) && pc[ME(L)] == REQ && ADVANCE_OK(L) -> \
		    stepped(L); requeue(L) } \
	:: d_step { ACT(L) && pc[ME(L)] == CS -> \
		    stepped(L); h = head[L]; pc[ME(L)] = UNL; check() } \
	:: d_step { ACT(L) && pc[ME(L)] == UNL -> \
		    stepped(L); unlock_store(L) }

active [P] proctype cpu()
{
	byte h;                 /* the unlock's load of head */

	do
	LOCK_STEPS(0)
#ifdef IRQ_LOCK
	LOCK_STEPS(1)
	/* an interrupt while waiting on A; its handler takes B */
	:: d_step { !preempted[_pid] && !inirq[_pid] && !irqd[_pid] &&
		    (pc[ME(0)] == LAZY || pc[ME(0)] == WAIT) ->
		    inirq[_pid] = true; irqd[_pid] = true;
		    printf("cpu%d interrupt\n", _pid) }
	:: d_step { !preempted[_pid] && inirq[_pid] && pc[ME(1)] == DONE ->
		    inirq[_pid] = false; pc[ME(1)] = IDLE;
		    printf("cpu%d returns from the interrupt\n", _pid) }
#endif
#ifndef SHORT_PATIENCE
	/* the host preempts a waiting vCPU, and runs it again */
	:: d_step { _pid != 0 && !preempted[_pid] && !stalled[_pid] &&
		    CUR_WAITER ->
		    preempted[_pid] = true; stalled[_pid] = true;
		    printf("cpu%d preempted\n", _pid) }
	:: d_step { preempted[_pid] ->
		    preempted[_pid] = false;
		    printf("cpu%d runs again\n", _pid) }
#endif
	od
}

ltl starvation_free { [] (wants[0] -> <> !wants[0]) }
