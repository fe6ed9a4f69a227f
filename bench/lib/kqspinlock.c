// SPDX-License-Identifier: GPL-2.0
/*
 * kqspinlock.c - kernel/locking/qspinlock.c from the patched tree, compiled
 * unchanged in user space (see kqspinlock.h): the native slow path,
 * queued_spin_lock_slowpath(), with its per-CPU MCS nodes as thread-local
 * variables (shim/linux/percpu.h).
 */
#include "kqspinlock.h"
#include <linux/percpu.h>	/* the shim's: kqspin_this_tp() */

__thread int kqspin_cpu = -1;
char *kqspin_tp[KQSPIN_MAX_CPUS];

void kqspin_thread_init(int cpu)
{
	kqspin_cpu = cpu;
	kqspin_tp[cpu] = kqspin_this_tp();
}

/* What qspinlock.c takes from headers the shims leave out. */
#define __lockfunc
struct file;				/* lock_events.h names it */
#define EXPORT_SYMBOL(sym)	extern int kqspin_export_##sym
#define CONFIG_NR_CPUS		KQSPIN_MAX_CPUS

#include "qspinlock.c"
