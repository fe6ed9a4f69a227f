/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/series.h): the x86 meaning of what the
 * ticket locks (the series' and asm-generic's) and kernel/locking/
 * qspinlock.c (bench/lib/kqspinlock.h) use from <linux/atomic.h> and the
 * barriers, as arch/x86/include/asm/{barrier,atomic,cmpxchg}.h define them:
 * x86 loads are acquires and stores releases (TSO), so smp_load_acquire()
 * and smp_store_release() are a plain access and a compiler barrier, and
 * smp_mb() is a LOCKed add to the stack; the atomics are LOCKed
 * instructions (xadd, cmpxchg), which GCC's __atomic builtins emit on x86.
 */
#ifndef SHIM_LINUX_ATOMIC_H
#define SHIM_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/processor.h>
#include <linux/types.h>

#define IS_ENABLED(option)	0	/* only CONFIG_CPU_BIG_ENDIAN is asked */

#define smp_mb()	__asm__ __volatile__("lock addl $0,-4(%%rsp)" ::: "memory", "cc")

/* x86 does not reorder stores with stores: a compiler barrier. */
#define smp_wmb()	barrier()

#define smp_store_release(p, v) do {				\
	barrier();						\
	WRITE_ONCE(*(p), (v));					\
} while (0)

/* As include/asm-generic/barrier.h has it: spin on a plain load. */
#define smp_cond_load_relaxed(ptr, cond_expr) ({		\
	__typeof__(*(ptr)) VAL;					\
	for (;;) {						\
		VAL = READ_ONCE(*(ptr));			\
		if (cond_expr)					\
			break;					\
		cpu_relax();					\
	}							\
	VAL;							\
})

/* x86 does not reorder a load with later loads or stores: a barrier(). */
#define smp_acquire__after_ctrl_dep()	barrier()

/* smp_cond_load_relaxed() + smp_acquire__after_ctrl_dep() (a barrier()). */
#define smp_cond_load_acquire(ptr, cond_expr) ({		\
	__typeof__(*(ptr)) ___val = smp_cond_load_relaxed(ptr, cond_expr); \
	barrier();						\
	___val;							\
})

#define atomic_read(v)		READ_ONCE((v)->counter)
#define atomic_fetch_add(i, v)	__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic_try_cmpxchg(v, oldp, new)				\
	__atomic_compare_exchange_n(&(v)->counter, (int *)(oldp), (new), 0,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic_try_cmpxchg_acquire	atomic_try_cmpxchg
#define atomic_try_cmpxchg_relaxed	atomic_try_cmpxchg
#define atomic_andnot(i, v)	__atomic_fetch_and(&(v)->counter, ~(i), __ATOMIC_SEQ_CST)
#define atomic_add(i, v)	__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic_cond_read_acquire(v, c)	smp_cond_load_acquire(&(v)->counter, (c))
#define atomic_cond_read_relaxed(v, c)	smp_cond_load_relaxed(&(v)->counter, (c))
/* xchg is LOCKed implicitly on x86: every xchg is a full barrier. */
#define xchg(ptr, v)		__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)
#define xchg_relaxed(ptr, v)	xchg((ptr), (v))
#define cmpxchg_release(ptr, old, new) ({				\
	__typeof__(*(ptr)) ___old = (old);				\
	__atomic_compare_exchange_n((ptr), &___old, (new), 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	___old;								\
})

#define smp_load_acquire(p) ({					\
	__typeof__(*(p)) ___v = READ_ONCE(*(p));		\
	barrier();						\
	___v;							\
})

#define try_cmpxchg(ptr, oldp, new)				\
	__atomic_compare_exchange_n((ptr), (oldp), (new), 0,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#endif
