/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): what asm/rmwcc.h takes from arch/x86/include/asm/asm.h and asm/alternative.h: flag outputs, and the LOCK prefix of an SMP kernel. */
#ifndef SHIM_ASM_ASM_H
#define SHIM_ASM_ASM_H

#define CC_SET(c)	"\n\t/* output condition code " #c "*/\n"
#define CC_OUT(c)	"=@cc" #c
#define LOCK_PREFIX	"lock; "

#endif
