/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim (see bench/lib/series.h): no KASAN or KCSAN here, so the
 * instrumentation compiles to nothing, as in a kernel built without them.
 */
#ifndef SHIM_LINUX_INSTRUMENTED_H
#define SHIM_LINUX_INSTRUMENTED_H

#define kcsan_mb()				do { } while (0)
#define kcsan_release()				do { } while (0)
#define instrument_atomic_read_write(v, size)	do { (void)(v); (void)(size); } while (0)

#endif
