// SPDX-License-Identifier: GPL-2.0
/*
 * fairness.c - userspace spinlock fairness test, after the one Nick Piggin
 * describes in commit 314cdbefd1fd ("x86: FIFO ticket spinlocks"): N
 * threads, each pinned to a CPU, hammer one lock; an unfair lock lets some
 * threads finish long before others and grants the lock to the same
 * thread many times in a row while others wait.
 *
 * Usage: fairness [-t THREADS] [-n ITERATIONS] [-l LOCK[,LOCK...]]
 *                 [-c CS_LINES] [-w THINK] [-k] [-p] [-v] [-G] [-o]
 *                 [-T N] [-P US] [-L] [-M] [-h]
 *
 * Locks: legacy is the 2.6.24 decrement lock (the seed's asm, lib/locks.h);
 * ticket8 and ticket16 are the series' own arch/x86/include/asm/
 * ticket_spinlock.h at both widths, and qspinlock is the kernel's native
 * queued spinlock (asm-generic/qspinlock.h + kernel/locking/qspinlock.c),
 * both compiled unchanged from the patched tree (lib/series.h,
 * lib/kqspinlock.h); skipticket is the series' skip-ticket lock
 * (asm/skipticket_spinlock.h, also through lib/series.h); the other
 * locks of lib/locks.h's list (-M; ticketpb, a ticket lock with
 * proportional backoff) have their own headers there; pthread_spin and
 * pthread_mutex are glibc's.
 *
 *   -t  threads (default: online CPUs, at most 1024), pinned round robin
 *       over the CPUs this process may run on; more threads than those
 *       CPUs is an error unless -o is given
 *   -n  lock acquisitions per thread (default 1000000)
 *   -l  a lock of -L's list, or all (default: every lock of that list, in
 *       its order); a comma list runs them in the order given (scripts
 *       shuffle it), each at most once.
 *       "none" (never part of all) takes no lock at all: it exists only to
 *       show that the counter check catches a broken lock (expect exit 1).
 *   -L  print the locks it knows, one name per line, and exit: every lock
 *       of lib/locks.h's list (LB_LOCKS()), then qspinlock, pthread_spin,
 *       pthread_mutex; the scripts take their host lock list from here
 *   -M  print only the locks of lib/locks.h's list (the ones the lockbench
 *       module runs too, beside spin_lock()), one per line, and exit
 *   -c  shared cache lines written in each critical section (default 1).
 *       Line 0 holds the bookkeeping (shared counter, run tracking) and is
 *       always written; -c N writes lines 0..N-1 (N <= 4096).
 *   -w  PAUSE instructions executed after each unlock (default 0)
 *   -k  key=value output, one line per lock (see below)
 *   -p  also measure the wait for each acquisition with rdtsc and report
 *       log2-histogram percentiles (adds ~2 rdtsc per iteration)
 *   -v  also print one key=value line per thread after each lock
 *   -G  do not log the grant order (no bypass keys); logging costs one
 *       load per acquisition, an atomic increment per refused attempt and
 *       32 bytes per grant, written to the thread's own array.  -G without
 *       -p is the bare mode: the critical section then only counts (the
 *       shared counter, the thread's count, the run tracking, all on lines
 *       the critical section writes anyway), see "Bookkeeping" below
 *   -o  allow more threads than CPUs (results then say little about the
 *       lock: threads are preempted, as vCPUs of an overcommitted host)
 *   -P  skipticket's patience, microseconds (1..10000, default 100)
 *   -T  N (1..1000000): after each lock's -k line, a "timeline=LOCK
 *       start=S grants=N who=T,T,..." line: the takers of N consecutive
 *       grants centred on the middle of the contended phase (the seeds'
 *       claim as a picture: legacy's long runs against ticket alternation)
 *
 * What is measured, per thread: runtime, i.e. its finish time
 * (CLOCK_MONOTONIC, from the common start = the first thread leaving the
 * start barrier, to its last unlock), the number of acquisitions it had
 * done at the moment the FIRST thread did its last one (a snapshot taken
 * inside that thread's final critical section, so it is exact), and the
 * longest run of consecutive grants to it while at least one other thread
 * was still running (the critical section feeds lb_run_grant(), see
 * metrics.h).  Per lock: the aggregates below.  All threads are released
 * together by a spinning start barrier.
 *
 * Correctness: every critical section increments a plain (non-atomic)
 * counter in each touched line.  Each must end at threads * iterations,
 * otherwise an error is printed and the exit status is 1.
 *
 * -k output keys (line starts with "lock="; values are integers unless
 * noted; fixed-point values come from the integer metrics in metrics.c):
 *
 *   lock           lock name
 *   threads        number of threads
 *   iters          acquisitions per thread (-n)
 *   cs_lines       cache lines written per critical section (-c)
 *   think          PAUSEs after each unlock (-w)
 *   cpus           distinct CPUs the threads were pinned to
 *   total_ns       wall time: last thread's end - first thread's start
 *   throughput     acquisitions per second over the contended phase: the
 *                  grants all threads had made when the first finished,
 *                  over its runtime (after it fewer threads contend)
 *   throughput_all threads * iters / total_ns, tail included
 *   time_min_ns    earliest finish: shortest per-thread runtime, measured
 *                  from the common start
 *   time_max_ns    latest finish (longest runtime)
 *   start_skew_ns  last thread's start - first thread's start; more than
 *                  a few microseconds means a thread was preempted at
 *                  the start and this lock's numbers are noise
 *   spread         time_max_ns / time_min_ns, 3 decimals (1.000 = all
 *                  threads finished together)
 *   jain           Jain's fairness index of the acquisitions-at-first-
 *                  finish counts, 6 decimals (1.000000 = perfectly fair,
 *                  1/threads = one thread got everything)
 *   acq_min        fewest acquisitions of any thread at first finish
 *   acq_max        most acquisitions at first finish (== iters)
 *   acq_spread     acq_max / acq_min, 3 decimals, "inf" if acq_min == 0
 *   longest_run    longest run of consecutive grants to one thread while
 *                  another thread was still running (1 = strict FIFO
 *                  alternation)
 *   longest_run_thread  thread index that had that run
 *   counter        ok, or BAD if the shared counters lost updates
 *   wait_p50, wait_p99, wait_max   only with -p: TSC cycles from before
 *                  lock() to holding the lock, over all threads; p50/p99
 *                  are the upper bounds of their log2 buckets (see
 *                  metrics.h), wait_max is exact
 *   order          ok: the grant order was logged and analysed (keys
 *                  below); off: -G, or more than MAX_LOGGED grants; BAD:
 *                  the log does not hold one grant per place (exit 1)
 *   waits          acquisitions whose first attempt was refused
 *   bypasses       grants that passed over a waiter refused before the
 *                  grantee first tried (see "Grant order" below; never
 *                  counts one that did not happen); FIFO: 0
 *   bypass_share   bypasses / all grants, 6 decimals
 *   bypass_max     most grants that passed over one waiter in one wait
 *   bypass_run     longest run of bypassing grants to one thread
 *   ticket_breaks  ticket locks only: grants whose ticket is not the one
 *                  after the previous grant's; FIFO: 0
 *   bypass_hist    waiters passed over at least once, by how many grants
 *                  passed them, as log2 buckets "b:count,..." (b holds
 *                  2^b..2^(b+1)-1 grants, b=0 exactly 1); "-" if none
 *   wait_hist      only with -p: all waits as log2 buckets of TSC cycles
 *
 * -v adds per-thread lines: thread=I lock=NAME cpu=C start_ns=...
 * runtime_ns=... acq_at_first_finish=... longest_run=...
 * (start_ns: own start after the common start; runtime_ns as above)
 *
 * Exit status: 0 ok, 1 counter mismatch or runtime failure, 2 bad usage.
 * Builds as a static binary (gcc -static -pthread) for a busybox guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "locks.h"
#include "kqspinlock.h"
#include "skipticket.h"
#include "metrics.h"
#include "uclock.h"

/*
 * The lock operations the test calls.  A mutant build (make -C bench
 * mutants, -DLB_MUTANT=N) replaces ticket8 by a broken lock on the same
 * word, to show that the FIFO check in check.sh catches it.
 */
