/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skipticket.h - the skip-ticket lock in user space: the tree's
 * asm/skipticket_spinlock.h as skt_* (series.h), and what lib/skipticket.c
 * adds for the tools: the patience set from a time.
 */
#ifndef BENCH_SKIPTICKET_H
#define BENCH_SKIPTICKET_H

#include <linux/types.h>
#include "series.h"

/*
 * The state skt_slowpath() waits with, and whose hint skt_lock() reads
 * (series.h declares it; the kernel's is its own).
 */

u64 skt_set_patience_us(u64 us);

#endif /* BENCH_SKIPTICKET_H */
