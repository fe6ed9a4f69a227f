/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): x86 is little-endian. */
#ifndef SHIM_ASM_BYTEORDER_H
#define SHIM_ASM_BYTEORDER_H

#define __LITTLE_ENDIAN	1234

#endif
