/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/series.h): just what the series' ticket lock
 * header needs of <linux/compiler.h>, with the kernel's meaning.
 */
#ifndef SHIM_LINUX_COMPILER_H
#define SHIM_LINUX_COMPILER_H

#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __user
#define __pure		__attribute__((__pure__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) \
	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#endif