#ifdef LB_MUTANT
#include "mutants.h"
#else
#define LB_TAKE		lb_take
#define LB_WAIT		lb_wait
#define LB_UNLOCK	lb_unlock
#define LB_INIT		lb_lock_init
#endif

#define MAX_THREADS	1024
#define MAX_CS_LINES	4096
/* 1e12: keeps threads * iters (and its * 1e9 for throughput) in range */
#define MAX_ITERS	1000000000000ULL
/* grant log: 32 bytes per grant, plus 9 for the analysis */
#define MAX_LOGGED	(64ULL << 20)
#define CACHELINE	64
/* keep independent hot data 128 bytes apart: adjacent-line prefetch */
#define HOT_ALIGN	128

/*
 * The locks of locks.h (LB_LOCKS(), numbered as there), then the ones only
 * user space has; K_NONE (no lock) is the harness's own control.
 */
enum fkind {
#define LB_X(ID, name, type)	K_##ID = LB_##ID,
	LB_LOCKS(LB_X)
#undef LB_X
	K_QSPINLOCK = LB_NR_KINDS,
	K_PTHREAD_SPIN,
	K_PTHREAD_MUTEX,
	K_NONE,
	K_NR
};

/* A lock of locks.h: lb_*() runs it. */
#define K_IS_LB(k)	((unsigned int)(k) < LB_NR_KINDS)

static const char *const kind_names[K_NR] = {
#define LB_X(ID, name, type)	[K_##ID] = #name,
	LB_LOCKS(LB_X)
#undef LB_X
	[K_QSPINLOCK]		= "qspinlock",
	[K_PTHREAD_SPIN]	= "pthread_spin",
	[K_PTHREAD_MUTEX]	= "pthread_mutex",
	[K_NONE]		= "none",
};

/* Line 0 of the critical-section data, protected by the lock under test. */
struct bookkeeping {
	lb_u64 counter;		/* plain shared counter */
	lb_u32 running;		/* threads that have not finished */
	lb_u32 first_done;	/* snapshot at first finish taken */
	struct lb_run run;	/* grant-order run tracking */
};

union csline {
	struct bookkeeping bk;	/* line 0 */
	lb_u64 v;		/* lines 1..cs_lines-1 */
	char pad[CACHELINE];	/* cppcheck-suppress unusedStructMember */
};

union lockstore {
	union lb_anylock lb;
	struct qspinlock q;
	pthread_spinlock_t spin;
	pthread_mutex_t mutex;
};

struct shared;

/*
 * Grant order.  Each acquisition is logged by its thread in its own array
 * (no shared line is written for it), as a struct lb_grant (metrics.h):
 * its place in the grant order (the shared counter, read inside the
 * critical section); the arrival counter read just before the lock's
 * first attempt (snap); if that attempt was refused, the arrival counter
 * incremented right after it (stamp); for a ticket lock, the ticket its
 * xadd took.  lb_grant_order() turns the logs into bypasses and ticket
 * breaks after the run.
 */
