/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/series.h): the cache-line alignment the
 * skip-ticket lock's state asks for, with the kernel's meaning on x86-64.
 */
#ifndef SHIM_LINUX_CACHE_H
#define SHIM_LINUX_CACHE_H

#define SMP_CACHE_BYTES			64
#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(SMP_CACHE_BYTES)))

#endif
