/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uclock.h - the clock and the CPU pinning of the user-space tools:
 * lb_now_ns(), CLOCK_MONOTONIC in nanoseconds, and lb_pin(), which moves
 * the calling thread onto one CPU or exits with status 2 and a one-line
 * message naming the program. User space only (the module has
 * ktime_get_ns() and kthread_create_on_cpu()); the includer defines
 * _GNU_SOURCE first.
 */
#ifndef LB_UCLOCK_H
#define LB_UCLOCK_H

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline unsigned long long lb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL +
	       (unsigned long long)ts.tv_nsec;
}

static inline void lb_pin(const char *prog, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "%s: cannot pin to CPU %d\n", prog, cpu);
		exit(2);
	}
}

#endif /* LB_UCLOCK_H */
