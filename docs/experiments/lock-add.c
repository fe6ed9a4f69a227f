// SPDX-License-Identifier: GPL-2.0
/*
 * lock-add.c - what x86's smp_mb() (a LOCKed add of 0 to the stack, as
 * arch/x86/include/asm/barrier.h has it) costs back to back on one core:
 * 10^8 of them in a loop, against the same loop with a compiler barrier
 * only, 5 times. Nothing else contends: this is the barrier alone, not
 * what it costs beside other memory traffic.
 *
 *   gcc -O2 -Wall -Wextra -I bench/lib -o /tmp/lock-add \
 *       docs/experiments/lock-add.c -pthread
 *   /tmp/lock-add
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "uclock.h"

#define N 100000000L

int main(void)
{
	unsigned long long t0, t1, t2;
	long i;
	int r;

	for (r = 0; r < 5; r++) {
		t0 = lb_now_ns();
		for (i = 0; i < N; i++)
			__asm__ __volatile__("lock addl $0,-4(%%rsp)" ::: "memory", "cc");
		t1 = lb_now_ns();
		for (i = 0; i < N; i++)
			__asm__ __volatile__("" ::: "memory");
		t2 = lb_now_ns();
		printf("lock_add ns=%.2f empty_loop ns=%.2f\n",
		       (double)(t1 - t0) / N, (double)(t2 - t1) / N);
	}
	return 0;
}
