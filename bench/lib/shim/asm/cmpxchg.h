/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/series.h): xadd() as arch/x86/include/asm/
 * cmpxchg.h defines it, "lock; xadd" on an operand of the pointer's size,
 * returning the old value; __xadd() with a prefix of the caller's choice.
 */
#ifndef SHIM_ASM_CMPXCHG_H
#define SHIM_ASM_CMPXCHG_H

#define __xadd(ptr, inc, lock) ({					\
	__typeof__(*(ptr)) __ret = (inc);				\
	__asm__ __volatile__(lock "xadd %0, %1"				\
			     : "+r" (__ret), "+m" (*(ptr))		\
			     : : "memory", "cc");			\
	__ret;								\
})
#define xadd(ptr, inc)	__xadd((ptr), (inc), "lock; ")

#endif
