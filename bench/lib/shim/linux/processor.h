/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/series.h): x86's cpu_relax(), a PAUSE. */
#ifndef SHIM_LINUX_PROCESSOR_H
#define SHIM_LINUX_PROCESSOR_H

static inline __attribute__((__always_inline__)) void cpu_relax(void)
{
	__asm__ __volatile__("rep; nop" : : : "memory");
}

#endif
