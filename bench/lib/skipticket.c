// SPDX-License-Identifier: GPL-2.0
/*
 * skipticket.c - what the skip-ticket lock (the tree's
 * asm/skipticket_spinlock.h, through series.h) keeps out of line, in user
 * space: its slow path and its hurried lock, as the kernel's
 * skipticket_spin_lock_slowpath() and skipticket_spin_lock_hurried()
 * (arch/x86/kernel/skipticket_spinlock.c) are, and the state they use:
 * its patience in TSC cycles, from a time in microseconds and the TSC rate measured against
 * CLOCK_MONOTONIC (the kernel takes tsc_khz instead).
 */
#include "skipticket.h"

#include <asm/msr.h>
#include <time.h>

/*
 * Until skt_set_patience_us(): about 100 us at 2 GHz. No stall yet: calm
 * (asm/skipticket_spinlock.h).
 */
struct skt_state skt_state = { .patience = 200000 };

void skt_slowpath(skt_lock_t *lock, u32 val)
{
	skt_wait_clock(lock, val, &skt_state, rdtsc);
}

/* skt_lock() in a hurried state: registered in the xadd. */
void skt_lock_hurried(skt_lock_t *lock)
{
	u32 val;

	if (!skt_take_hurried(lock, &val, &skt_state, rdtsc))
		skt_slowpath(lock, val);
}

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* Set the patience to @us microseconds; returns the TSC rate in kHz. */
u64 skt_set_patience_us(u64 us)
{
	u64 t0 = mono_ns(), c0 = rdtsc(), t1, khz;

	do
		t1 = mono_ns();
	while (t1 - t0 < 20000000ULL);		/* 20 ms */
	khz = (rdtsc() - c0) * 1000000ULL / (t1 - t0);
	skt_state.patience = us * khz / 1000;
	return khz;
}
