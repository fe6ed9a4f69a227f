// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - fairness metrics (see metrics.h for the definitions).
 *
 * Integer-only and include-free apart from metrics.h, so the kernel module
 * can compile this file as it is: no libc, no floating point, no 128-bit
 * division helpers from libgcc (the kernel does not link libgcc).  Every
 * 64-bit division is LB_DIV64(); 128-bit ones are lb_udiv128() below.
 */
#include "metrics.h"

/* Leading zeros of a non-zero 128-bit value. */
static lb_u32 lb_clz128(lb_u128 v)
{
	lb_u64 hi = (lb_u64)(v >> 64);

	if (hi)
		return (lb_u32)__builtin_clzll(hi);
	return 64 + (lb_u32)__builtin_clzll((lb_u64)v);
}

/*
 * Restoring shift-and-subtract division.  Align the divisor's top bit with
 * the dividend's, then for each of the (shift + 1) quotient bits subtract
 * the shifted divisor when it fits.  Only 128-bit shifts, compares and
 * subtractions are used; gcc open-codes those on x86-64.
 */
lb_u128 lb_udiv128(lb_u128 a, lb_u128 b)
{
	lb_u128 q = 0;
	int shift;

	if (!b)
		return ~(lb_u128)0;
	if (!(a >> 64) && !(b >> 64))
		return LB_DIV64((lb_u64)a, (lb_u64)b);
	if (a < b)
		return 0;

	shift = (int)lb_clz128(b) - (int)lb_clz128(a);
	b <<= shift;
	for (; shift >= 0; shift--) {
		q <<= 1;
		if (a >= b) {
			a -= b;
			q |= 1;
		}
		b >>= 1;
	}
	return q;
}

#define LB_JAIN_SUM_LIMIT	(1ULL << 48)

lb_u64 lb_jain_ppm(const lb_u64 *x, lb_u32 n)
{
	lb_u128 sum = 0, sumsq = 0;
	lb_u32 i, shift = 0;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		sum += x[i];
	if (!sum)
		return LB_SCALE;	/* all zero: all equal */

	/*
	 * Keep sum < 2^48 so that 1e6 * sum^2 and n * sumsq both fit in 128
	 * bits.  If shift > 0 it is minimal, so (sum >> shift) >= 2^47 and
	 * the sum of the shifted counts is >= 2^47 - n > 0: never all zero.
	 */
	while ((sum >> shift) >= LB_JAIN_SUM_LIMIT)
		shift++;
	if (shift) {
		sum = 0;
		for (i = 0; i < n; i++)
			sum += x[i] >> shift;
	}
	for (i = 0; i < n; i++) {
		lb_u64 v = x[i] >> shift;

		sumsq += (lb_u128)v * v;
	}

	/* Cauchy-Schwarz: sum^2 <= n * sumsq, so the quotient is <= 1e6. */
	return (lb_u64)lb_udiv128(sum * sum * LB_SCALE, (lb_u128)n * sumsq);
}

