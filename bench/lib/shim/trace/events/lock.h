/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): no tracepoints, as with CONFIG_TRACEPOINTS off. */
#ifndef SHIM_TRACE_EVENTS_LOCK_H
#define SHIM_TRACE_EVENTS_LOCK_H

#define LCB_F_SPIN	(1U << 0)
#define trace_contention_begin(lock, flags)	do { } while (0)
#define trace_contention_end(lock, ret)		do { } while (0)

#endif
