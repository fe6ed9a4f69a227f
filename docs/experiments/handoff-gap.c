// SPDX-License-Identifier: GPL-2.0
/*
 * handoff-gap.c - where the generic ticket lock's extra handoff time goes.
 *
 * bench/bin/cost measures a handoff (two threads on two real cores taking
 * strict turns, the turn passed inside the critical section) of 400 ns
 * for the series' ticket16 and 500 ns for include/asm-generic/spinlock.h's
 * ticket lock (runs J and K).  Both are 16-bit tickets in one 32-bit word,
 * head in the low half, taken by one LOCKed xadd of 1 << 16; they differ
 * in three places:
 *
 *   - the unlock: ticket16 increments head with one instruction
 *     (`incw`, a read-modify-write); the generic lock reads the whole
 *     word (atomic_read(), a 32-bit load) and stores head + 1 with a
 *     separate 16-bit store (smp_store_release());
 *   - the slow path: the generic lock ends its spin with smp_mb();
 *   - where cost.c puts the lock (each lock has its own cache line).
 *
 * This program crosses the two locks' lock and unlock halves on ONE lock
 * word (their layouts are the same), so that the lock's data address is
 * the same for all: t16 (the series' lock and unlock), gen (asm-generic's),
 * t16+genunlock (the series' lock, the generic unlock), gen+t16unlock
 * (the generic lock, the series' unlock), gen-nomb (the generic lock
 * without its smp_mb()), gen-u16spin (also spinning on head alone), and
 * t16-counted and gen-counted (each lock with a count of the lock calls
 * that found the lock held: its slow path, the only place the smp_mb()
 * runs).  Each round measures every variant in turn, starting one variant
 * later each round, and the ping-pong; the output is the median over the
 * rounds with the lowest and highest, each variant's ratio to t16 inside
 * the round (median, lowest, highest), and the counted variants' slow-path
 * rates.  The handoff loop is cost.c's, with PAD bytes of nops before it;
 * built with -DCONTENDED=1 the threads take no turns (and there is no
 * ping-pong).
 *
 * What it found: docs/results/2026-12-07-amd-epyc-handoff-gap/.
 * handoff-gap.sh builds it with the code moved by PAD = 0, 8, ... 56 and
 * runs the builds in turn.
 *
 * The lock code is the tree's, through bench/lib (series.h), not a copy;
 * the variants change one shim macro each and include the tree's header
 * again (bench/lib/generic-as.h).  Build and run (from the repository root, after lab/tree.sh and
 * make -C bench; the sweep adds -DPAD=N and -DCONTENDED=1):
 *   gcc -O2 -falign-functions=64 -fno-align-loops -fno-align-jumps \
 *       -fno-align-labels -Wall -Wextra -Wno-strict-aliasing \
 *       -I bench/lib -I bench/lib/shim \
 *       -isystem build/linux/arch/x86/include \
 *       -isystem build/linux/include -o /tmp/handoff-gap \
 *       docs/experiments/handoff-gap.c bench/bin/kqspinlock.o \
 *       bench/bin/skipticket.o -pthread
 *   /tmp/handoff-gap [ROUNDS] [HANDOFFS]      (default 21, 1000000)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "locks.h"
#include "uclock.h"

/*
 * The generic lock once more, as gennomb_*(): the tree's header again with
 * smp_mb() a compiler barrier, so that its slow path ends without the
 * LOCKed add (not a correct lock on a weakly ordered machine; on x86 the
 * load that saw our ticket already orders what follows).
 */
#undef smp_mb
#define smp_mb()			barrier()
#define GENERIC_AS			gennomb
#include "generic-as.h"

/*
 * And once more as genu16_*(): smp_mb() as above, and the spin reading
 * head alone (a 16-bit load, as the series' lock spins) instead of the
 * whole word.
 */
#undef atomic_cond_read_acquire
#define atomic_cond_read_acquire(v, c) ({				\
	u16 VAL;							\
	for (;;) {							\
		VAL = READ_ONCE(*(u16 *)&(v)->counter);			\
		if (c)							\
			break;						\
		cpu_relax();						\
	}								\
	VAL;								\
})
#define GENERIC_AS			genu16
#include "generic-as.h"

