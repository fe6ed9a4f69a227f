/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): nothing of it is used. */
#ifndef SHIM_LINUX_CPUMASK_H
#define SHIM_LINUX_CPUMASK_H

#endif
