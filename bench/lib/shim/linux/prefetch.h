/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): prefetchw() as x86 has it (PREFETCHW). */
#ifndef SHIM_LINUX_PREFETCH_H
#define SHIM_LINUX_PREFETCH_H

#define prefetchw(x)	__builtin_prefetch((x), 1)

#endif