/*
 * Counted: the series' lock split into its take and wait (the same code
 * as lb_ticket16_lock()), and the generic lock with its xadd's result
 * kept in a variable of the thread (a store on every call), to count how
 * many lock calls found the lock held (a store to the thread's own line,
 * on the slow path only); these two variants are timed too, beside the
 * uncounted ones.
 */
static __thread u32 gen_old;
#undef atomic_fetch_add
#define atomic_fetch_add(i, v) ({					\
	u32 __old = __atomic_fetch_add(&(v)->counter, (i), __ATOMIC_SEQ_CST); \
	gen_old = __old;						\
	__old;								\
})
#undef smp_mb
#define smp_mb()	__asm__ __volatile__("lock addl $0,-4(%%rsp)" ::: "memory", "cc")
#undef atomic_cond_read_acquire
#define atomic_cond_read_acquire(v, c)	smp_cond_load_acquire(&(v)->counter, (c))
#define GENERIC_AS			gencnt
#include "generic-as.h"

enum { T16, GEN, T16_GENUNLOCK, GEN_T16UNLOCK, GEN_NOMB, GEN_U16, T16_CNT, GEN_CNT, PINGPONG, NR_VARIANTS };
static const char *const names[NR_VARIANTS] = {
	"t16", "gen", "t16+genunlock", "gen+t16unlock", "gen-nomb",
	"gen-u16spin", "t16-counted", "gen-counted", "pingpong",
};

static struct {
	union {
		series16_t t16;
		generic_t gen;
	} lock __attribute__((aligned(64)));
	volatile unsigned long data __attribute__((aligned(64)));
	volatile int turn __attribute__((aligned(64)));
	volatile int go;
	volatile int ready;
	volatile int variant;
} L;

/*
 * Per thread, on a line of its own: lock calls that found the lock held
 * (took the slow path), counted on the slow path only.
 */
static struct {
	long n;
} __attribute__((aligned(64))) slow[2];

static inline void lock_t16_counted(int me)
{
	lb_u32 tok;

	if (!lb_ticket16_take(&L.lock.t16, &tok)) {
		slow[me].n++;
		lb_ticket16_wait(&L.lock.t16, tok);
	}
}

static inline void lock_gen_counted(int me)
{
	gencnt_lock(&L.lock.gen);
	if ((gen_old >> 16) != (gen_old & 0xffff))
		slow[me].n++;
}

/*
 * PAD (bytes, default 0): nops at the top of each handoff function, to
 * move its code by that much (see the placement sweep in docs/log.md).
 */
#ifndef PAD
#define PAD 0
#endif
/*
 * CONTENDED (default 0): built with -DCONTENDED=1 the threads take no
 * turns, both take the lock n times as fast as they can. A build option,
 * so that the turns build runs cost.c's loop as it is.
 */
#ifndef CONTENDED
#define CONTENDED 0
#endif

#define STR2(x)	#x
#define STR(x)	STR2(x)

#define HANDOFF(fn, LOCK, UNLOCK)					\
static void fn(int me, long n)						\
{									\
	long i;								\
									\
	__asm__ __volatile__(".fill " STR(PAD) ", 1, 0x90");		\
	for (i = 0; i < n; i++) {					\
		while (!CONTENDED && L.turn != me)			\
			__asm__ __volatile__("pause" ::: "memory");	\
		LOCK;							\
		L.data++;						\
		if (!CONTENDED)						\
			L.turn = !me;					\
		UNLOCK;							\
	}								\
}
HANDOFF(h_t16, lb_ticket16_lock(&L.lock.t16), lb_ticket16_unlock(&L.lock.t16))
HANDOFF(h_gen, generic_lock(&L.lock.gen), generic_unlock(&L.lock.gen))
HANDOFF(h_t16_genunlock, lb_ticket16_lock(&L.lock.t16), generic_unlock(&L.lock.gen))
HANDOFF(h_gen_t16unlock, generic_lock(&L.lock.gen), lb_ticket16_unlock(&L.lock.t16))
HANDOFF(h_gen_nomb, gennomb_lock(&L.lock.gen), gennomb_unlock(&L.lock.gen))
HANDOFF(h_gen_u16, genu16_lock(&L.lock.gen), genu16_unlock(&L.lock.gen))
HANDOFF(h_t16_cnt, lock_t16_counted(me), lb_ticket16_unlock(&L.lock.t16))
HANDOFF(h_gen_cnt, lock_gen_counted(me), gencnt_unlock(&L.lock.gen))

