/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - fairness metrics shared by the kernel module and the
 * userspace fairness test.
 *
 * Rules, so the kernel can build metrics.c unchanged:
 *  - no includes at all (own lb_* types, same as locks.h);
 *  - integer arithmetic only, never floating point: every ratio is returned
 *    as fixed point scaled by LB_SCALE (1e6), i.e. 1.0 == 1000000;
 *  - every 64-bit division goes through LB_DIV64(a, b), which defaults to
 *    plain '/'; a kernel caller may define it to div64_u64() before
 *    including this header.  128-bit quotients use lb_udiv128(), a
 *    shift-and-subtract loop, so no libgcc helper (__udivti3) is needed.
 */
#ifndef LB_METRICS_H
#define LB_METRICS_H

#ifndef LB_TYPES_DEFINED
#define LB_TYPES_DEFINED
typedef unsigned char		lb_u8;
typedef unsigned short		lb_u16;
typedef unsigned int		lb_u32;
typedef signed int		lb_s32;
typedef unsigned long long	lb_u64;
__extension__ typedef unsigned __int128 lb_u128;
#endif

#ifndef LB_DIV64
#define LB_DIV64(a, b)	((lb_u64)(a) / (lb_u64)(b))
#endif

#define LB_SCALE	1000000ULL		/* fixed point: 1.0 */
#define LB_U64_MAX	(~0ULL)

/*
 * lb_udiv128 - a / b for 128-bit unsigned values, b != 0.
 * Returns all ones for b == 0.  Uses LB_DIV64 when both fit in 64 bits.
 */
lb_u128 lb_udiv128(lb_u128 a, lb_u128 b);

/*
 * lb_jain_ppm - Jain's fairness index of @n counts, scaled by 1e6:
 *
 *	J = (sum x)^2 / (n * sum x^2)
 *
 * J is 1e6 when all counts are equal and 1e6 / n when one count is
 * non-zero and the rest are zero.  Computed exactly in 128 bits while
 * sum x < 2^48 (then (sum x)^2 < 2^96, 1e6 * (sum x)^2 < 2^116 and
 * n * sum x^2 <= n * (sum x)^2 < 2^128 for any 32-bit n).  Larger inputs
 * are first shifted right by the same number of bits until the sum fits;
 * J is scale-invariant, so this only drops low bits (relative error well
 * below 1e-6 for any realistic n).  The result is truncated (floor).
 * Edge cases: n == 0 returns 0; all counts zero returns 1e6 (all equal).
 */
lb_u64 lb_jain_ppm(const lb_u64 *x, lb_u32 n);

/* Minimum and maximum of @n values; both 0 when n == 0. */
void lb_minmax(const lb_u64 *x, lb_u32 n, lb_u64 *min, lb_u64 *max);

/*
 * lb_spread_ppm - max / min of @n values, scaled by 1e6 (floor).
 * Edge cases, documented sentinels:
 *  - n == 0 or all values zero: 1e6 (no spread);
 *  - min == 0 and max > 0: LB_SPREAD_INF (a thread did nothing at all);
 *  - a finite ratio too large for 64 bits is clamped to LB_SPREAD_MAX.
 * Never divides by zero.
 */
#define LB_SPREAD_INF	LB_U64_MAX
#define LB_SPREAD_MAX	(LB_U64_MAX - 1)
lb_u64 lb_spread_ppm(const lb_u64 *x, lb_u32 n);

/*
 * log2 histogram of wait times (any unit: ns, TSC cycles).
 * Bucket 0 holds the values 0 and 1; bucket b >= 1 holds [2^b, 2^(b+1)).
 * 64 buckets cover every lb_u64.  The exact maximum is kept beside the
 * buckets.  No locking: one histogram per thread/CPU, merged afterwards.
 */
#define LB_HIST_BUCKETS	64

struct lb_hist {
	lb_u64 bucket[LB_HIST_BUCKETS];
	lb_u64 count;		/* number of samples */
	lb_u64 max;		/* exact largest sample */
};

/* Bucket index of value @v. */
static inline lb_u32 lb_hist_bucket(lb_u64 v)
{
	if (v < 2)
		return 0;
	return 63 - (lb_u32)__builtin_clzll(v);
}

/* Largest value that falls in bucket @b: 2^(b+1) - 1 (bucket 0: 1). */
static inline lb_u64 lb_hist_bucket_upper(lb_u32 b)
{
	if (b >= LB_HIST_BUCKETS - 1)
		return LB_U64_MAX;
	return (2ULL << b) - 1;
}

