/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): x86 has none: mcs_spinlock.h's defaults. */
#ifndef SHIM_ASM_MCS_SPINLOCK_H
#define SHIM_ASM_MCS_SPINLOCK_H

#endif
