// SPDX-License-Identifier: GPL-2.0
/*
 * cost.c - what a lock costs on this machine's real cores: the uncontended
 * lock+unlock pair, and the contended handoff between two cores beside the
 * cache-line ping-pong that bounds it.
 *
 * Locks: every lock of lib/locks.h's list, LB_LOCKS(): legacy (the 2.6.24
 * decrement lock, the seed's asm), ticket8 and ticket16 (the series' own
 * ticket lock from the patched tree, both widths, lib/series.h), skipticket
 * (the series' skip-ticket lock, the same way; its slow path out of line as
 * in the kernel) and any lock added there; then qspinlock (the
 * kernel's native queued spinlock: asm-generic/qspinlock.h's fast path
 * inline,
 * kernel/locking/qspinlock.c's slow path, lib/kqspinlock.h), generic
 * (include/asm-generic/spinlock.h's ticket lock from the same tree),
 * pthread_spin and pthread_mutex. Every lock is called inline through the
 * same loop shape (one macro instantiates it per lock), as a kernel caller
 * of spin_lock() gets arch_spin_lock() inline.
 *
 * Where a loop's code lies moves its figure: one ticket lock's handoff,
 * with the loops moved by 16 bytes, went from 1.5x to 0.95x another ticket
 * lock's (docs/experiments/handoff-gap.c). So each loop is compiled
 * PLACEMENTS times, each copy 64-byte aligned and moved by 8 more bytes
 * (the Makefile builds this file without loop alignment, so that the move
 * reaches every loop), and a round's figure is the median over the copies,
 * each run for 1/PLACEMENTS of the round's pairs or handoffs.
 *
 * Usage: cost [-r ROUNDS] [-n PAIRS] [-c CPU,CPU] [-l LOCK,...]
 *   -r  rounds per figure; the median is reported (default 11)
 *   -n  lock+unlock pairs per uncontended round, and 10x the round trips
 *       per contended round (default 1000000), shared among the
 *       placements
 *   -c  the two CPUs of the contended runs (default: the first two this
 *       process may run on); the uncontended runs use the first
 *   -l  locks (default all)
 *
 * Output, one key=value line per figure:
 *   cost=uncontended lock=L cycles=C ns=N         per lock+unlock pair
 *   cost=pingpong ns=N                            one cache-line transfer
 *   cost=handoff lock=L ns=N ratio=R              per acquisition with two
 *                                                 threads strictly taking
 *                                                 turns; R = N / pingpong
 * cycles are TSC cycles (rdtsc), ns from CLOCK_MONOTONIC; each is the median
 * of the rounds, with the lowest and highest round (lo=, hi=).
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
#include "uclock.h"

#define MAX_ROUNDS	101
#define PLACEMENTS	8	/* copies of each loop, 8 bytes apart */

