// SPDX-License-Identifier: GPL-2.0
/*
 * dispatch.c - what choosing the spinlock at boot costs on this machine's
 * real cores: the uncontended lock+unlock pair of each lock through the
 * kernel's dispatch (asm/spinlock_boot.h, CONFIG_X86_BOOT_SPINLOCKS: two
 * static keys per operation) against the same lock called directly, as a
 * kernel built with that lock alone calls it, in the same loop.
 *
 * Everything is the patched tree's code, compiled unchanged against the
 * shims (bench/lib/shim/): the queued spinlock (asm-generic/qspinlock.h's
 * fast path, as bench/lib/kqspinlock.h builds it: native, no paravirt),
 * the FIFO ticket lock and the skip-ticket lock (their own headers, with
 * NR_CPUS 8192 as a distribution kernel has it: 16-bit tickets), and the
 * dispatch header itself. Its static keys are patched in place as the
 * kernel patches them (shim/linux/jump_label.h, lib/jump_label.c): the
 * queued spinlock inline behind a 5-byte NOP, a ticket lock behind a JMP.
 *
 * Each round runs the direct and the dispatched loop back to back (their
 * order alternating), and the figure is the ratio of the two in that round:
 * the median over the rounds, with a 95% interval of the median (order
 * statistics, normal approximation) and the lowest and highest round.
 *
 * Usage: dispatch [-r ROUNDS] [-n PAIRS] [-c CPU]
 *   -r  rounds (default 21, 5 to 201); -n  pairs per loop (default
 *   1000000); -c  the CPU to run on (default: the first allowed)
 *
 * Output, one line per lock:
 *   dispatch lock=L direct=C dispatched=C ratio=R lo95=R hi95=R min=R max=R
 * C: TSC cycles per lock+unlock pair (medians); R: dispatched / direct.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONFIG_NR_CPUS		8192
#define CONFIG_X86_BOOT_SPINLOCKS	1
#include "kqspinlock.h"
#include "uclock.h"
#include <asm/ticket_spinlock.h>
#include <asm/skipticket_spinlock.h>
#include <asm/msr.h>
#include <asm/spinlock_boot.h>

DEFINE_STATIC_KEY_FALSE(x86_spinlock_ticket_key);
DEFINE_STATIC_KEY_FALSE(x86_spinlock_skip_key);

/*
 * The skip-ticket state (calm) and slow paths, never reached by an
 * uncontended loop.
 */
struct skipticket_state skipticket_state = { .patience = 200000 };

void skipticket_spin_lock_slowpath(struct skipticket_spinlock *lock, u32 val)
{
	__skipticket_spin_wait(lock, val, &skipticket_state, rdtsc);
}

void skipticket_spin_lock_hurried(struct skipticket_spinlock *lock)
{
	u32 val;

	if (!__skipticket_spin_take_hurried(lock, &val, &skipticket_state, rdtsc))
		skipticket_spin_lock_slowpath(lock, val);
}

#define MAX_ROUNDS	201

static inline unsigned long long tsc_fenced(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("lfence; rdtsc; lfence" : "=a" (lo), "=d" (hi) : : "memory");
	return ((unsigned long long)hi << 32) | lo;
}

/* One lock word for every loop, on its own cache line. */
static struct qspinlock lock __attribute__((aligned(64)));

#define DEFINE_LOOP(name, take, release)				\
static __attribute__((noinline)) unsigned long long name(long n)	\
{									\
	unsigned long long c0 = tsc_fenced();				\
	long i;								\
									\
	for (i = 0; i < n; i++) {					\
		take;							\
		release;						\
	}								\
	return tsc_fenced() - c0;					\
}

DEFINE_LOOP(direct_queued, queued_spin_lock(&lock), queued_spin_unlock(&lock))
DEFINE_LOOP(direct_ticket, ticket_spin_lock(__X86_TICKET(&lock)),
	    ticket_spin_unlock(__X86_TICKET(&lock)))
DEFINE_LOOP(direct_skipticket, skipticket_spin_lock(__X86_SKIPTICKET(&lock)),
	    skipticket_spin_unlock(__X86_SKIPTICKET(&lock)))
DEFINE_LOOP(dispatched, arch_spin_lock(&lock), arch_spin_unlock(&lock))

