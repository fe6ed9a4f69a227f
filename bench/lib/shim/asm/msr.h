/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/series.h): rdtsc() as asm/msr.h has it,
 * with its type (a clock for the skip-ticket lock's slow path).
 */
#ifndef SHIM_ASM_MSR_H
#define SHIM_ASM_MSR_H

#include <linux/types.h>

static inline __attribute__((__always_inline__)) unsigned long long rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi));
	return ((unsigned long long)hi << 32) | lo;
}

#endif