static void h_pingpong(int me, long n)
{
	long i;

	for (i = 0; i < n && !CONTENDED; i++) {
		while (L.turn != me)
			__asm__ __volatile__("pause" ::: "memory");
		L.turn = !me;
	}
}

static void (*const handoff[NR_VARIANTS])(int, long) = {
	h_t16, h_gen, h_t16_genunlock, h_gen_t16unlock, h_gen_nomb,
	h_gen_u16, h_t16_cnt, h_gen_cnt, h_pingpong,
};

static long nr;

static void *peer(void *arg)
{
	(void)arg;
	lb_pin("handoff-gap", 1);
	L.ready = 1;
	while (!L.go)
		;
	handoff[L.variant](1, nr);
	return NULL;
}

/* ns per handoff of one variant: n round trips, two handoffs each. */
static double measure(int v)
{
	unsigned long long t0;
	pthread_t th;

	L.lock.t16.head_tail = 0;
	L.turn = 0;
	L.go = 0;
	L.ready = 0;
	L.variant = v;
	if (pthread_create(&th, NULL, peer, NULL)) {
		fprintf(stderr, "handoff-gap: pthread_create failed\n");
		exit(2);
	}
	while (!L.ready)
		;
	t0 = lb_now_ns();
	L.go = 1;
	handoff[v](0, nr);
	pthread_join(th, NULL);
	return (double)(lb_now_ns() - t0) / (2.0 * nr);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void summary(const char *what, const char *name, double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	printf("%s variant=%s median=%.4f lo=%.4f hi=%.4f\n", what, name,
	       v[n / 2], v[0], v[n - 1]);
}

static long arg(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "handoff-gap: bad number '%s' (valid: %ld to %ld)\n", s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	double ns[NR_VARIANTS][101], ratio[NR_VARIANTS][101];
	long slowpaths[NR_VARIANTS] = { 0 };
	int rounds = 21, r, i, v;

	if (argc > 3) {
		fprintf(stderr, "usage: handoff-gap [ROUNDS 1-101] [HANDOFFS 1-10^9]\n");
		return 2;
	}
	if (argc > 1)
		rounds = (int)arg(argv[1], 1, 101);
	nr = argc > 2 ? arg(argv[2], 1, 1000000000) : 1000000;
	lb_pin("handoff-gap", 0);
	for (r = 0; r < rounds; r++) {
		/* Each round starts one variant later: no variant always first. */
		for (i = 0; i < NR_VARIANTS; i++) {
			v = (r + i) % NR_VARIANTS;
			slow[0].n = slow[1].n = 0;
			ns[v][r] = measure(v);
			slowpaths[v] += slow[0].n + slow[1].n;
		}
		for (v = 0; v < NR_VARIANTS; v++)
			ratio[v][r] = ns[v][r] / ns[T16][r];
	}
	printf("settings rounds=%d handoffs=%ld cpus=0,1 mode=%s pad=%d\n", rounds, nr,
	       CONTENDED ? "contended" : "turns", PAD);
	for (v = 0; v < NR_VARIANTS; v++) {
		if (v == PINGPONG && CONTENDED)
			continue;
		summary("ns", names[v], ns[v], rounds);
		summary("ratio_to_t16", names[v], ratio[v], rounds);
		if (v == T16_CNT || v == GEN_CNT)
			printf("slowpath variant=%s per_1e6_locks=%.0f\n", names[v],
			       1e6 * slowpaths[v] / (2.0 * nr * rounds));
	}
	return 0;
}
