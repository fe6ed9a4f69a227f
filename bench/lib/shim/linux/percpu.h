/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/kqspinlock.h): per-CPU variables as
 * thread-local ones.  Every thread has its own copy of the program's
 * static TLS block, at the same offset from its thread pointer (x86-64:
 * %fs:0 holds it), so another "CPU"'s copy of a variable is this thread's
 * copy moved from this thread pointer to that one's: kqspin_tp[], filled
 * by kqspin_thread_init().
 */
#ifndef SHIM_LINUX_PERCPU_H
#define SHIM_LINUX_PERCPU_H

extern char *kqspin_tp[];

static inline __attribute__((__always_inline__)) char *kqspin_this_tp(void)
{
	char *tp;

	__asm__("movq %%fs:0, %0" : "=r" (tp));
	return tp;
}

#define DEFINE_PER_CPU_ALIGNED(type, name)				\
	__thread __typeof__(type) name __attribute__((__aligned__(64)))
#define this_cpu_ptr(ptr)	(ptr)
#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((char *)(ptr) - kqspin_this_tp() + kqspin_tp[(cpu)]))
#define __this_cpu_dec(var)	((var)--)

#endif
