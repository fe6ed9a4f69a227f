/* SPDX-License-Identifier: GPL-2.0 */
/*
 * generic-as.h - include the tree's include/asm-generic/spinlock.h (once
 * more), its functions named GENERIC_AS_lock(), GENERIC_AS_unlock() and so
 * on, on generic_t (asm-generic/spinlock_types.h's arch_spinlock_t), with
 * whatever shim macros the includer has redefined first. series.h includes
 * it as generic_*(); docs/experiments/handoff-gap.c includes it again for
 * its variants. No include guard: it is meant to be included once per
 * name, e.g.
 *   #define GENERIC_AS gennomb
 *   #include "generic-as.h"
 * User space only, with -isystem $(TREE)/include after the x86 one.
 */
#define GENERIC_AS_CAT2(a, b)	a##b
#define GENERIC_AS_CAT(a, b)	GENERIC_AS_CAT2(a, b)

#undef __ASM_GENERIC_SPINLOCK_H
#define arch_spinlock_t			generic_t
#define arch_spin_lock			GENERIC_AS_CAT(GENERIC_AS, _lock)
#define arch_spin_unlock		GENERIC_AS_CAT(GENERIC_AS, _unlock)
#define arch_spin_trylock		GENERIC_AS_CAT(GENERIC_AS, _trylock)
#define arch_spin_is_locked		GENERIC_AS_CAT(GENERIC_AS, _is_locked)
#define arch_spin_is_contended		GENERIC_AS_CAT(GENERIC_AS, _is_contended)
#define arch_spin_value_unlocked	GENERIC_AS_CAT(GENERIC_AS, _value_unlocked)
#include <asm-generic/spinlock.h>
#undef arch_spinlock_t
#undef arch_spin_lock
#undef arch_spin_unlock
#undef arch_spin_trylock
#undef arch_spin_is_locked
#undef arch_spin_is_contended
#undef arch_spin_value_unlocked
#undef GENERIC_AS