struct thr {
	lb_u32 id;
	int cpu;		/* -1: not pinned */
	struct shared *sh;
	pthread_t tid;
	lb_u64 acq;		/* own acquisitions, written in the CS */
	lb_u64 acq_first;	/* acq when the first thread finished */
	lb_u64 longest_run;	/* longest run of own consecutive grants */
	lb_u64 t_start, t_end;	/* CLOCK_MONOTONIC ns */
	struct lb_hist hist;	/* wait times with -p */
	struct lb_grant *log;	/* one entry per own acquisition */
} __attribute__((aligned(HOT_ALIGN)));

struct shared {
	union lockstore lock __attribute__((aligned(HOT_ALIGN)));
	lb_u64 arrivals __attribute__((aligned(HOT_ALIGN)));	/* stamps */
	lb_u32 arrived __attribute__((aligned(HOT_ALIGN)));	/* barrier */
	enum fkind kind __attribute__((aligned(HOT_ALIGN)));
	lb_u32 nthreads;
	lb_u32 cs_lines;
	int timing;
	int order;		/* log grants (not -G) */
	lb_u64 iters;
	lb_u64 think;
	lb_u64 t0;		/* common start of the last run */
	union csline *lines;
	struct thr *thr;
};

static inline void compiler_barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

static inline lb_u64 tsc_now(void)
{
	lb_u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi));
	return ((lb_u64)hi << 32) | lo;
}

/*
 * Lock operations; with a constant kind the switch folds away, so each
 * worker_loop() instantiation below calls exactly one lock's code.
 *
 * do_take() is the lock's own first attempt (legacy's first decl, a ticket
 * lock's xadd, pthread's trylock) and says whether it got the lock; if not,
 * do_wait() finishes the acquisition.  Between the two the caller stamps
 * its arrival (see "Grant order" below).  *tok carries what the lock needs
 * from one to the other (a ticket lock: the word its xadd returned).
 */
static inline __attribute__((always_inline)) int
do_take(enum fkind k, union lockstore *l, lb_u32 *tok)
{
	*tok = 0;
	if (K_IS_LB(k))
		return LB_TAKE((enum lb_lock_kind)k, &l->lb, tok);
	switch (k) {
	case K_QSPINLOCK:
		return kqspin_take(&l->q, tok);
	case K_PTHREAD_SPIN:
		return pthread_spin_trylock(&l->spin) == 0;
	case K_PTHREAD_MUTEX:
		return pthread_mutex_trylock(&l->mutex) == 0;
	default:
		compiler_barrier();	/* K_NONE: no mutual exclusion */
		return 1;
	}
}

static inline __attribute__((always_inline)) void
do_wait(enum fkind k, union lockstore *l, lb_u32 tok)
{
	if (K_IS_LB(k)) {
		LB_WAIT((enum lb_lock_kind)k, &l->lb, tok);
		return;
	}
	switch (k) {
	case K_QSPINLOCK:
		kqspin_wait(&l->q, tok);
		break;
	case K_PTHREAD_SPIN:
		pthread_spin_lock(&l->spin);
		break;
	case K_PTHREAD_MUTEX:
		pthread_mutex_lock(&l->mutex);
		break;
	default:
		break;
	}
}

static inline __attribute__((always_inline)) void
do_unlock(enum fkind k, union lockstore *l)
{
	if (K_IS_LB(k)) {
		LB_UNLOCK((enum lb_lock_kind)k, &l->lb);
		return;
	}
	switch (k) {
	case K_QSPINLOCK:
		queued_spin_unlock(&l->q);
		break;
	case K_PTHREAD_SPIN:
		pthread_spin_unlock(&l->spin);
		break;
	case K_PTHREAD_MUTEX:
		pthread_mutex_unlock(&l->mutex);
		break;
	default:
		compiler_barrier();
		break;
	}
}

/*
 * The critical section.  Everything here is plain loads and stores; the
 * lock under test is what keeps it consistent.  The thread's grant count
 * and the run tracking are updated here, so they are ordered exactly as
 * the lock granted; the first thread to reach its last grant copies every
 * thread's count (stable: they only change inside this section).
 */
static inline __attribute__((always_inline)) void
critical_section(struct shared *sh, struct thr *t, lb_u64 i, lb_u64 iters,
		 lb_u32 cs_lines, const struct lb_grant *g)
{
	struct bookkeeping *bk = &sh->lines[0].bk;
	lb_u64 len;
	lb_u32 j;

	if (g) {
		t->log[i] = *g;
		t->log[i].seq = bk->counter;
	}
	bk->counter++;
	for (j = 1; j < cs_lines; j++)
		sh->lines[j].v++;

	t->acq = i + 1;
	len = lb_run_grant(&bk->run, t->id, bk->running > 1);
	if (len > t->longest_run)
		t->longest_run = len;

	if (i + 1 == iters) {
		if (!bk->first_done) {
			bk->first_done = 1;
			for (j = 0; j < sh->nthreads; j++)
				sh->thr[j].acq_first = sh->thr[j].acq;
		}
		bk->running--;
	}
}

static inline __attribute__((always_inline)) void
worker_loop(struct thr *t, enum fkind k)
{
	struct shared *sh = t->sh;
	union lockstore *l = &sh->lock;
	const lb_u64 iters = sh->iters, think = sh->think;
	const lb_u32 cs_lines = sh->cs_lines;
	const int timing = sh->timing, order = sh->order;
	lb_u64 i, n, t0 = 0;

	for (i = 0; i < iters; i++) {
		struct lb_grant g = { .who = t->id };
		lb_u64 wait;
		lb_u32 tok;

		if (timing)
			t0 = tsc_now();
		if (order)
			g.snap = __atomic_load_n(&sh->arrivals, __ATOMIC_SEQ_CST);
		if (!do_take(k, l, &tok)) {
			/* refused: stamp the arrival, then wait */
			if (order)
				g.stamp = __atomic_add_fetch(&sh->arrivals, 1,
							     __ATOMIC_SEQ_CST);
			do_wait(k, l, tok);
		}
		wait = timing ? tsc_now() - t0 : 0;
		if (K_IS_LB(k))
			g.ticket = lb_ticket((enum lb_lock_kind)k, tok);
		critical_section(sh, t, i, iters, cs_lines, order ? &g : NULL);
		do_unlock(k, l);
		if (timing)
			lb_hist_add(&t->hist, wait);
		for (n = 0; n < think; n++)
			lb_cpu_relax();
	}
}

#define DEFINE_LOOP(kind)						\
static void loop_##kind(struct thr *t)					\
{									\
	worker_loop(t, kind);						\
}
#define LB_X(ID, name, type)	DEFINE_LOOP(K_##ID)
LB_LOCKS(LB_X)
#undef LB_X
DEFINE_LOOP(K_QSPINLOCK)
DEFINE_LOOP(K_PTHREAD_SPIN)
DEFINE_LOOP(K_PTHREAD_MUTEX)
DEFINE_LOOP(K_NONE)

static void (*const loops[K_NR])(struct thr *) = {
#define LB_X(ID, name, type)	[K_##ID] = loop_K_##ID,
	LB_LOCKS(LB_X)
#undef LB_X
	[K_QSPINLOCK]		= loop_K_QSPINLOCK,
	[K_PTHREAD_SPIN]	= loop_K_PTHREAD_SPIN,
	[K_PTHREAD_MUTEX]	= loop_K_PTHREAD_MUTEX,
	[K_NONE]		= loop_K_NONE,
};

/*
 * Start barrier: everybody spins until all have arrived, so the last
 * arrival releases all threads at once (a futex barrier would wake them
 * one by one).  sched_yield() now and then in case CPUs are oversubscribed.
 */
static void start_barrier(struct shared *sh)
{
	unsigned int spins = 0;

	__atomic_add_fetch(&sh->arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&sh->arrived, __ATOMIC_ACQUIRE) < sh->nthreads) {
		lb_cpu_relax();
		if (!(++spins & 0xffff))
			sched_yield();
	}
}

static void *thread_fn(void *arg)
{
	struct thr *t = arg;
	struct shared *sh = t->sh;

	kqspin_thread_init((int)t->id);	/* qspinlock's per-CPU MCS nodes */
	start_barrier(sh);
	t->t_start = lb_now_ns();
	loops[sh->kind](t);
	t->t_end = lb_now_ns();
	return NULL;
}

/* ------------------------------------------------------------------ */

struct result {
	enum fkind kind;
	lb_u64 total_ns, throughput, throughput_all, start_skew;
	lb_u64 time_min, time_max, spread;
	lb_u64 jain, acq_min, acq_max, acq_spread;
	lb_u64 longest_run;
	lb_u32 longest_run_thread;
	lb_u32 cpus;
	int counter_ok;
	int order;		/* 1 analysed, 0 not asked (-G), -1 log bad */
	struct lb_order ord;
	int ticket;		/* a ticket lock: ticket_breaks is meaningful */
	struct lb_hist hist;
	lb_u64 tl_start, tl_len;	/* -T: a window of the grant order */
	lb_u32 *tl_who;
};

struct options {
	lb_u32 threads;
	lb_u64 iters;
	lb_u32 cs_lines;
	lb_u64 think;
	int kv, timing, verbose, order;
	int oversub;		/* -o: more threads than CPUs allowed */
	lb_u64 timeline;	/* -T: grants in the timeline window */
	lb_u64 patience_us;	/* -P: skipticket's patience */
	int seq[K_NR];		/* the locks to run, in this order */
	int nseq;
	int named;		/* -l given */
};

static int cpu_list[CPU_SETSIZE];
static int ncpus;

static void die(const char *what)
{
	fprintf(stderr, "fairness: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int init_lock(enum fkind k, union lockstore *l)
{
	memset(l, 0, sizeof(*l));
	if (K_IS_LB(k)) {
		LB_INIT((enum lb_lock_kind)k, &l->lb);
		return 0;
	}
	switch (k) {
	case K_QSPINLOCK:
		kqspin_init(&l->q);
		return 0;
	case K_PTHREAD_SPIN:
		return pthread_spin_init(&l->spin, PTHREAD_PROCESS_PRIVATE);
	case K_PTHREAD_MUTEX:
		return pthread_mutex_init(&l->mutex, NULL);
	default:
		return 0;
	}
}

/* The grant order of the last run, from the threads' logs (metrics.c). */
static void grant_order(enum fkind k, const struct options *o,
			const struct shared *sh, struct result *r)
{
	lb_u64 n = (lb_u64)o->threads * o->iters;
	const struct lb_grant **logs = calloc(o->threads, sizeof(*logs));
	lb_u64 *lens = calloc(o->threads, sizeof(*lens));
	const struct lb_grant **by = calloc(n, sizeof(*by));
	unsigned char *passed = calloc(n, 1);
	lb_u32 *bit = calloc(n + 1, sizeof(*bit));
	lb_u32 bits = K_IS_LB(k) ? lb_ticket_bits((enum lb_lock_kind)k) : 0;
	lb_u32 t;

	if (!logs || !lens || !by || !passed || !bit)
		die("calloc (grant order)");
	for (t = 0; t < o->threads; t++) {
		logs[t] = sh->thr[t].log;
		lens[t] = o->iters;
	}
	r->ticket = bits != 0;
	r->order = lb_grant_order(logs, lens, o->threads, bits, by, passed,
				  bit, &r->ord) ? -1 : 1;
	if (r->order == 1 && o->timeline) {
		/* centred on the middle of the contended phase */
		lb_u64 first = 0, i;

		for (t = 0; t < o->threads; t++)
			first += sh->thr[t].acq_first;
		r->tl_len = o->timeline < n ? o->timeline : n;
		r->tl_start = first / 2 > r->tl_len / 2 ? first / 2 - r->tl_len / 2 : 0;
		if (r->tl_start + r->tl_len > n)
			r->tl_start = n - r->tl_len;
		r->tl_who = malloc(r->tl_len * sizeof(*r->tl_who));
		if (!r->tl_who)
			die("malloc (timeline)");
		for (i = 0; i < r->tl_len; i++)
			r->tl_who[i] = by[r->tl_start + i]->who;
	}
	free(logs);
	free(lens);
	free(by);
	free(passed);
	free(bit);
}

static void destroy_lock(enum fkind k, union lockstore *l)
{
	if (k == K_PTHREAD_SPIN)
		pthread_spin_destroy(&l->spin);
	else if (k == K_PTHREAD_MUTEX)
		pthread_mutex_destroy(&l->mutex);
}

static void run_lock(enum fkind k, const struct options *o,
		     struct shared *sh, struct result *r)
{
	lb_u64 *v = calloc(o->threads, sizeof(*v));
	lb_u64 start_min = ~0ULL, start_max = 0, end_max = 0, expect, sum;
	int used[CPU_SETSIZE] = { 0 };
	static int warned_pin;
	lb_u32 i, j;
	int err;

	if (!v)
		die("calloc");
	free(r->tl_who);		/* the previous lock's timeline */
	memset(r, 0, sizeof(*r));
	r->kind = k;
	lb_hist_init(&r->hist);

	sh->kind = k;
	sh->arrived = 0;
	memset(sh->lines, 0, (size_t)o->cs_lines * sizeof(*sh->lines));
	sh->lines[0].bk.running = o->threads;
	lb_run_init(&sh->lines[0].bk.run);
	memset(sh->thr, 0, (size_t)o->threads * sizeof(*sh->thr));
	err = init_lock(k, &sh->lock);
	if (err) {
		errno = err;
		die("lock init");
	}

	sh->arrivals = 0;
	for (i = 0; i < o->threads; i++) {
		struct thr *t = &sh->thr[i];
		pthread_attr_t attr;
		cpu_set_t set;

		t->log = NULL;
		if (o->order) {
			t->log = malloc((size_t)o->iters * sizeof(*t->log));
			if (!t->log) {
				fprintf(stderr,
					"fairness: out of memory for the grant log (%llu grants x %zu bytes): lower -n, or -G\n",
					(lb_u64)o->threads * o->iters,
					sizeof(*t->log));
				exit(1);
			}
			/* fault the pages in now, not inside critical sections */
			memset(t->log, 0, (size_t)o->iters * sizeof(*t->log));
		}
		t->id = i;
		t->sh = sh;
		t->cpu = cpu_list[i % (lb_u32)ncpus];
		lb_hist_init(&t->hist);

		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		err = pthread_create(&t->tid, &attr, thread_fn, t);
		pthread_attr_destroy(&attr);
		if (err == EINVAL) {
			/* affinity refused (cpuset?): run unpinned */
			if (!warned_pin++)
				fprintf(stderr,
					"fairness: warning: cannot pin threads, running unpinned\n");
			t->cpu = -1;
			err = pthread_create(&t->tid, NULL, thread_fn, t);
		}
		if (err) {
			errno = err;
			die("pthread_create");
		}
	}
	for (i = 0; i < o->threads; i++) {
		err = pthread_join(sh->thr[i].tid, NULL);
		if (err) {
			errno = err;
			die("pthread_join");
		}
	}
	destroy_lock(k, &sh->lock);

	/* correctness: every touched line saw every increment */
	expect = (lb_u64)o->threads * o->iters;
	r->counter_ok = sh->lines[0].bk.counter == expect;
	for (j = 1; j < o->cs_lines; j++)
		if (sh->lines[j].v != expect)
			r->counter_ok = 0;
	if (!r->counter_ok)
		fprintf(stderr,
			"fairness: ERROR: lock %s lost updates: counter %llu, expected %llu\n",
			kind_names[k], sh->lines[0].bk.counter, expect);

	for (i = 0; i < o->threads; i++) {
		struct thr *t = &sh->thr[i];

		if (t->t_start < start_min)
			start_min = t->t_start;
		if (t->t_start > start_max)
			start_max = t->t_start;
		if (t->t_end > end_max)
			end_max = t->t_end;
	}
	sh->t0 = start_min;
	r->start_skew = start_max - start_min;
	for (i = 0; i < o->threads; i++) {
		struct thr *t = &sh->thr[i];

		v[i] = t->t_end - start_min;	/* finish time */
		if (t->cpu >= 0 && !used[t->cpu]) {
			used[t->cpu] = 1;
			r->cpus++;
		}
		lb_hist_merge(&r->hist, &t->hist);
		if (t->longest_run > r->longest_run) {
			r->longest_run = t->longest_run;
			r->longest_run_thread = i;
		}
	}
	r->total_ns = end_max - start_min;
	if (!r->total_ns)
		r->total_ns = 1;
	r->throughput_all = (lb_u64)lb_udiv128((lb_u128)expect * 1000000000ULL,
					       r->total_ns);
	lb_minmax(v, o->threads, &r->time_min, &r->time_max);
	r->spread = lb_spread_ppm(v, o->threads);

	/*
	 * Throughput over the contended phase: the grants all threads had
	 * when the first finished, over its runtime.  After that fewer threads
	 * contend (the last runs alone), which flatters a lock that lets one
	 * thread finish early.
	 */
	sum = 0;
	for (i = 0; i < o->threads; i++) {
		v[i] = sh->thr[i].acq_first;
		sum += v[i];
	}
	r->throughput = (lb_u64)lb_udiv128((lb_u128)sum * 1000000000ULL,
					   r->time_min ? r->time_min : 1);
	r->jain = lb_jain_ppm(v, o->threads);
	lb_minmax(v, o->threads, &r->acq_min, &r->acq_max);
	r->acq_spread = lb_spread_ppm(v, o->threads);
	free(v);
	if (o->order)
		grant_order(k, o, sh, r);
	for (i = 0; i < o->threads; i++)
		free(sh->thr[i].log);
}

/* ------------------------------------------------------------------ */
/* output                                                              */
/* ------------------------------------------------------------------ */

/* Fixed point (1e6 = 1.0) to text with @dec (1..6) decimals, rounded. */
static const char *fixed(char *buf, size_t len, lb_u64 ppm, int dec)
{
	lb_u64 div = 1, pow = 1, q;
	int i;

	if (ppm == LB_SPREAD_INF) {
		snprintf(buf, len, "inf");
		return buf;
	}
	for (i = dec; i < 6; i++)
		div *= 10;
	for (i = 0; i < dec; i++)
		pow *= 10;
	q = ppm / div + (ppm % div >= div / 2 && div > 1);
	snprintf(buf, len, "%llu.%0*llu", q / pow, dec, q % pow);
	return buf;
}

/* " KEY=b:count,..." over the non-empty log2 buckets, "-" if none. */
static void print_hist(const char *key, const struct lb_hist *h)
{
	lb_u32 b;
	int first = 1;

	printf(" %s=", key);
	for (b = 0; b < LB_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		printf("%s%u:%llu", first ? "" : ",", b, h->bucket[b]);
		first = 0;
	}
	if (first)
		printf("-");
}

static void print_kv(const struct options *o, const struct result *r)
{
	char s[32], j[32], a[32];

	printf("lock=%s threads=%u iters=%llu cs_lines=%u think=%llu cpus=%u"
	       " total_ns=%llu throughput=%llu throughput_all=%llu"
	       " time_min_ns=%llu"
	       " time_max_ns=%llu start_skew_ns=%llu spread=%s jain=%s"
	       " acq_min=%llu"
	       " acq_max=%llu acq_spread=%s longest_run=%llu"
	       " longest_run_thread=%u counter=%s",
	       kind_names[r->kind], o->threads, o->iters, o->cs_lines,
	       o->think, r->cpus, r->total_ns, r->throughput,
	       r->throughput_all, r->time_min,
	       r->time_max, r->start_skew, fixed(s, sizeof(s), r->spread, 3),
	       fixed(j, sizeof(j), r->jain, 6), r->acq_min, r->acq_max,
	       fixed(a, sizeof(a), r->acq_spread, 3), r->longest_run,
	       r->longest_run_thread, r->counter_ok ? "ok" : "BAD");
	if (o->timing)
		printf(" wait_p50=%llu wait_p99=%llu wait_max=%llu",
		       lb_hist_percentile(&r->hist, 500000),
		       lb_hist_percentile(&r->hist, 990000), r->hist.max);
	if (r->order == 1) {
		printf(" order=ok waits=%llu bypasses=%llu bypass_share=%s"
		       " bypass_max=%llu bypass_run=%llu", r->ord.waits,
		       r->ord.bypasses, fixed(s, sizeof(s), r->ord.bypass_share, 6),
		       r->ord.bypass_max, r->ord.bypass_run);
		if (r->ticket)
			printf(" ticket_breaks=%llu", r->ord.ticket_breaks);
		print_hist("bypass_hist", &r->ord.passed);
	} else {
		printf(" order=%s", r->order ? "BAD" : "off");
	}
	if (o->timing)
		print_hist("wait_hist", &r->hist);
	printf("\n");
	if (r->tl_who) {
		lb_u64 i;

		printf("timeline=%s start=%llu grants=%llu who=", kind_names[r->kind],
		       r->tl_start, r->tl_len);
		for (i = 0; i < r->tl_len; i++)
			printf("%s%u", i ? "," : "", r->tl_who[i]);
		printf("\n");
	}
}

static void print_threads(const struct options *o, const struct shared *sh,
			  const struct result *r)
{
	lb_u32 i;

	for (i = 0; i < o->threads; i++) {
		const struct thr *t = &sh->thr[i];

		printf("thread=%u lock=%s cpu=%d start_ns=%llu runtime_ns=%llu"
		       " acq_at_first_finish=%llu longest_run=%llu\n",
		       i, kind_names[r->kind], t->cpu, t->t_start - sh->t0,
		       t->t_end - sh->t0, t->acq_first, t->longest_run);
	}
}

static void print_header(const struct options *o)
{
	int i;

	printf("# fairness: %u threads x %llu iterations, %u cs line%s,"
	       " think %llu, CPUs", o->threads, o->iters, o->cs_lines,
	       o->cs_lines == 1 ? "" : "s", o->think);
	for (i = 0; i < ncpus && i < 16; i++)
		printf("%c%d", i ? ',' : ' ', cpu_list[i]);
	printf("%s\n", ncpus > 16 ? ",..." : "");
	printf("%-13s %4s %9s %9s %8s %8s %7s %8s %9s %9s %7s",
	       "lock", "thr", "total_ms", "Macq/s", "skew_us", "spread",
	       "acq_spr", "jain", "acq_min", "acq_max", "longest");
	if (o->timing)
		printf(" %8s %8s %10s", "wait_p50", "wait_p99", "wait_max");
	if (o->order)
		printf(" %9s %7s %7s", "bypasses", "byp_max", "byp_run");
	printf(" %s\n", "counter");
}

static void print_row(const struct options *o, const struct result *r)
{
	char s[32], j[32], a[32];

	printf("%-13s %4u %5llu.%03llu %5llu.%03llu %8llu %8s %7s %8s %9llu %9llu %7llu",
	       kind_names[r->kind], o->threads,
	       r->total_ns / 1000000, r->total_ns / 1000 % 1000,
	       r->throughput / 1000000, r->throughput / 1000 % 1000,
	       r->start_skew / 1000,
	       fixed(s, sizeof(s), r->spread, 3),
	       fixed(a, sizeof(a), r->acq_spread, 3),
	       fixed(j, sizeof(j), r->jain, 6),
	       r->acq_min, r->acq_max, r->longest_run);
	if (o->timing)
		printf(" %8llu %8llu %10llu",
		       lb_hist_percentile(&r->hist, 500000),
		       lb_hist_percentile(&r->hist, 990000), r->hist.max);
	if (r->order == 1)
		printf(" %9llu %7llu %7llu", r->ord.bypasses, r->ord.bypass_max,
		       r->ord.bypass_run);
	else if (o->order)
		printf(" %9s %7s %7s", "BAD", "-", "-");
	printf(" %s\n", r->counter_ok ? "ok" : "BAD");
}

/* ------------------------------------------------------------------ */
/* options                                                             */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fairness [-t THREADS] [-n ITERATIONS] [-l LOCK[,LOCK..]] [-c CS_LINES]\n"
		"                [-w THINK] [-k] [-p] [-v] [-G] [-o] [-T N] [-P US] [-L] [-M] [-h]\n"
		"  -t  threads, pinned round robin (default: online CPUs, max %d)\n"
		"  -n  acquisitions per thread (default 1000000)\n"
		"  -l  locks of -L's list, or all (default), run in the order given;\n"
		"      none = no lock, to test the counter check (expect exit 1)\n"
		"  -L  print the locks it knows, one per line, and exit\n"
		"  -M  print the locks of lib/locks.h (lockbench's too), and exit\n"
		"  -c  shared cache lines written in the critical section (default 1, max %d)\n"
		"  -w  PAUSEs after each unlock (default 0)\n"
		"  -k  key=value output    -p  wait-time percentiles (TSC cycles)\n"
		"  -v  per-thread lines    -G  no grant-order log (bypasses)\n"
		"  -o  allow more threads than CPUs\n"
		"  -T  N: print N grants of the grant order (who took each), from the\n"
		"      middle of the contended phase (with -k, needs the grant log)\n"
		"  -P  skipticket's patience in microseconds (default 100, max 10000)\n"
		"  -h  this help\n",
		MAX_THREADS, MAX_CS_LINES);
}

static void bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "fairness: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see fairness -h)\n");
	exit(2);
}

/* Decimal number in [min, max], digits only; anything else is fatal. */
static lb_u64 parse_num(const char *opt, const char *s, lb_u64 min,
			lb_u64 max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end) {
		fprintf(stderr, "fairness: %s %s: not a number (see fairness -h)\n",
			opt, s);
		exit(2);
	}
	if (errno == ERANGE || v < min || v > max) {
		fprintf(stderr, "fairness: %s %s: must be %llu..%llu (see fairness -h)\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

static void parse_locks(struct options *o, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int k, i;

	if (!copy)
		die("strdup");
	o->nseq = 0;
	o->named = 1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int add[K_NR], n = 0;

		if (!strcmp(tok, "all")) {
			for (k = 0; k <= K_PTHREAD_MUTEX; k++)
				add[n++] = k;
		} else {
			for (k = 0; k < K_NR; k++)
				if (!strcmp(tok, kind_names[k]))
					break;
			if (k == K_NR)
				bad_usage("unknown lock '%s': fairness -L lists the locks (or all)",
					  tok);
			add[n++] = k;
		}
		for (k = 0; k < n; k++) {
			for (i = 0; i < o->nseq; i++)
				if (o->seq[i] == add[k])
					bad_usage("-l: lock '%s' given twice",
						  kind_names[add[k]]);
			o->seq[o->nseq++] = add[k];
		}
	}
	free(copy);
	if (!o->nseq)
		bad_usage("-l '%s': no lock given", arg);
}

static void find_cpus(void)
{
	cpu_set_t set;
	int c;

	ncpus = 0;
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpu_list[ncpus++] = c;
	}
	if (!ncpus) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		for (c = 0; c < n && c < CPU_SETSIZE; c++)
			cpu_list[ncpus++] = c;
	}
	if (!ncpus)
		cpu_list[ncpus++] = 0;
}

