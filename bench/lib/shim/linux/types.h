/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim (see bench/lib/series.h): the kernel's fixed-width types. */
#ifndef SHIM_LINUX_TYPES_H
#define SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as the kernel's int-ll64.h */
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i)	{ (i) }

#endif
