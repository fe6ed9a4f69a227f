/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): no static keys: nothing of it is used. */
#ifndef SHIM_LINUX_JUMP_LABEL_H
#define SHIM_LINUX_JUMP_LABEL_H

#endif
