/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/series.h): no rwlocks here. */
