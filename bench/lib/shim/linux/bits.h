/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/series.h): BIT() as linux/bits.h has it. */
#ifndef SHIM_LINUX_BITS_H
#define SHIM_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif
