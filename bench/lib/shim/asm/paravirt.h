/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): no CONFIG_PARAVIRT: native code only. */
#ifndef SHIM_ASM_PARAVIRT_H
#define SHIM_ASM_PARAVIRT_H

#endif