static inline unsigned long long tsc_fenced(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("lfence; rdtsc; lfence" : "=a" (lo), "=d" (hi) : : "memory");
	return ((unsigned long long)hi << 32) | lo;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* Median of n values (sorted in place). */
static unsigned long long median(unsigned long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* One lock of each kind, each on its own cache line. */
static struct {
#define LB_X(ID, name, type)	type name __attribute__((aligned(64)));
	LB_LOCKS(LB_X)		/* the locks of lib/locks.h */
#undef LB_X
	struct qspinlock qspinlock __attribute__((aligned(64)));
	generic_t generic __attribute__((aligned(64)));
	pthread_spinlock_t spin __attribute__((aligned(64)));
	pthread_mutex_t mutex __attribute__((aligned(64)));
	/* The data a critical section writes, and the turn of the handoff. */
	volatile unsigned long data __attribute__((aligned(64)));
	volatile int turn __attribute__((aligned(64)));
	volatile int ready;
	volatile int go;
} L;

#define LOCK_qspinlock()	queued_spin_lock(&L.qspinlock)
#define UNLOCK_qspinlock()	queued_spin_unlock(&L.qspinlock)
#define LOCK_generic()		generic_lock(&L.generic)
#define UNLOCK_generic()	generic_unlock(&L.generic)
#define LOCK_pthread_spin()	pthread_spin_lock(&L.spin)
#define UNLOCK_pthread_spin()	pthread_spin_unlock(&L.spin)
#define LOCK_pthread_mutex()	pthread_mutex_lock(&L.mutex)
#define UNLOCK_pthread_mutex()	pthread_mutex_unlock(&L.mutex)

typedef void uncontended_fn(long, unsigned long long *, unsigned long long *);
typedef void handoff_fn(int, long);

/*
 * uncontended_L_P(n): n lock+unlock pairs with an empty critical section,
 * returns TSC cycles and ns through pointers. handoff_L_P(me, n): take the
 * lock when it is this thread's turn, give the turn away inside, n times.
 * P is the placement: P * 8 bytes of nops at the top of the function.
 */
#define DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, P)				\
static __attribute__((noinline, aligned(64))) void				\
uncontended_##name##_##P(long n, unsigned long long *cyc,			\
			 unsigned long long *ns)				\
{									\
	unsigned long long t0, c0;					\
	long i;								\
									\
	__asm__ __volatile__(".fill " #P " * 8, 1, 0x90");		\
	t0 = lb_now_ns();						\
	c0 = tsc_fenced();						\
	for (i = 0; i < n; i++) {					\
		LOCK;							\
		UNLOCK;							\
	}								\
	*cyc = tsc_fenced() - c0;					\
	*ns = lb_now_ns() - t0;						\
}									\
static __attribute__((noinline, aligned(64))) void				\
handoff_##name##_##P(int me, long n)					\
{									\
	long i;								\
									\
	__asm__ __volatile__(".fill " #P " * 8, 1, 0x90");		\
	for (i = 0; i < n; i++) {					\
		while (L.turn != me)					\
			__asm__ __volatile__("pause" ::: "memory");	\
		LOCK;							\
		L.data++;						\
		L.turn = !me;						\
		UNLOCK;							\
	}								\
}

/* PLACEMENTS copies of each, and the tables of them. */
#define DEFINE_LOCK_OPS(name, LOCK, UNLOCK)				\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 0)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 1)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 2)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 3)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 4)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 5)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 6)			\
	DEFINE_LOCK_OPS_AT(name, LOCK, UNLOCK, 7)			\
static uncontended_fn *const uncontended_##name[PLACEMENTS] = {		\
	uncontended_##name##_0, uncontended_##name##_1,			\
	uncontended_##name##_2, uncontended_##name##_3,			\
	uncontended_##name##_4, uncontended_##name##_5,			\
	uncontended_##name##_6, uncontended_##name##_7,			\
};									\
static handoff_fn *const handoff_##name[PLACEMENTS] = {			\
	handoff_##name##_0, handoff_##name##_1, handoff_##name##_2,	\
	handoff_##name##_3, handoff_##name##_4, handoff_##name##_5,	\
	handoff_##name##_6, handoff_##name##_7,				\
};

#define DEFINE_LOCK(name)	DEFINE_LOCK_OPS(name, LOCK_##name(), UNLOCK_##name())

#define LB_X(ID, name, type)						\
	DEFINE_LOCK_OPS(name, lb_##name##_lock(&L.name), lb_##name##_unlock(&L.name))
LB_LOCKS(LB_X)
#undef LB_X
DEFINE_LOCK(qspinlock)
DEFINE_LOCK(generic)
DEFINE_LOCK(pthread_spin)
DEFINE_LOCK(pthread_mutex)

static const struct lockdef {
	const char *name;
	uncontended_fn *const *uncontended;	/* PLACEMENTS of each */
	handoff_fn *const *handoff;
} locks[] = {
#define LB_X(ID, name, type)	{ #name, uncontended_##name, handoff_##name },
	LB_LOCKS(LB_X)
#undef LB_X
	{ "qspinlock", uncontended_qspinlock, handoff_qspinlock },
	{ "generic", uncontended_generic, handoff_generic },
	{ "pthread_spin", uncontended_pthread_spin, handoff_pthread_spin },
	{ "pthread_mutex", uncontended_pthread_mutex, handoff_pthread_mutex },
};
#define NR_LOCKS (int)(sizeof(locks) / sizeof(locks[0]))

/* The ping-pong: the turn alone, bounced between the two threads. */
static void pingpong(int me, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		while (L.turn != me)
			__asm__ __volatile__("pause" ::: "memory");
		L.turn = !me;
	}
}

struct peer {
	int cpu;
	long n;
	const struct lockdef *lock;	/* NULL: ping-pong */
	int place;			/* which copy of the lock's loop */
};

static void *peer_fn(void *arg)
{
	struct peer *p = arg;

	lb_pin("cost", p->cpu);
	kqspin_thread_init(1);		/* qspinlock's per-CPU MCS nodes */
	L.ready = 1;
	while (!L.go)
		;
	if (p->lock)
		p->lock->handoff[p->place](1, p->n);
	else
		pingpong(1, p->n);
	return NULL;
}

/*
 * ns per transfer, two threads taking strict turns, n round trips, through
 * copy @place of the lock's loop.
 */
static unsigned long long two_threads(int cpu0, int cpu1, long n,
				      const struct lockdef *lock, int place)
{
	struct peer p = { .cpu = cpu1, .n = n, .lock = lock, .place = place };
	unsigned long long t0, t;
	pthread_t th;

	lb_pin("cost", cpu0);
	L.turn = 0;
	L.ready = 0;
	L.go = 0;
	if (pthread_create(&th, NULL, peer_fn, &p)) {
		fprintf(stderr, "cost: pthread_create failed\n");
		exit(2);
	}
	while (!L.ready)		/* its start is not timed */
		;
	t0 = lb_now_ns();
	L.go = 1;
	if (lock)
		lock->handoff[place](0, n);
	else
		pingpong(0, n);
	pthread_join(th, NULL);
	t = lb_now_ns() - t0;
	return t / (2 * (unsigned long long)n);
}

static long parse_num(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "cost: bad %s '%s' (valid: %ld to %ld)\n", opt, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long cyc[MAX_ROUNDS], ns[MAX_ROUNDS], pp[MAX_ROUNDS];
	unsigned long long pc[PLACEMENTS], pt[PLACEMENTS], pp_med, c, t;
	int rounds = 11, cpus[2] = { -1, -1 }, want[NR_LOCKS], r, k, p, opt;
	long n = 1000000, un, hn;
	cpu_set_t allowed;
	char *tok, *save;

	for (k = 0; k < NR_LOCKS; k++)
		want[k] = 1;
	while ((opt = getopt(argc, argv, "r:n:c:l:h")) != -1) {
		switch (opt) {
		case 'r':
			rounds = (int)parse_num("-r", optarg, 1, MAX_ROUNDS);
			break;
		case 'n':
			n = parse_num("-n", optarg, 1, 1000000000);
			break;
		case 'c':
			if (sscanf(optarg, "%d,%d", &cpus[0], &cpus[1]) != 2 ||
			    cpus[0] < 0 || cpus[1] < 0 || cpus[0] == cpus[1]) {
				fprintf(stderr, "cost: bad -c '%s' (two different CPUs, e.g. 0,1)\n", optarg);
				return 2;
			}
			break;
		case 'l':
			for (k = 0; k < NR_LOCKS; k++)
				want[k] = 0;
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				for (k = 0; k < NR_LOCKS && strcmp(locks[k].name, tok); k++)
					;
				if (k == NR_LOCKS) {
					fprintf(stderr, "cost: unknown lock '%s' (valid:", tok);
					for (k = 0; k < NR_LOCKS; k++)
						fprintf(stderr, "%s %s", k ? "," : "", locks[k].name);
					fprintf(stderr, ")\n");
					return 2;
				}
				want[k] = 1;
			}
			break;
		default:
			fprintf(stderr, "usage: cost [-r ROUNDS] [-n PAIRS] [-c CPU,CPU] [-l LOCK,...]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("cost: sched_getaffinity");
		return 2;
	}
	if (cpus[0] < 0) {
		int i;

		for (i = 0, k = 0; i < CPU_SETSIZE && k < 2; i++)
			if (CPU_ISSET(i, &allowed))
				cpus[k++] = i;
		if (k < 2) {
			fprintf(stderr, "cost: needs two CPUs, this process may use %d\n", k);
			return 2;
		}
	}
	for (k = 0; k < 2; k++) {
		if (cpus[k] >= CPU_SETSIZE || !CPU_ISSET(cpus[k], &allowed)) {
			fprintf(stderr, "cost: CPU %d is not available to this process\n", cpus[k]);
			return 2;
		}
	}
#define LB_X(ID, name, type)	lb_##name##_init(&L.name);
	LB_LOCKS(LB_X)
#undef LB_X
	skt_set_patience_us(100);
	kqspin_init(&L.qspinlock);
	kqspin_thread_init(0);
	generic_init(&L.generic);
	pthread_spin_init(&L.spin, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&L.mutex, NULL);

	lb_pin("cost", cpus[0]);
	/* Pairs per copy of the uncontended loop, round trips per handoff copy. */
	un = n / PLACEMENTS ? n / PLACEMENTS : 1;
	hn = n / 10 / PLACEMENTS ? n / 10 / PLACEMENTS : 1;
	printf("cost=settings rounds=%d n=%ld cpus=%d,%d placements=%d\n", rounds, n,
	       cpus[0], cpus[1], PLACEMENTS);
	for (k = 0; k < NR_LOCKS; k++) {
		if (!want[k])
			continue;
		for (p = 0; p < PLACEMENTS; p++)	/* warm up */
			locks[k].uncontended[p](un / 10 + 1, &c, &t);
		for (r = 0; r < rounds; r++) {
			for (p = 0; p < PLACEMENTS; p++)
				locks[k].uncontended[p](un, &pc[p], &pt[p]);
			cyc[r] = median(pc, PLACEMENTS);
			ns[r] = median(pt, PLACEMENTS);
		}
		c = median(cyc, rounds);
		t = median(ns, rounds);
		printf("cost=uncontended lock=%s cycles=%.2f ns=%.2f lo=%.2f hi=%.2f\n",
		       locks[k].name, (double)c / un, (double)t / un,
		       (double)ns[0] / un, (double)ns[rounds - 1] / un);
	}
	for (r = 0; r < rounds; r++)
		pp[r] = two_threads(cpus[0], cpus[1], n / 10 ? n / 10 : 1, NULL, 0);
	pp_med = median(pp, rounds);
	printf("cost=pingpong ns=%llu lo=%llu hi=%llu\n", pp_med, pp[0], pp[rounds - 1]);
	for (k = 0; k < NR_LOCKS; k++) {
		if (!want[k])
			continue;
		L.data = 0;
		for (r = 0; r < rounds; r++) {
			for (p = 0; p < PLACEMENTS; p++)
				pt[p] = two_threads(cpus[0], cpus[1], hn, &locks[k], p);
			ns[r] = median(pt, PLACEMENTS);
		}
		if (L.data != (unsigned long)rounds * PLACEMENTS * 2 * (unsigned long)hn) {
			fprintf(stderr, "cost: %s: lost updates (%lu)\n", locks[k].name, L.data);
			return 1;
		}
		t = median(ns, rounds);
		printf("cost=handoff lock=%s ns=%llu lo=%llu hi=%llu ratio=%.2f\n",
		       locks[k].name, t, ns[0], ns[rounds - 1],
		       pp_med ? (double)t / pp_med : 0.0);
	}
	return 0;
}