static inline void lb_hist_add(struct lb_hist *h, lb_u64 v)
{
	h->bucket[lb_hist_bucket(v)]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

void lb_hist_init(struct lb_hist *h);
/* dst += src (buckets, count, max). */
void lb_hist_merge(struct lb_hist *dst, const struct lb_hist *src);

/*
 * lb_hist_percentile - the @ppm-th percentile (ppm: parts per million,
 * 500000 = p50, 990000 = p99, 1000000 = p100), nearest-rank definition:
 * rank r = ceil(count * ppm / 1e6), at least 1.  The value returned is the
 * UPPER BOUND of the bucket holding the r-th smallest sample, i.e.
 * 2^(b+1) - 1: the true percentile lies in [2^b, 2^(b+1) - 1] (bucket 0:
 * [0, 1]).  It is a conservative over-estimate by at most 2x and can
 * exceed the exact max; p100 is the upper bound of the highest non-empty
 * bucket, use h->max for the exact maximum.  An empty histogram returns 0;
 * ppm above 1e6 is treated as 1e6.
 */
lb_u64 lb_hist_percentile(const struct lb_hist *h, lb_u32 ppm);

/*
 * Longest run of consecutive grants to one owner while someone else was
 * waiting.
 *
 * How to feed it: call lb_run_grant() once per lock grant, in grant order,
 * with the owner's id (thread index, CPU number).  The natural place is
 * inside the critical section right after lock(): the lock under test
 * itself then serialises the calls and orders them exactly as granted, and
 * the struct needs no lock of its own.  @others_waiting says whether at
 * least one other contender was waiting for (or still competing for) the
 * lock at the time of this grant; a caller that cannot observe waiters
 * directly can pass "another thread has not finished yet".  A grant with
 * others_waiting == 0 does not count and ends the current run (nobody was
 * being starved).  A grant to the same owner as the previous counted grant
 * extends the run, any other grant starts a new run of length 1.
 *
 * lb_run_grant() returns the length of the run the grant belongs to (0 if
 * it did not count), so a caller can also keep a per-owner maximum.
 * A perfectly FIFO lock with everyone always waiting gives longest == 1.
 */
struct lb_run {
	lb_u32 last_owner;	/* owner of the previous counted grant */
	lb_u32 have_last;	/* last_owner is valid */
	lb_u64 cur;		/* length of the current run */
	lb_u64 longest;		/* longest run seen */
	lb_u32 longest_owner;	/* owner of that run */
};

static inline void lb_run_init(struct lb_run *r)
{
	r->last_owner = 0;
	r->have_last = 0;
	r->cur = 0;
	r->longest = 0;
	r->longest_owner = 0;
}

static inline lb_u64 lb_run_grant(struct lb_run *r, lb_u32 owner,
				  int others_waiting)
{
	if (!others_waiting) {
		r->have_last = 0;
		r->cur = 0;
		return 0;
	}
	if (r->have_last && r->last_owner == owner) {
		r->cur++;
	} else {
		r->last_owner = owner;
		r->have_last = 1;
		r->cur = 1;
	}
	if (r->cur > r->longest) {
		r->longest = r->cur;
		r->longest_owner = owner;
	}
	return r->cur;
}

/*
 * Grant order: exact bypasses.
 *
 * One struct lb_grant per acquisition, filled by its taker: @seq, its
 * place in the grant order (0-based; read inside the critical section);
 * @snap, an arrival counter read just before the lock's first attempt;
 * @stamp, 0 if that attempt got the lock, else the arrival counter's new
 * value after incrementing it right after the refused attempt (1, 2, ...);
 * @ticket, for a ticket lock the ticket its xadd took; @who, the taker.
 *
 * Grant X bypasses waiter W when X is granted before W and W's stamp is
 * <= X's snapshot: the lock had refused W before X even tried.  That never
 * counts a bypass that did not happen (W's refusal precedes its stamp,
 * which precedes X's snapshot, which precedes X's attempt); it misses one
 * only when W is overtaken between its refused attempt and its stamp.  For
 * a ticket lock the refused attempt is the xadd: a stamped waiter already
 * holds its place in line, so a FIFO lock has exactly 0 bypasses.
 *
 * lb_grant_order() reads @n grants, given as @nlogs arrays (@logs[i] of
 * @lens[i] entries, e.g. one per thread), and fills struct lb_order:
 *  - waits: grants whose first attempt was refused (stamp != 0);
 *  - bypasses: grants that passed over at least one waiter, and their
 *    share of all grants (ppm, LB_SCALE);
 *  - bypass_max: the most grants that passed over one waiter in one wait;
 *  - bypass_run: the longest run of bypassing grants to one taker;
 *  - passed: for each waiter passed over at least once, how many grants
 *    passed it in its wait, as a log2 histogram (bucket 0: exactly 1);
 *    a FIFO lock leaves it empty;
 *  - ticket_breaks (ticket_bits != 0): grants after the first whose
 *    ticket is not the one after the previous grant's, modulo
 *    2^ticket_bits (the first ticket is whatever the lock was at).
 * Scratch space is the caller's (no allocation here): @by, n pointers;
 * @passed, n bytes; @bit, n + 1 counters (snapshots are <= the number of
 * stamps, which is <= n).  Returns 0, or -1 if the grants do not hold
 * each place 0..n-1 exactly once (then only waits is filled).
 * Cost: O(n log n) (a Fenwick tree over the snapshots).
 */
struct lb_grant {
	lb_u64 seq;
	lb_u64 snap;
	lb_u64 stamp;
	lb_u32 ticket;
	lb_u32 who;
};

struct lb_order {
	lb_u64 grants, waits;
	lb_u64 bypasses, bypass_share, bypass_max, bypass_run;
	lb_u64 ticket_breaks;
	struct lb_hist passed;
};

int lb_grant_order(const struct lb_grant *const *logs, const lb_u64 *lens,
		   lb_u32 nlogs, lb_u32 ticket_bits,
		   const struct lb_grant **by, unsigned char *passed,
		   lb_u32 *bit, struct lb_order *out);

#endif /* LB_METRICS_H */
