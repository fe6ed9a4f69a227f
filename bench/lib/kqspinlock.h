/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kqspinlock.h - the kernel's queued spinlock in user space: the fast path
 * of include/asm-generic/qspinlock.h (with x86's asm/qspinlock.h in front
 * of it) inline, and kernel/locking/qspinlock.c's slow path in
 * kqspinlock.c, both compiled unchanged from the patched tree against the
 * shims in shim/, as series.h does for the ticket lock.  Native qspinlock:
 * no CONFIG_PARAVIRT, so no virt_spin_lock() and no pv hooks; 8-bit
 * pending byte and 16-bit tail (CONFIG_NR_CPUS below 16384).
 *
 * qspinlock's MCS nodes are per-CPU: here every thread that takes the lock
 * is a "CPU" and must first call kqspin_thread_init() with a number below
 * KQSPIN_MAX_CPUS that no other thread uses.
 *
 * Build with -I bench/lib/shim -isystem $(TREE)/arch/x86/include
 * -isystem $(TREE)/include, and link kqspinlock.c (which also needs
 * -iquote $(TREE)/kernel/locking).
 */
#ifndef BENCH_KQSPINLOCK_H
#define BENCH_KQSPINLOCK_H

#define KQSPIN_MAX_CPUS		1024

#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS		KQSPIN_MAX_CPUS
#define KQSPIN_NR_CPUS_DEFINED
#endif
#include <linux/atomic.h>	/* the shim's: x86's asm/qspinlock.h uses it */
#include <asm/asm.h>		/* the shim's, for asm/rmwcc.h */
#include <asm/qspinlock.h>
#ifdef KQSPIN_NR_CPUS_DEFINED
#undef CONFIG_NR_CPUS
#undef KQSPIN_NR_CPUS_DEFINED
#endif

/* asm-generic/qspinlock.h maps arch_spin_*() onto itself: not here. */
#undef arch_spin_is_locked
#undef arch_spin_is_contended
#undef arch_spin_value_unlocked
#undef arch_spin_lock
#undef arch_spin_trylock
#undef arch_spin_unlock

void kqspin_thread_init(int cpu);

static inline void kqspin_init(struct qspinlock *lock)
{
	*lock = (struct qspinlock)__ARCH_SPIN_LOCK_UNLOCKED;
}

/*
 * queued_spin_lock() split in two, as the bench's other locks are (see
 * lb_take() in locks.h): kqspin_take() is its fast path, the one
 * cmpxchg, and returns 1 if that took the lock; otherwise *val is the
 * lock word it saw, and kqspin_wait() is the rest: the kernel's
 * queued_spin_lock_slowpath().
 */
static __always_inline int kqspin_take(struct qspinlock *lock, u32 *val)
{
	int v = 0;

	if (likely(atomic_try_cmpxchg_acquire(&lock->val, &v, _Q_LOCKED_VAL)))
		return 1;
	*val = v;
	return 0;
}

static __always_inline void kqspin_wait(struct qspinlock *lock, u32 val)
{
	queued_spin_lock_slowpath(lock, val);
}

#endif /* BENCH_KQSPINLOCK_H */
