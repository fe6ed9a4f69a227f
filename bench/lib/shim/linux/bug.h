/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/kqspinlock.h): BUILD_BUG_ON() as a C11 static assertion. */
#ifndef SHIM_LINUX_BUG_H
#define SHIM_LINUX_BUG_H

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#endif
