/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mutants.h - broken locks in ticket8's place, for fairness.c built with
 * -DLB_MUTANT=N (bin/fairness-mut-*).  Each keeps mutual exclusion and
 * uses the ticket8 lock's storage (the series' 8-bit arch_spinlock_t),
 * but is not FIFO: test/check.sh must reject it.  Every other lock is the
 * real one.
 *
 *  1  test-and-test-and-set on the ticket word: wait until head == tail,
 *     then cmpxchg tail + 1; the unlock is the series' (inc of the head).
 *     Nobody holds a place in line while waiting.
 *  2  the 2.6.24 legacy lock on the ticket word.
 */
#ifndef LB_MUTANTS_H
#define LB_MUTANTS_H

static inline int mut_ttas_try(series8_t *l, lb_u32 *tok)
{
	lb_u16 w = __atomic_load_n(&l->head_tail, __ATOMIC_RELAXED);

	*tok = w;
	return (w >> 8) == (w & 0xff) &&
	       __atomic_compare_exchange_n(&l->head_tail, &w, (lb_u16)(w + 0x100),
					   0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline int mut_take(enum lb_lock_kind kind, union lb_anylock *l,
			   lb_u32 *tok)
{
	if (kind != LB_TICKET8)
		return lb_take(kind, l, tok);
	*tok = 0;
#if LB_MUTANT == 1
	return mut_ttas_try(&l->ticket8, tok);
#else
	return lb_legacy_take(&l->legacy, tok);
#endif
}

static inline void mut_wait(enum lb_lock_kind kind, union lb_anylock *l,
			    lb_u32 tok)
{
	if (kind != LB_TICKET8) {
		lb_wait(kind, l, tok);
		return;
	}
#if LB_MUTANT == 1
	while (!mut_ttas_try(&l->ticket8, &tok))
		lb_cpu_relax();
#else
	lb_legacy_wait(&l->legacy, tok);
#endif
}

static inline void mut_unlock(enum lb_lock_kind kind, union lb_anylock *l)
{
#if LB_MUTANT == 2
	if (kind == LB_TICKET8) {
		lb_legacy_unlock(&l->legacy);
		return;
	}
#endif
	lb_unlock(kind, l);
}

static inline void mut_init(enum lb_lock_kind kind, union lb_anylock *l)
{
#if LB_MUTANT == 2
	if (kind == LB_TICKET8) {
		lb_legacy_init(&l->legacy);
		return;
	}
#endif
	lb_lock_init(kind, l);
}

#define LB_TAKE		mut_take
#define LB_WAIT		mut_wait
#define LB_UNLOCK	mut_unlock
#define LB_INIT		mut_init

#endif /* LB_MUTANTS_H */