static const struct {
	const char *name;
	unsigned long long (*direct)(long);
	int ticket, skip;		/* the keys */
	u32 word;			/* after one pair from 0 */
} locks[] = {
	{ "queued", direct_queued, 0, 0, 0 },
	{ "ticket", direct_ticket, 1, 0, 1U << TICKET_SHIFT | 1 },
	{ "skipticket", direct_skipticket, 1, 1, SKIPTICKET_TAIL_INC | 1 },
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static long number(const char *s, long lo, long hi, char opt)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "dispatch: -%c %s: not a number in [%ld, %ld]\n", opt, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static unsigned long long dc[MAX_ROUNDS], xc[MAX_ROUNDS];
	static double ratio[MAX_ROUNDS];
	long n = 1000000;
	int rounds = 21, cpu = -1, opt, l, r;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "r:n:c:")) != -1) {
		switch (opt) {
		case 'r': rounds = number(optarg, 5, MAX_ROUNDS, 'r'); break;
		case 'n': n = number(optarg, 1000, 1000000000, 'n'); break;
		case 'c': cpu = number(optarg, 0, CPU_SETSIZE - 1, 'c'); break;
		default:
			fprintf(stderr, "usage: dispatch [-r ROUNDS] [-n PAIRS] [-c CPU]\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dispatch: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (cpu < 0) {
		if (sched_getaffinity(0, sizeof(set), &set))
			return perror("dispatch: sched_getaffinity"), 2;
		for (cpu = 0; !CPU_ISSET(cpu, &set); cpu++)
			;
	}
	lb_pin("dispatch", cpu);

	for (l = 0; l < (int)(sizeof(locks) / sizeof(locks[0])); l++) {
		int lo = (int)floor(rounds / 2.0 - 0.98 * sqrt(rounds));
		int hi = (int)ceil(rounds / 2.0 + 0.98 * sqrt(rounds));

		/* The ticket key last on, first off, as the kernel's switch. */
		if (locks[l].skip)
			static_branch_enable(&x86_spinlock_skip_key);
		else
			static_branch_disable(&x86_spinlock_skip_key);
		if (locks[l].ticket)
			static_branch_enable(&x86_spinlock_ticket_key);
		else
			static_branch_disable(&x86_spinlock_ticket_key);
		/*
		 * The keys took: one dispatched pair leaves the word the lock
		 * leaves (qspinlock 0; head and tail 1 for a ticket lock).
		 */
		memset(&lock, 0, sizeof(lock));
		dispatched(1);
		if ((u32)atomic_read(&lock.val) != locks[l].word) {
			fprintf(stderr, "dispatch: %s: the lock word is %#x after a pair, not %#x: the keys did not take\n",
				locks[l].name, atomic_read(&lock.val), locks[l].word);
			return 1;
		}
		memset(&lock, 0, sizeof(lock));
		/* Warm up both loops. */
		locks[l].direct(n / 10);
		dispatched(n / 10);
		for (r = 0; r < rounds; r++) {
			if (r & 1) {
				dc[r] = locks[l].direct(n);
				xc[r] = dispatched(n);
			} else {
				xc[r] = dispatched(n);
				dc[r] = locks[l].direct(n);
			}
			ratio[r] = (double)xc[r] / (double)dc[r];
		}
		if (arch_spin_is_locked(&lock)) {
			fprintf(stderr, "dispatch: %s left the lock held\n", locks[l].name);
			return 1;
		}
		qsort(ratio, rounds, sizeof(ratio[0]), cmp_dbl);
		qsort(dc, rounds, sizeof(dc[0]), cmp_u64);
		qsort(xc, rounds, sizeof(xc[0]), cmp_u64);
		if (lo < 0)
			lo = 0;
		if (hi > rounds - 1)
			hi = rounds - 1;
		printf("dispatch lock=%s direct=%.2f dispatched=%.2f ratio=%.3f lo95=%.3f hi95=%.3f min=%.3f max=%.3f\n",
		       locks[l].name, (double)dc[rounds / 2] / n, (double)xc[rounds / 2] / n,
		       ratio[rounds / 2], ratio[lo], ratio[hi], ratio[0], ratio[rounds - 1]);
	}
	return 0;
}
