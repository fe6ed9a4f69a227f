/*
 * skipticket.pml -- Promela model of the skip-ticket lock of issue 9, the
 * series' arch/x86/include/asm/skipticket_spinlock.h: __ticket_spin_take(),
 * __ticket_spin_wait() (the slow path) and arch_spin_unlock(); the bench
 * calls them skt_take(), skt_slowpath() and skt_unlock() (lib/series.h).
 *
 *   spin -DK=3 -DP=3 -a skipticket.pml
 *   gcc -O2 -DSAFETY -o pan pan.c && ./pan        # safety, bypass bound
 *   gcc -O2 -o pan pan.c && ./pan -a -f           # starvation freedom
 *
 * (model/skipticket.sh does all of this.)
 *
 * The lock word: head and tail (K-bit counters here, 15 bits in the code)
 * and the taken flag (the code keeps head and taken as one 16-bit counter,
 * owner = head << 1 | taken, and tail << 1 above it). Code and model, one
 * atomic step per LOCKed instruction or plain access of the lock word:
 *
 *  take         o = READ_ONCE(owner); if !taken, cmpxchg the word from
 *                the free word o * 0x10001 (head == tail, !taken) to
 *                (tail + 1, taken)              -> one step here: the read
 *                only makes a guess, and the cmpxchg succeeds exactly
 *                when the word is that free word at that instant (the
 *                argument of ticket.pml's MERGED_TRYLOCK);
 *                else xadd: my = tail, tail + 1  -> one step.
 *  wait         each iteration reads the word once and then, in the same
 *                step here (the cmpxchg succeeds only if the word is
 *                unchanged, so a read followed by a successful cmpxchg is
 *                one atomic decision), does one of:
 *                  head == my, !taken: claim (taken = 1): granted;
 *                  my not in [head, tail): skipped, xadd a new ticket;
 *                  !taken, head != my, head's holder "out of patience":
 *                  skip (head + 1).
 *  unlock       incw owner, not LOCKed: the owner reads head, then
 *                stores (head + 1, taken = 0): two steps.
 *
 * Patience. The code skips a head that stays offered and unclaimed for
 * skipticket_patience TSC cycles; a running waiter claims within far less. The
 * model has no clock: a waiter may be preempted (ghost preempted[i],
 * during its wait only: lock-holder preemption stalls every lock and is
 * not what this lock is about), and the skip is enabled unless a running
 * waiter holds ticket head: that is the assumption "patience is longer
 * than a running waiter takes to claim"; a free, unclaimed head that no
 * running waiter holds may always be skipped, as the code would after its
 * patience. -DSHORT_PATIENCE drops it:
 * any offered head may be skipped, as when the patience is too short.
 *
 * -DMUTANT_CLAIM: a claim that does not set taken (a mutant: spin must
 * find two owners).
 *
 * Properties (checked in every reachable state, or at the grant):
 *  - mutual exclusion: at most one owner;
 *  - no deadlock (no invalid end state: pan's default);
 *  - FIFO while nobody has been skipped: the grant goes to the oldest
 *    arrival among the waiters;
 *  - bounded bypass: CPU 0 is never preempted; while it waits, at most
 *    B = 0 grants go to CPUs that arrived after it (the bench's
 *    definition: arrival = the first atomic attempt of that acquisition).
 *    With -DSHORT_PATIENCE spin finds the counterexample: CPU 0 skipped
 *    while running, overtaken by a later arrival. Without -DNO_WRAP_AWAY
 *    it finds the other one: a waiter skipped while preempted stays away
 *    until the counters wrap, its stale ticket number falls inside
 *    [head, tail) again, aliases CPU 0's live ticket and takes CPU 0's
 *    turn. B = 0 needs both assumptions;
 *  - starvation freedom for CPU 0 (LTL, weak fairness, finitely many
 *    preemptions: -DMAXPRE).
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

#define N (1 << K)
#define IN_LINE(t)  (((t) + N - head) % N < (tail + N - head) % N)

byte head = 0;
byte tail = 0;
bool taken = false;

/* ghost */
byte owners = 0;
bool waiting[P];        /* in the slow path (took a ticket, not granted) */
bool preempted[P];      /* not running: takes no step */
byte ticket[P];         /* the ticket a waiter holds */
byte gseq[P];           /* arrival order among the waiters (0 = oldest) */
byte queued = 0;        /* waiters */
bool skipped_ever = false;
bool after0[P];         /* arrived while CPU 0 was waiting */
byte bypass0 = 0;       /* grants to such CPUs while CPU 0 waits */
byte lag[P];            /* tickets handed out since i was skipped */
byte blockers = 0;      /* skipped waiters whose lag reached LAG_MAX */

