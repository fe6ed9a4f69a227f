/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/series.h): no rwlocks here. */
