/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/kqspinlock.h): a "CPU" is a thread that
 * called kqspin_thread_init(), and its number is what it passed.
 */
#ifndef SHIM_LINUX_SMP_H
#define SHIM_LINUX_SMP_H

extern __thread int kqspin_cpu;
#define smp_processor_id()	kqspin_cpu

#endif