int main(int argc, char **argv)
{
	struct options o = {
		.iters = 1000000,
		.cs_lines = 1,
		.order = 1,
		.patience_us = 100,
	};
	struct shared *sh;
	struct result r;
	void *p1, *p2, *p3;
	long online;
	int opt, k, i, bad = 0;

	for (k = 0; k <= K_PTHREAD_MUTEX; k++)
		o.seq[o.nseq++] = k;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	o.threads = online > 0 ? (online > MAX_THREADS ? MAX_THREADS :
				  (lb_u32)online) : 1;

	opterr = 0;
	while ((opt = getopt(argc, argv, "t:n:l:LMc:w:kpvGoT:P:h")) != -1) {
		switch (opt) {
		case 't':
			o.threads = (lb_u32)parse_num("-t", optarg, 1,
							MAX_THREADS);
			break;
		case 'n':
			o.iters = parse_num("-n", optarg, 1, MAX_ITERS);
			break;
		case 'l':
			parse_locks(&o, optarg);
			break;
		case 'L':
		case 'M':
			for (k = 0; k <= K_PTHREAD_MUTEX; k++)
				if (opt == 'L' || K_IS_LB(k))
					printf("%s\n", kind_names[k]);
			return 0;
		case 'c':
			o.cs_lines = (lb_u32)parse_num("-c", optarg, 1,
							 MAX_CS_LINES);
			break;
		case 'w':
			o.think = parse_num("-w", optarg, 0, 1ULL << 40);
			break;
		case 'k':
			o.kv = 1;
			break;
		case 'p':
			o.timing = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'G':
			o.order = 0;
			break;
		case 'o':
			o.oversub = 1;
			break;
		case 'T':
			o.timeline = parse_num("-T", optarg, 1, 1000000);
			break;
		case 'P':
			o.patience_us = parse_num("-P", optarg, 1, 10000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default: {
			char optstr[3] = { '-', (char)optopt, 0 };

			if (optopt && strchr("tnlcwTP", optopt))
				bad_usage("option %s needs a value", optstr);
			bad_usage("unknown option %s", optstr);
		}
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);

	for (k = 0; k < o.nseq; k++) {
		lb_u32 max = K_IS_LB(o.seq[k]) ?
			     lb_lock_max_cpus((enum lb_lock_kind)o.seq[k]) : 0;

		if (!max || o.threads <= max)
			continue;
		if (o.named) {
			fprintf(stderr, "fairness: %s supports at most %u threads (see fairness -h)\n",
				kind_names[o.seq[k]], max);
			return 2;
		}
		fprintf(stderr, "fairness: note: skipping %s, more than %u threads\n",
			kind_names[o.seq[k]], max);
		memmove(&o.seq[k], &o.seq[k + 1], (o.nseq - k - 1) * sizeof(o.seq[0]));
		o.nseq--;
		k--;
	}

	if (o.order && (lb_u64)o.threads * o.iters > MAX_LOGGED) {
		fprintf(stderr, "fairness: note: -t %u x -n %llu is more than %llu grants to log: no grant order (order=off); lower -n to get it\n",
			o.threads, o.iters, MAX_LOGGED);
		o.order = 0;
	}

	skt_set_patience_us(o.patience_us);
	find_cpus();
	if (o.threads > (lb_u32)ncpus && !o.oversub) {
		fprintf(stderr, "fairness: -t %u: more threads than the %d CPUs this process may run on (-o allows it)\n",
			o.threads, ncpus);
		return 2;
	}
	if (o.threads > (lb_u32)ncpus)
		fprintf(stderr, "fairness: warning: %u threads on %d CPUs: spinlock results are not meaningful\n",
			o.threads, ncpus);

	if (posix_memalign(&p1, HOT_ALIGN, sizeof(*sh)) ||
	    posix_memalign(&p2, HOT_ALIGN,
			   (size_t)o.cs_lines * sizeof(*sh->lines)) ||
	    posix_memalign(&p3, HOT_ALIGN,
			   (size_t)o.threads * sizeof(*sh->thr))) {
		fprintf(stderr, "fairness: out of memory\n");
		return 1;
	}
	sh = p1;
	memset(sh, 0, sizeof(*sh));
	sh->lines = p2;
	sh->thr = p3;
	sh->nthreads = o.threads;
	sh->iters = o.iters;
	sh->cs_lines = o.cs_lines;
	sh->think = o.think;
	sh->timing = o.timing;
	sh->order = o.order;
	memset(&r, 0, sizeof(r));

	if (!o.kv)
		print_header(&o);
	for (i = 0; i < o.nseq; i++) {
		k = o.seq[i];
		run_lock((enum fkind)k, &o, sh, &r);
		if (o.kv)
			print_kv(&o, &r);
		else
			print_row(&o, &r);
		if (o.verbose)
			print_threads(&o, sh, &r);
		fflush(stdout);
		if (!r.counter_ok || r.order < 0)
			bad = 1;
		if (r.order < 0)
			fprintf(stderr, "fairness: ERROR: lock %s: the grant log does not hold one grant per place\n",
				kind_names[k]);
	}
	free(sh->lines);
	free(sh->thr);
	free(sh);
	return bad ? 1 : 0;
}