/*
 * -DMAXPRE=M (liveness runs): at most M preemptions in all. Without a
 * bound, weak fairness lets a waiter be preempted and resumed forever at
 * exactly the moments that keep the others from skipping it, which the
 * patience (a preemption must last longer than it to matter) rules out.
 */
#ifndef MAXPRE
#define MAXPRE 255
#endif
byte npre = 0;

/*
 * -DNO_WRAP_AWAY: a skipped waiter comes back before its stale ticket
 * number can alias a live one, i.e. before LAG_MAX more tickets are
 * handed out (the code's 15-bit counters: 32768 handoffs). Modelled by
 * letting nobody else take a ticket while it is that late.
 */
#define LAG_MAX (N - P - 1)
#ifdef NO_WRAP_AWAY
#define ADVANCE_OK (blockers == 0 || (blockers == 1 && ticket[_pid] == N && lag[_pid] >= LAG_MAX))
#else
#define ADVANCE_OK true
#endif

/* tail + 1, and the lag of every skipped waiter */
inline advance_tail()
{
	tail = (tail + 1) % N;
	for (i : 0 .. P - 1) {
		if
		:: ticket[i] == N && lag[i] < LAG_MAX ->
			lag[i]++;
			if
			:: lag[i] == LAG_MAX -> blockers++
			:: else -> skip
			fi
		:: else -> skip
		fi
	};
	i = 0
}

/* this CPU takes a live ticket: it is no longer a skipped waiter */
inline fresh_ticket()
{
	if
	:: ticket[_pid] == N && lag[_pid] == LAG_MAX -> blockers--
	:: else -> skip
	fi;
	lag[_pid] = 0;
	my = tail;
	ticket[_pid] = my
}

inline check()
{
	assert(owners <= 1);
	assert(bypass0 <= B)
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
		:: waiting[i] && ticket[i] == head -> v = i
		:: else -> skip
		fi
	};
	i = 0
}

inline skip_head()
{
	head = (head + 1) % N;
	if
	:: v < P -> ticket[v] = N
	:: else -> skip
	fi;
	v = 0;
	skipped_ever = true;
	check()
}

/* after0[j]: j's current acquisition began after CPU 0's current one */
inline arrive()
{
	if
	:: _pid == 0 ->
		for (i : 1 .. P - 1) { after0[i] = false };
		i = 0
	:: _pid != 0 && waiting[0] -> after0[_pid] = true
	:: else -> after0[_pid] = false
	fi
}

inline granted()
{
	if
	:: _pid != 0 && waiting[0] && after0[_pid] -> bypass0++
	:: else -> skip
	fi;
	owners++
}

active [P] proctype cpu()
{
	byte my;
	byte h;
	byte i;
	byte v;

again:
	/* __ticket_spin_take() */
	atomic {
		ADVANCE_OK;
		arrive();
		if
		:: head == tail && !taken ->          /* free: cmpxchg */
			advance_tail();
			taken = true;
			granted();
			check();
			goto cs
		:: else ->                            /* xadd: a ticket */
			fresh_ticket();
			advance_tail();
			gseq[_pid] = queued;
			queued++;
			waiting[_pid] = true;
			check()
		fi
	};
	/* __ticket_spin_wait() */
wait:
	do
	:: atomic {
		!preempted[_pid] ->
		if
		:: head == my && !taken ->            /* claim */
#ifndef MUTANT_CLAIM
			taken = true;
#else
			skip;                         /* mutant: a claim that sets nothing */
#endif
			assert(skipped_ever || gseq[_pid] == 0);   /* FIFO */
			waiting[_pid] = false;
			queued--;
			for (i : 0 .. P - 1) {
				if
				:: waiting[i] && gseq[i] > gseq[_pid] -> gseq[i]--
				:: else -> skip
				fi
			};
			i = 0;
			gseq[_pid] = 0;
			granted();
			check();
			break
		:: head != my && !IN_LINE(my) && ADVANCE_OK ->   /* skipped: queue again */
			fresh_ticket();
			advance_tail();
			check()
		:: head != my && IN_LINE(my) && !taken ->
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
		:: else -> skip                       /* spin on */
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
cs:
	/* critical section; arch_spin_unlock(): load head, then one store */
	h = head;
	atomic {
		head = (h + 1) % N;
		taken = false;
		h = 0;
		owners--;
		check()
	};
	my = 0;
	goto again
}

ltl starvation_free { [] (waiting[0] -> <> !waiting[0]) }