void lb_minmax(const lb_u64 *x, lb_u32 n, lb_u64 *min, lb_u64 *max)
{
	lb_u64 lo = 0, hi = 0;
	lb_u32 i;

	if (n) {
		lo = x[0];
		hi = x[0];
	}
	for (i = 1; i < n; i++) {
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	*min = lo;
	*max = hi;
}

lb_u64 lb_spread_ppm(const lb_u64 *x, lb_u32 n)
{
	lb_u64 min, max;
	lb_u128 r;

	lb_minmax(x, n, &min, &max);
	if (!max)
		return LB_SCALE;	/* n == 0 or all zero */
	if (!min)
		return LB_SPREAD_INF;
	if (max <= LB_U64_MAX / LB_SCALE)
		return LB_DIV64(max * LB_SCALE, min);
	r = lb_udiv128((lb_u128)max * LB_SCALE, min);
	if (r > LB_SPREAD_MAX)
		r = LB_SPREAD_MAX;
	return (lb_u64)r;
}

void lb_hist_init(struct lb_hist *h)
{
	lb_u32 b;

	for (b = 0; b < LB_HIST_BUCKETS; b++)
		h->bucket[b] = 0;
	h->count = 0;
	h->max = 0;
}

void lb_hist_merge(struct lb_hist *dst, const struct lb_hist *src)
{
	lb_u32 b;

	for (b = 0; b < LB_HIST_BUCKETS; b++)
		dst->bucket[b] += src->bucket[b];
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
}

lb_u64 lb_hist_percentile(const struct lb_hist *h, lb_u32 ppm)
{
	lb_u64 rank, cum = 0;
	lb_u32 b, last = 0;

	if (!h->count)
		return 0;
	if (ppm > LB_SCALE)
		ppm = LB_SCALE;

	/* rank = ceil(count * ppm / 1e6); the product needs 84 bits */
	rank = (lb_u64)lb_udiv128((lb_u128)h->count * ppm + LB_SCALE - 1,
				  LB_SCALE);
	if (!rank)
		rank = 1;

	for (b = 0; b < LB_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		last = b;
		cum += h->bucket[b];
		if (cum >= rank)
			return lb_hist_bucket_upper(b);
	}
	/* count larger than the bucket total: inconsistent, be conservative */
	return lb_hist_bucket_upper(last);
}

/* Fenwick tree over 0..size-1: add one at @i; count of entries < @i. */
static void lb_bit_add(lb_u32 *bit, lb_u64 size, lb_u64 i)
{
	for (i++; i <= size; i += i & (~i + 1))
		bit[i - 1]++;
}

static lb_u64 lb_bit_below(const lb_u32 *bit, lb_u64 i)
{
	lb_u64 sum = 0;

	for (; i; i -= i & (~i + 1))
		sum += bit[i - 1];
	return sum;
}

/*
 * Two passes over the grants in order.  From the end: a grant passed over
 * someone iff the smallest stamp among the waiters granted after it is <=
 * its snapshot.  From the start: a waiter was passed over by the earlier
 * grants whose snapshot is >= its stamp (all of them came after its stamp,
 * since a snapshot taken before it is smaller).
 */
int lb_grant_order(const struct lb_grant *const *logs, const lb_u64 *lens,
		   lb_u32 nlogs, lb_u32 ticket_bits,
		   const struct lb_grant **by, unsigned char *passed,
		   lb_u32 *bit, struct lb_order *out)
{
	lb_u64 n = 0, i, j, minafter, run = 0, expect = 0, mask;
	lb_u32 l, last = 0;

	for (l = 0; l < nlogs; l++)
		n += lens[l];
	*out = (struct lb_order){ .grants = n };
	lb_hist_init(&out->passed);
	for (i = 0; i < n; i++)
		by[i] = 0;
	for (l = 0; l < nlogs; l++)
		for (j = 0; j < lens[l]; j++) {
			const struct lb_grant *g = &logs[l][j];

			if (g->stamp)
				out->waits++;
			if (g->seq >= n || by[g->seq])
				return -1;
			by[g->seq] = g;
		}
	for (i = 0; i <= n; i++)
		bit[i] = 0;

	minafter = LB_U64_MAX;
	for (i = n; i-- > 0;) {
		passed[i] = minafter <= by[i]->snap;
		if (by[i]->stamp && by[i]->stamp < minafter)
			minafter = by[i]->stamp;
	}
	mask = ticket_bits ? (1ULL << ticket_bits) - 1 : 0;
	for (i = 0; i < n; i++) {
		const struct lb_grant *g = by[i];
		lb_u64 snap = g->snap < n ? g->snap : n;

		if (g->stamp) {
			lb_u64 below = lb_bit_below(bit, g->stamp < n + 1 ?
						       g->stamp : n + 1);

			if (i - below > out->bypass_max)
				out->bypass_max = i - below;
			if (i - below)
				lb_hist_add(&out->passed, i - below);
		}
		lb_bit_add(bit, n + 1, snap);
		if (passed[i]) {
			out->bypasses++;
			run = run && g->who == last ? run + 1 : 1;
			if (run > out->bypass_run)
				out->bypass_run = run;
		} else {
			run = 0;
		}
		last = g->who;
		if (ticket_bits) {
			if (i && g->ticket != expect)
				out->ticket_breaks++;
			expect = (g->ticket + 1) & mask;
		}
	}
	out->bypass_share = n ? (lb_u64)lb_udiv128((lb_u128)out->bypasses *
						  LB_SCALE, n) : 0;
	return 0;
}
