// SPDX-License-Identifier: GPL-2.0
/*
 * test_metrics.c - unit tests of metrics.c on known inputs.
 *
 * Every test prints "ok <name>" or "FAIL <name>"; a failing assertion
 * prints the file, line, expression and (for CHECK_EQ) both values.  The
 * program exits 1 if any test failed, 0 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>

#include "metrics.h"

static int test_failed;	/* current test */
static int any_failed;	/* whole run */

#define CHECK(expr)							\
	do {								\
		if (!(expr)) {						\
			printf("  %s:%d: assertion failed: %s\n",	\
			       __FILE__, __LINE__, #expr);		\
			test_failed = 1;				\
		}							\
	} while (0)

#define CHECK_EQ(got, want)						\
	do {								\
		unsigned long long g_ = (got), w_ = (want);		\
		if (g_ != w_) {						\
			printf("  %s:%d: assertion failed: %s == %s"	\
			       " (got %llu, want %llu)\n",		\
			       __FILE__, __LINE__, #got, #want, g_, w_);\
			test_failed = 1;				\
		}							\
	} while (0)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void run(const char *name, void (*fn)(void))
{
	test_failed = 0;
	fn();
	printf("%s %s\n", test_failed ? "FAIL" : "ok", name);
	if (test_failed)
		any_failed = 1;
}

/* ---- 128-bit division helper ---- */

static void test_udiv128(void)
{
	lb_u128 big = (lb_u128)1 << 100;

	CHECK_EQ(lb_udiv128(10, 3), 3);
	CHECK_EQ(lb_udiv128(0, 7), 0);
	CHECK(lb_udiv128(5, 0) == ~(lb_u128)0);
	CHECK(lb_udiv128(big, (lb_u128)1 << 50) == (lb_u128)1 << 50);
	CHECK_EQ(lb_udiv128(big, big + 1), 0);
	CHECK_EQ(lb_udiv128(big + 5, big), 1);
	/* 2^100 = 1 (mod 3), so 2^100 + 7 = 3q + 2 */
	CHECK(lb_udiv128(big + 7, 3) * 3 == big + 5);
	/* largest dividend / largest 64-bit divisor */
	CHECK(lb_udiv128(~(lb_u128)0, ~0ULL) ==
	      (((lb_u128)1 << 64) + 1));
}

/* ---- Jain's index ---- */

static void test_jain_equal(void)
{
	lb_u64 x4[] = { 5, 5, 5, 5 };
	lb_u64 x1[] = { 42 };
	lb_u64 x[1024];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = 1000000;
	CHECK_EQ(lb_jain_ppm(x4, 4), 1000000);
	CHECK_EQ(lb_jain_ppm(x1, 1), 1000000);
	CHECK_EQ(lb_jain_ppm(x, 1024), 1000000);
}

static void test_jain_one_nonzero(void)
{
	lb_u64 x2[] = { 0, 9 };
	lb_u64 x3[] = { 0, 0, 7 };
	lb_u64 x4[] = { 123456, 0, 0, 0 };
	lb_u64 x7[] = { 0, 0, 0, 1, 0, 0, 0 };

	CHECK_EQ(lb_jain_ppm(x2, 2), 500000);
	CHECK_EQ(lb_jain_ppm(x3, 3), 333333);	/* 1/3, truncated */
	CHECK_EQ(lb_jain_ppm(x4, 4), 250000);
	CHECK_EQ(lb_jain_ppm(x7, 7), 142857);	/* 1/7 = 0.142857142... */
}

static void test_jain_hand(void)
{
	/* S = 10, S^2 = 100, sum x^2 = 30, n = 4: 100 / 120 = 0.833333.. */
	lb_u64 a[] = { 1, 2, 3, 4 };
	/* S = 4, S^2 = 16, sum x^2 = 10, n = 2: 16 / 20 = 0.8 */
	lb_u64 b[] = { 1, 3 };
	/* S = 300, S^2 = 90000, sum x^2 = 50000, n = 2: 0.9 */
	lb_u64 c[] = { 100, 200 };
	/* S = 1400, S^2 = 1960000, sum x^2 = 1e4+4e4+25e4+36e4 = 660000,
	 * n = 4: 1960000 / 2640000 = 0.742424.. */
	lb_u64 d[] = { 100, 200, 500, 600 };

	CHECK_EQ(lb_jain_ppm(a, 4), 833333);
	CHECK_EQ(lb_jain_ppm(b, 2), 800000);
	CHECK_EQ(lb_jain_ppm(c, 2), 900000);
	CHECK_EQ(lb_jain_ppm(d, 4), 742424);
}

static void test_jain_edges(void)
{
	lb_u64 z[] = { 0, 0, 0 };

	CHECK_EQ(lb_jain_ppm(z, 0), 0);		/* n == 0 */
	CHECK_EQ(lb_jain_ppm(z, 3), 1000000);	/* all zero: all equal */
}

static void test_jain_overflow(void)
{
	/* scale invariance: {2^62, 2^61} behaves like {2, 1}: 9/10 */
	lb_u64 a[] = { 1ULL << 62, 1ULL << 61 };
	/* the maximum value everywhere: sum is 2^74, still exactly 1.0 */
	lb_u64 m[1024];
	/* 5e12 and 1e12: naive sum^2 = 3.6e25 overflows 64 bits; 36/52 */
	lb_u64 b[] = { 5000000000000ULL, 1000000000000ULL };
	/* one huge non-zero among zeros stays 1/n after shifting */
	lb_u64 c[] = { ~0ULL, 0, 0, 0, 0 };
	/* realistic big run: 1024 threads x 1e9 acquisitions, one half */
	static lb_u64 r[1024];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(m); i++)
		m[i] = ~0ULL;
	for (i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = i & 1 ? 1000000000ULL : 500000000ULL;

	CHECK_EQ(lb_jain_ppm(a, 2), 900000);
	CHECK_EQ(lb_jain_ppm(m, 1024), 1000000);
	CHECK_EQ(lb_jain_ppm(b, 2), 692307);	/* 36/52 = 0.6923076.. */
	CHECK_EQ(lb_jain_ppm(c, 5), 200000);
	/* (1.5e9)^2 / (2 * (0.25e18 + 1e18)) = 2.25/2.5 = 0.9 */
	CHECK_EQ(lb_jain_ppm(r, 1024), 900000);
}

/* ---- spread ---- */

static void test_spread(void)
{
	lb_u64 a[] = { 100, 150 };
	lb_u64 b[] = { 3, 7, 5 };
	lb_u64 one[] = { 7 };
	lb_u64 z[] = { 0, 5 };
	lb_u64 zz[] = { 0, 0 };
	lb_u64 big[] = { 30000000000000ULL, 10000000000000ULL };
	lb_u64 huge[] = { 1ULL << 63, 1 };
	lb_u64 mn, mx;

	CHECK_EQ(lb_spread_ppm(a, 2), 1500000);
	CHECK_EQ(lb_spread_ppm(b, 3), 2333333);	/* 7/3 */
	CHECK_EQ(lb_spread_ppm(one, 1), 1000000);
	CHECK_EQ(lb_spread_ppm(z, 2), LB_SPREAD_INF);
	CHECK_EQ(lb_spread_ppm(zz, 2), 1000000);
	CHECK_EQ(lb_spread_ppm(zz, 0), 1000000);
	/* 3e13 * 1e6 does not fit 64 bits: the 128-bit path */
	CHECK_EQ(lb_spread_ppm(big, 2), 3000000);
	/* 2^63 * 1e6 as a ratio does not fit: clamped below the sentinel */
	CHECK_EQ(lb_spread_ppm(huge, 2), LB_SPREAD_MAX);

	lb_minmax(b, 3, &mn, &mx);
	CHECK_EQ(mn, 3);
	CHECK_EQ(mx, 7);
	lb_minmax(b, 0, &mn, &mx);
	CHECK_EQ(mn, 0);
	CHECK_EQ(mx, 0);
}

/* ---- histogram ---- */

static void test_hist_buckets(void)
{
	CHECK_EQ(lb_hist_bucket(0), 0);
	CHECK_EQ(lb_hist_bucket(1), 0);
	CHECK_EQ(lb_hist_bucket(2), 1);
	CHECK_EQ(lb_hist_bucket(3), 1);
	CHECK_EQ(lb_hist_bucket(4), 2);
	CHECK_EQ(lb_hist_bucket(1023), 9);
	CHECK_EQ(lb_hist_bucket(1024), 10);
	CHECK_EQ(lb_hist_bucket(~0ULL), 63);
	CHECK_EQ(lb_hist_bucket_upper(0), 1);
	CHECK_EQ(lb_hist_bucket_upper(1), 3);
	CHECK_EQ(lb_hist_bucket_upper(10), 2047);
	CHECK_EQ(lb_hist_bucket_upper(62), ~0ULL >> 1);
	CHECK_EQ(lb_hist_bucket_upper(63), ~0ULL);
}

static void test_hist_percentiles(void)
{
	struct lb_hist h;
	unsigned int i;

	lb_hist_init(&h);
	/* empty histogram: 0 for everything */
	CHECK_EQ(lb_hist_percentile(&h, 500000), 0);
	CHECK_EQ(lb_hist_percentile(&h, 1000000), 0);
	CHECK_EQ(h.count, 0);

	/* {1, 2, 3, 4}: nearest-rank p50 is rank 2 = value 2, bucket 1 */
	lb_hist_add(&h, 1);
	lb_hist_add(&h, 2);
	lb_hist_add(&h, 3);
	lb_hist_add(&h, 4);
	CHECK_EQ(h.count, 4);
	CHECK_EQ(h.max, 4);
	CHECK_EQ(lb_hist_percentile(&h, 0), 1);	/* rank 1: bucket 0 */
	CHECK_EQ(lb_hist_percentile(&h, 250000), 1);	/* rank 1 */
	CHECK_EQ(lb_hist_percentile(&h, 250001), 3);	/* rank 2 */
	CHECK_EQ(lb_hist_percentile(&h, 500000), 3);
	CHECK_EQ(lb_hist_percentile(&h, 750000), 3);	/* rank 3 */
	CHECK_EQ(lb_hist_percentile(&h, 750001), 7);	/* rank 4: [4,7] */
	CHECK_EQ(lb_hist_percentile(&h, 1000000), 7);
	CHECK_EQ(lb_hist_percentile(&h, 2000000), 7);	/* clamped */

	/*
	 * 100 samples: 98 x 100 (bucket 6, [64,127]), 1 x 1000 (bucket 9,
	 * [512,1023]), 1 x 1e6 (bucket 19).  p50, p98 -> 127; p99 is rank
	 * 99 -> 1023; p99.1 is rank 100 -> 2^20 - 1; max is exact.
	 */
	lb_hist_init(&h);
	for (i = 0; i < 98; i++)
		lb_hist_add(&h, 100);
	lb_hist_add(&h, 1000);
	lb_hist_add(&h, 1000000);
	CHECK_EQ(lb_hist_percentile(&h, 500000), 127);
	CHECK_EQ(lb_hist_percentile(&h, 980000), 127);
	CHECK_EQ(lb_hist_percentile(&h, 990000), 1023);
	CHECK_EQ(lb_hist_percentile(&h, 991000), 1048575);
	CHECK_EQ(lb_hist_percentile(&h, 1000000), 1048575);
	CHECK_EQ(h.max, 1000000);

	/* a single sample of 0 and one of ~0 */
	lb_hist_init(&h);
	lb_hist_add(&h, 0);
	CHECK_EQ(lb_hist_percentile(&h, 990000), 1);
	CHECK_EQ(h.max, 0);
	lb_hist_add(&h, ~0ULL);
	CHECK_EQ(lb_hist_percentile(&h, 500000), 1);
	CHECK_EQ(lb_hist_percentile(&h, 500001), ~0ULL);
	CHECK_EQ(h.max, ~0ULL);
}

static void test_hist_merge_big(void)
{
	struct lb_hist a, b;

	lb_hist_init(&a);
	lb_hist_init(&b);
	lb_hist_add(&a, 10);		/* bucket 3 */
	lb_hist_add(&b, 5000);		/* bucket 12 */
	lb_hist_add(&b, 6);		/* bucket 2 */
	lb_hist_merge(&a, &b);
	CHECK_EQ(a.count, 3);
	CHECK_EQ(a.max, 5000);
	CHECK_EQ(a.bucket[2], 1);
	CHECK_EQ(a.bucket[3], 1);
	CHECK_EQ(a.bucket[12], 1);
	CHECK_EQ(lb_hist_percentile(&a, 500000), 15);	/* rank 2: [8,15] */
	CHECK_EQ(lb_hist_percentile(&a, 1000000), 8191);

	/* counts so large that count * ppm needs more than 64 bits */
	lb_hist_init(&a);
	a.bucket[0] = 1ULL << 62;
	a.bucket[5] = 1ULL << 62;
	a.count = 1ULL << 63;
	CHECK_EQ(lb_hist_percentile(&a, 500000), 1);
	CHECK_EQ(lb_hist_percentile(&a, 500001), 63);
}

/* ---- longest run ---- */

static void test_run(void)
{
	/* owners in grant order, and whether someone else was waiting */
	static const unsigned int own[] = { 0, 1, 0, 0, 0, 1, 1, 0, 0, 0,
					    0, 0 };
	static const int wait[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
				    1, 1 };
	static const unsigned int len[] = { 1, 1, 1, 2, 3, 1, 2, 1, 2, 0,
					    1, 2 };
	struct lb_run r;
	unsigned int i;

	lb_run_init(&r);
	CHECK_EQ(r.longest, 0);
	for (i = 0; i < ARRAY_SIZE(own); i++)
		CHECK_EQ(lb_run_grant(&r, own[i], wait[i]), len[i]);
	/* 0,0,0 at indexes 2..4; the later 0s are cut in two by wait=0 */
	CHECK_EQ(r.longest, 3);
	CHECK_EQ(r.longest_owner, 0);

	/* strict alternation (FIFO with everyone waiting): runs of 1 */
	lb_run_init(&r);
	for (i = 0; i < 1000; i++)
		lb_run_grant(&r, i % 3, 1);
	CHECK_EQ(r.longest, 1);

	/* one owner hogging while another waits */
	lb_run_init(&r);
	lb_run_grant(&r, 1, 1);
	for (i = 0; i < 500; i++)
		lb_run_grant(&r, 2, 1);
	lb_run_grant(&r, 1, 1);
	CHECK_EQ(r.longest, 500);
	CHECK_EQ(r.longest_owner, 2);

	/* nobody else waiting: nothing counts */
	lb_run_init(&r);
	for (i = 0; i < 10; i++)
		lb_run_grant(&r, 4, 0);
	CHECK_EQ(r.longest, 0);
}

/* lb_grant_order() on @n grants given in one log; returns its status. */
static int order_of(const struct lb_grant *g, lb_u64 n, lb_u32 bits,
		    struct lb_order *o)
{
	const struct lb_grant *by[16];
	unsigned char passed[16];
	lb_u32 bit[17];

	return lb_grant_order(&g, &n, 1, bits, by, passed, bit, o);
}

static void test_grant_order(void)
{
	/* { seq, snap, stamp, ticket, who } */
	/* FIFO: B refused (stamp 1) while A holds, then granted next */
	static const struct lb_grant fifo[] = {
		{ 0, 0, 0, 0, 0 }, { 1, 0, 1, 1, 1 }, { 2, 1, 2, 2, 0 },
		{ 3, 2, 3, 3, 1 },
	};
	/*
	 * A re-takes twice after B was refused (stamp 1 <= A's snapshots 1):
	 * two bypasses in a row, B passed over twice.  Listed out of order:
	 * seq, not the position, is the grant order.
	 */
	static const struct lb_grant barge[] = {
		{ 3, 0, 1, 0, 1 }, { 0, 0, 0, 0, 0 }, { 1, 1, 0, 0, 0 },
		{ 2, 1, 0, 0, 0 },
	};
	/* B stamped after A's snapshot: A going first is no bypass */
	static const struct lb_grant late[] = {
		{ 0, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 }, { 2, 0, 1, 0, 1 },
	};
	/*
	 * tickets 5, 6, 8: one break (the first ticket is whatever the lock
	 * was at); 8-bit wrap 255 -> 0 is none
	 */
	static const struct lb_grant tickets[] = {
		{ 0, 0, 0, 5, 0 }, { 1, 0, 0, 6, 0 }, { 2, 0, 0, 8, 0 },
	};
	struct lb_grant wrap[300];
	struct lb_grant dup[2] = { { 0, 0, 0, 0, 0 }, { 0, 0, 0, 1, 1 } };
	const struct lb_grant *logs[2] = { &fifo[0], &fifo[2] };
	const struct lb_grant *by[4];
	lb_u64 lens[2] = { 2, 2 };
	unsigned char passed[4];
	struct lb_order o;
	lb_u32 bit[5];
	unsigned int i;

	CHECK_EQ(order_of(fifo, 4, 8, &o), 0);
	CHECK_EQ(o.grants, 4);
	CHECK_EQ(o.waits, 3);
	CHECK_EQ(o.bypasses, 0);
	CHECK_EQ(o.bypass_max, 0);
	CHECK_EQ(o.ticket_breaks, 0);
	CHECK_EQ(o.passed.count, 0);	/* nobody passed over */
	/* the same grants split over two logs */
	CHECK_EQ(lb_grant_order(logs, lens, 2, 8, by, passed, bit, &o), 0);
	CHECK_EQ(o.grants, 4);
	CHECK_EQ(o.bypasses, 0);

	CHECK_EQ(order_of(barge, 4, 0, &o), 0);
	CHECK_EQ(o.waits, 1);
	CHECK_EQ(o.bypasses, 2);
	CHECK_EQ(o.bypass_share, 500000);
	CHECK_EQ(o.bypass_max, 2);
	CHECK_EQ(o.bypass_run, 2);
	CHECK_EQ(o.ticket_breaks, 0);	/* not a ticket lock: not counted */
	/* one waiter, passed over twice: bucket 1 holds 2..3 */
	CHECK_EQ(o.passed.count, 1);
	CHECK_EQ(o.passed.bucket[1], 1);
	CHECK_EQ(o.passed.max, 2);

	CHECK_EQ(order_of(late, 3, 0, &o), 0);
	CHECK_EQ(o.bypasses, 0);
	CHECK_EQ(o.bypass_max, 0);

	CHECK_EQ(order_of(tickets, 3, 8, &o), 0);
	CHECK_EQ(o.ticket_breaks, 1);
	for (i = 0; i < 300; i++)
		wrap[i] = (struct lb_grant){ i, 0, 0, i & 0xff, 0 };
	{
		const struct lb_grant *wby[300], *w = wrap;
		unsigned char wp[300];
		lb_u32 wbit[301];
		lb_u64 wn = 300;

		CHECK_EQ(lb_grant_order(&w, &wn, 1, 8, wby, wp, wbit, &o), 0);
		CHECK_EQ(o.ticket_breaks, 0);
		CHECK_EQ(lb_grant_order(&w, &wn, 1, 16, wby, wp, wbit, &o), 0);
		CHECK_EQ(o.ticket_breaks, 1);	/* 255 -> 0 is a break at 16 bits */
	}

	/* two grants in one place: the log is refused */
	CHECK_EQ(order_of(dup, 2, 8, &o), -1);
}

int main(void)
{
	run("udiv128", test_udiv128);
	run("jain_equal", test_jain_equal);
	run("jain_one_nonzero", test_jain_one_nonzero);
	run("jain_hand", test_jain_hand);
	run("jain_edges", test_jain_edges);
	run("jain_overflow", test_jain_overflow);
	run("spread", test_spread);
	run("hist_buckets", test_hist_buckets);
	run("hist_percentiles", test_hist_percentiles);
	run("hist_merge_big", test_hist_merge_big);
	run("run", test_run);
	run("grant_order", test_grant_order);
	if (any_failed) {
		printf("test_metrics: FAILED\n");
		return EXIT_FAILURE;
	}
	printf("test_metrics: all tests passed\n");
	return EXIT_SUCCESS;
}
