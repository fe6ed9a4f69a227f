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
 * skt_state, the state skt_slowpath() waits with and whose hint skt_lock()
 * reads, is declared by series.h (the header's extern) and defined in
 * skipticket.c; the kernel's is its own. Set its patience from a time:
 */
u64 skt_set_patience_us(u64 us);

#endif /* BENCH_SKIPTICKET_H */
