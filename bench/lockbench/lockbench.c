// SPDX-License-Identifier: GPL-2.0
/*
 * lockbench - spinlock fairness and cost, measured inside the kernel.
 *
 * The test of commit 314cdbefd1fd ("x86: FIFO ticket spinlocks"), as a
 * module: one kthread per online CPU (or the first @threads of them), each
 * bound to its CPU and all released at once by a spinning start barrier.
 * Each loops
 *
 *	lock -> critical section (write @cs_lines shared cache lines)
 *	     -> unlock -> think time (@think PAUSEs)
 *
 * until it has done @count acquisitions (fixed-count mode, the 2008 test),
 * or for @duration_ms (fixed-duration mode, @count=0).  In fixed-count mode
 * @duration_ms is a cap: a run still going then is stopped and reported
 * with complete=0 (a FIFO lock on an overcommitted host can take that long).
 *
 * The locks, all in one load, one after the other: every lock of
 * bench/lib/locks.h's list, LB_LOCKS() (the code the user-space tools
 * measure), among them
 *
 *  legacy      the 2.6.24 x86 decrement lock, the seed's asm
 *  ticket8     the series' ticket lock, this tree's asm/ticket_spinlock.h
 *  ticket16    at 8- and 16-bit tickets whatever this kernel's spinlock is
 *              (bench/lib/series.h)
 *  skipticket  the series' skip-ticket lock, asm/skipticket_spinlock.h
 *
 * and then
 *
 *  spinlock    this kernel's own spinlock_t, through spin_lock() and
 *              spin_unlock(): the series' ticket lock on a ticket kernel,
 *              the lock chosen at boot on one that chooses; qspinlock on a
 *              queued kernel, which in a guest that shows the CPUID
 *              hypervisor bit without pv spinlocks (QEMU TCG) is
 *              virt_spin_lock()'s test-and-set lock (impl=qspinlock-tas).
 *
 * The bench locks are taken the way spin_lock() takes the kernel's lock:
 * an out-of-line function that disables preemption and then runs the lock
 * (cf. _raw_spin_lock() in kernel/locking/spinlock.c), and an inline
 * unlock followed by preempt_enable() (cf. INLINE_SPIN_UNLOCK).  So the
 * uncontended cost compares like with like.  Interrupts stay enabled, as
 * with spin_lock(), unless @irqsoff (then as with spin_lock_irq()).
 *
 * Measured per CPU: acquisitions (in fixed-count mode also the count it
 * had when the first CPU finished, snapshotted exactly inside that CPU's
 * last critical section), the time from the common start to its last
 * unlock, the wait for each acquisition (TSC cycles from before lock() to
 * holding the lock, log2 histogram), and the longest run of consecutive
 * grants to it while another CPU was waiting.  "Waiting" is a shared
 * count, incremented right before the lock call and decremented once the
 * lock is held; the critical section reads it and feeds lb_run_grant()
 * (metrics.h).  A FIFO lock gives runs of 1, or 2 when the other CPU had
 * announced itself but not yet taken its ticket; an unfair lock gives long
 * runs.  A CPU stopped between announcing itself and its lock instruction
 * (an interrupt, the host descheduling a vCPU) also lets another CPU run
 * alone: that is not the lock's doing, so where the lock word shows its
 * queue (ticket locks, native qspinlock) fifo_breaks counts the exact
 * thing: grants to the previous owner although, at its unlock, the lock
 * showed another waiter queued.
 *
 * Also measured: the critical-section length and the handoff latency (from
 * the previous owner's unlock to the next owner holding the lock, when
 * that owner was already waiting), and, on one CPU with nobody else
 * running, the uncontended lock+unlock cost: the best of five rounds of
 * @uncontended_loops pairs, in TSC cycles per pair.
 *
 * Results: /sys/kernel/debug/lockbench/results, key=value lines (format
 * in bench/README.md): one "lockbench=1" line with the settings, one
 * "lock=NAME" line per lock, one "cpu=N lock=NAME" line per CPU and lock.
 * The run happens at module load; a bad parameter fails the load with
 * -EINVAL and a message naming it and its valid range.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#ifdef CONFIG_X86_BOOT_SPINLOCKS
#include <asm/spinlock_boot_choice.h>
#endif

#define LB_DIV64(a, b)	div64_u64((a), (b))

/*
 * The skip-ticket lock's slow path counts its events here, per CPU, through
 * the header's __skipticket_stat() hook (a no-op in the kernel): waits next in
 * line unregistered (lazy) and those that registered after all
 * (lazy_late), registered waits (early: registered in their xadd, in a
 * hurried state; counted in waits too), grants to a CPU whose ticket head reached
 * while it was not registered (held), registered waiters at head that
 * found a CPU behind them not yet registered (blocked), claims and failed
 * claims, stalls noted, skips, requeues, and stale claims: a claim of a
 * ticket that another waiter took after us, i.e. our old ticket, come round
 * again after 2^8 more, claimed in the place of that waiter
 * (lbk_skt_owner[] records the last registered waiter of each ticket). A
 * stall also adds the time the state it leaves is hurried to
 * lbk_skt_hurried.
 */
struct lbk_skt_stats {
	u64 lazy, lazy_late, wait, early, held, claim, claim_fail, blocked, stall;
	u64 skip, requeue, stale;
	u32 id;			/* this CPU's current wait, in lbk_skt_owner */
};

static DEFINE_PER_CPU(struct lbk_skt_stats, lbk_skt);
static u32 lbk_skt_owner[256] ____cacheline_aligned_in_smp;
static struct {
	u64 total;		/* TSC cycles hurried, ... */
	u64 end;		/* ... the last stall's hurry ending then */
} lbk_skt_hurried ____cacheline_aligned_in_smp;

/*
 * Counted only with skt_stats=1 (lab/skipstats.sh): by default the hook is a
 * static branch left off (a NOP with CONFIG_JUMP_LABEL, else a load and a
 * test) where the kernel's copy has nothing, so that the lock the benchmark
 * measures costs what the kernel's does, or nearly.
 */
static DEFINE_STATIC_KEY_FALSE(lbk_skt_stats_on);
static void lbk_skt_stat(int event, u8 ticket);
#undef __skipticket_stat
#define __skipticket_stat(lock, event, ticket)				\
	do {								\
		(void)(lock);						\
		if (static_branch_unlikely(&lbk_skt_stats_on))		\
			lbk_skt_stat((event), (ticket));		\
	} while (0)

#include "../lib/locks.h"
#include "../lib/metrics.h"
#include "../lib/metrics.c"

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

#define LBK_MAX_COUNT		1000000000UL
#define LBK_MAX_DURATION_MS	60000U
#define LBK_MAX_CS_LINES	64U
#define LBK_MAX_THINK		100000U
#define LBK_MAX_LOOPS		10000000U
#define LBK_ROUNDS		5	/* uncontended: best of this many */

static unsigned int threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "kthreads, one per CPU on the first N online CPUs (0 = all online CPUs; default 0)");

static char *locks = "all";
module_param(locks, charp, 0444);
MODULE_PARM_DESC(locks, "all, or a list of the locks it knows (bench/lib/locks.h's list, then spinlock; the results' known=) separated by ',' or '+', run in that order (default all)");

static bool shuffle;
module_param(shuffle, bool, 0444);
MODULE_PARM_DESC(shuffle, "run the locks in a new random order (default 0: in the order of locks=)");

static unsigned long count = 100000;
module_param(count, ulong, 0444);
MODULE_PARM_DESC(count, "acquisitions per CPU (0 = run for duration_ms instead; 0..1000000000, default 100000)");

static unsigned int duration_ms = 10000;
module_param(duration_ms, uint, 0444);
MODULE_PARM_DESC(duration_ms, "run length with count=0, else the cap on a run (1..60000, default 10000)");

static unsigned int cs_lines = 1;
module_param(cs_lines, uint, 0444);
MODULE_PARM_DESC(cs_lines, "shared cache lines written per critical section (1..64, default 1)");

static unsigned int think;
module_param(think, uint, 0444);
MODULE_PARM_DESC(think, "PAUSEs after each unlock (0..100000, default 0)");

static bool irqsoff;
module_param(irqsoff, bool, 0444);
MODULE_PARM_DESC(irqsoff, "take the locks with interrupts off, as spin_lock_irq() does (default 0: as spin_lock())");

static unsigned int uncontended_loops = 100000;
module_param(uncontended_loops, uint, 0444);
MODULE_PARM_DESC(uncontended_loops, "lock+unlock pairs per round of the uncontended measurement (1..10000000, default 100000)");

static bool skt_stats;
module_param(skt_stats, bool, 0444);
MODULE_PARM_DESC(skt_stats, "skipticket: count its slow path's events, the skt_* results (default 0: not counted, the lock as the kernel has it)");

static unsigned int skip_us = 100;
module_param(skip_us, uint, 0444);
MODULE_PARM_DESC(skip_us, "skipticket: microseconds a free lock may stay unclaimed before its next waiter is skipped, 256 times that while its offers seldom stall (1..10000, default 100)");

/*
 * The skip-ticket lock's state (its patience, in TSC cycles, from skip_us
 * and tsc_khz, and its stall clock), its slow path and its hurried lock,
 * as the kernel's skipticket_spinlock.c has them (their kernel names are renamed by
 * series.h: a skip-ticket kernel has its own).
 */
struct skt_state skt_state __cacheline_aligned;

void skt_slowpath(skt_lock_t *lock, u32 val)
{
	skt_wait_clock(lock, val, &skt_state, rdtsc);
}

void skt_lock_hurried(skt_lock_t *lock)
{
	u32 val;

	if (!skt_take_hurried(lock, &val, &skt_state, rdtsc))
		skt_slowpath(lock, val);
}

#define __lbk_skt_count(event)	this_cpu_inc(lbk_skt.event)

/* A registered wait with ticket @t: who waits for @t now. */
static void lbk_skt_waiting(u8 t)
{
	u32 id = (smp_processor_id() + 1) << 24 | (__this_cpu_read(lbk_skt.wait) & 0xffffff);

	__this_cpu_write(lbk_skt.id, id);
	WRITE_ONCE(lbk_skt_owner[t], id);
}

static void lbk_skt_stalled(void);

static void lbk_skt_stat(int event, u8 t)
{
	switch (event) {
	case SKIPTICKET_STAT_LAZY:
		__lbk_skt_count(lazy);
		break;
	case SKIPTICKET_STAT_LAZY_LATE:
		__lbk_skt_count(lazy_late);
		break;
	case SKIPTICKET_STAT_EARLY:
		__lbk_skt_count(early);
		fallthrough;
	case SKIPTICKET_STAT_WAIT:
		__lbk_skt_count(wait);
		lbk_skt_waiting(t);
		break;
	case SKIPTICKET_STAT_HELD:
		__lbk_skt_count(held);
		break;
	case SKIPTICKET_STAT_CLAIM:
		__lbk_skt_count(claim);
		if (READ_ONCE(lbk_skt_owner[t]) != __this_cpu_read(lbk_skt.id))
			__lbk_skt_count(stale);
		break;
	case SKIPTICKET_STAT_CLAIM_FAIL:
		__lbk_skt_count(claim_fail);
		break;
	case SKIPTICKET_STAT_BLOCKED:
		__lbk_skt_count(blocked);
		break;
	case SKIPTICKET_STAT_STALL:
		lbk_skt_stalled();
		break;
	case SKIPTICKET_STAT_SKIP:
		__lbk_skt_count(skip);
		break;
	case SKIPTICKET_STAT_REQUEUE:
		__lbk_skt_count(requeue);
		lbk_skt_waiting(t);
		break;
	}
}

/*
 * A stall was noted: the stall clock is now what it is until the next
 * one, and the guest hurried until it runs less than a burst ahead. Add
 * that time, but for what an earlier stall's hurry already covered.
 */
static void lbk_skt_stalled(void)
{
	u64 p = READ_ONCE(skt_state.patience), now = rdtsc();
	u64 end = READ_ONCE(skt_state.clock) - SKIPTICKET_BURST * (p << SKIPTICKET_GAP_SHIFT);
	u64 from = max(now, READ_ONCE(lbk_skt_hurried.end));

	__lbk_skt_count(stall);
	if ((s64)(end - from) > 0)
		lbk_skt_hurried.total += end - from;
	if ((s64)(end - READ_ONCE(lbk_skt_hurried.end)) > 0)
		WRITE_ONCE(lbk_skt_hurried.end, end);
}

/* ------------------------------------------------------------------ */
/* The locks                                                           */
/* ------------------------------------------------------------------ */

/* The locks of locks.h (LB_LOCKS()), then the kernel's spin_lock(). */
enum lbk_kind {
#define LB_X(ID, name, type)	LBK_##ID = LB_##ID,
	LB_LOCKS(LB_X)
#undef LB_X
	LBK_SPINLOCK = LB_NR_KINDS,
	LBK_NR
};

static const char * const lbk_names[LBK_NR] = {
#define LB_X(ID, name, type)	[LBK_##ID] = #name,
	LB_LOCKS(LB_X)
#undef LB_X
	[LBK_SPINLOCK]	= "spinlock",
};

/* The names of every lock it knows, comma-separated, into @buf. */
static const char *lbk_known(char *buf, size_t size)
{
	size_t len = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < LBK_NR && len < size; k++)
		len += scnprintf(buf + len, size - len, "%s%s", k ? "," : "",
				 lbk_names[k]);
	return buf;
}

/* Each lock word alone in its cache line. */
struct lbk_lockline {
	union lb_anylock l;
} ____cacheline_aligned_in_smp;

static struct lbk_lockline lbk_locks[LB_NR_KINDS];

/* The kernel's own lock: a static DEFINE_SPINLOCK, alone in its line. */
static struct {
	spinlock_t lock;	/* under test; guards lbk_sh while it runs */
} lbk_kernel ____cacheline_aligned_in_smp = {
	.lock = __SPIN_LOCK_UNLOCKED(lbk_kernel.lock),
};

/*
 * Contenders between "about to lock" and "holding it" (see lbk_loop()):
 * hot, in its own line.
 */
static struct {
	atomic_t n;
} lbk_waiters ____cacheline_aligned_in_smp;

/*
 * Arrival counter of the grant order (metrics.h, "Grant order"): read
 * just before a lock's first attempt (the snapshot), incremented right
 * after a refused one (the stamp).  Hot, in its own line.
 */
static struct {
	atomic64_t n;
} lbk_arrivals ____cacheline_aligned_in_smp;

/* At most this many grants are logged per lock (32 bytes each). */
#define LBK_MAX_LOGGED		(8UL << 20)

/*
 * The bench locks are taken as spin_lock() takes a lock: out of line,
 * preemption off, then the lock (cf. _raw_spin_lock()).  Under contention
 * the caller first counts itself in lbk_waiters, as the very last step
 * before the lock's own atomic instruction: a CPU that has announced
 * itself but not yet asked the lock (an interrupt, or the host preempting
 * the vCPU, in between) would look like a waiter a FIFO lock passes over,
 * so that window is kept as short as it can be.  The kernel's spinlock_t
 * gets the same announcement one call level up.
 */
static __always_inline void lbk_announce(const bool wait)
{
	if (wait)
		atomic_inc(&lbk_waiters.n);
}

/* Uncontended: preemption off, then the lock, as _raw_spin_lock(). */
static __always_inline void lbk_bench_lock_one(const enum lb_lock_kind k)
{
	preempt_disable();
	lb_lock(k, &lbk_locks[k].l);
}

/*
 * The arrival snapshot and stamp are taken only while the grant order is
 * logged: the stamp is an atomic between a lock's first attempt and its
 * wait (for the skip-ticket lock, between its xadd and its registration).
 */
static bool lbk_stamps __read_mostly;

/*
 * Under contention a bench lock is taken in its two steps (locks.h:
 * take(), its first atomic attempt, then wait() if refused), with the
 * arrival snapshot before the first and the stamp right after a refusal;
 * @g gets them and, for a ticket lock, the ticket taken.
 */
static __always_inline void lbk_bench_lock_wait(const enum lb_lock_kind k,
						struct lb_grant *g)
{
	union lb_anylock *l = &lbk_locks[k].l;
	u32 tok;

	preempt_disable();
	lbk_announce(true);
	if (lbk_stamps)
		g->snap = atomic64_read(&lbk_arrivals.n);
	if (!lb_take(k, l, &tok)) {
		if (lbk_stamps)
			g->stamp = atomic64_inc_return(&lbk_arrivals.n);
		lb_wait(k, l, tok);
	}
	g->ticket = lb_ticket(k, tok);
}

/* Each lock's two ways in, out of line as spin_lock() is. */
#define LB_X(ID, name, type)						\
static noinline void lbk_##name##_lock_one(void)			\
{									\
	lbk_bench_lock_one(LB_##ID);					\
}									\
static noinline void lbk_##name##_lock_wait(struct lb_grant *g)		\
{									\
	lbk_bench_lock_wait(LB_##ID, g);				\
}
LB_LOCKS(LB_X)
#undef LB_X

/*
 * spin_lock() cannot be split into its first attempt and the rest: it
 * gets the snapshot (the same shared read as the bench locks) but no
 * stamp, and no grant order is computed for it.
 */
static noinline void lbk_spin_lock_wait(struct lb_grant *g)
{
	lbk_announce(true);
	if (lbk_stamps)
		g->snap = atomic64_read(&lbk_arrivals.n);
	spin_lock(&lbk_kernel.lock);
}

/*
 * @k and @wait are constants at every call site: this folds to one call.
 * wait = false: the uncontended measurement; spin_lock() is called
 * directly there, so every lock costs one call to lock.  @g: the
 * grant's arrival (wait = true only).
 */
static __always_inline void lbk_lock(const enum lbk_kind k, const bool wait,
				     struct lb_grant *g)
{
	switch (k) {
#define LB_X(ID, name, type)						\
	case LBK_##ID:							\
		if (wait)						\
			lbk_##name##_lock_wait(g);			\
		else							\
			lbk_##name##_lock_one();			\
		break;
	LB_LOCKS(LB_X)
#undef LB_X
	default:
		if (wait)
			lbk_spin_lock_wait(g);
		else
			spin_lock(&lbk_kernel.lock);
		break;
	}
}

static __always_inline void lbk_unlock(const enum lbk_kind k)
{
	if (k == LBK_SPINLOCK) {
		spin_unlock(&lbk_kernel.lock);
		return;
	}
	lb_unlock((enum lb_lock_kind)k, &lbk_locks[k].l);
	preempt_enable();
}

/* Name of what spin_lock() runs in this kernel, on this (virtual) CPU. */
static const char *lbk_spinlock_impl(void)
{
#if defined(CONFIG_X86_TICKET_SKIP_PREEMPTED)
	return "skipticket";
#elif defined(CONFIG_X86_TICKET_SPINLOCKS)
	return CONFIG_NR_CPUS >= 256 ? "ticket16" : "ticket8";
#else
#ifdef CONFIG_X86_BOOT_SPINLOCKS
	/* the kernel chose its spinlock at boot */
	switch (x86_spinlock_in_use()) {
	case X86_SPINLOCK_SKIPTICKET:
		return "skipticket";
	case X86_SPINLOCK_TICKET:
		return CONFIG_NR_CPUS >= 256 ? "ticket16" : "ticket8";
	default:
		break;
	}
#endif
	/* native_pv_lock_init(): the hypervisor bit enables virt_spin_lock() */
	return boot_cpu_has(X86_FEATURE_HYPERVISOR) ? "qspinlock-tas" : "qspinlock";
#endif
}

/*
 * Does the lock itself show a waiter queued behind the owner?  The ticket
 * locks do (a ticket taken beyond the owner's), and so does qspinlock
 * (pending bit or queue tail); the legacy lock and virt_spin_lock()'s
 * test-and-set lock do not, their waiters only read the lock word.  Of
 * the locks of locks.h, those with tickets show it.
 */
static bool lbk_shows_queue(enum lbk_kind k)
{
	if (k == LBK_SPINLOCK)
		return strcmp(lbk_spinlock_impl(), "qspinlock-tas") != 0;
	return lb_ticket_bits((enum lb_lock_kind)k) != 0;
}

static __always_inline int lbk_is_contended(const enum lbk_kind k)
{
	if (k == LBK_SPINLOCK)
		return spin_is_contended(&lbk_kernel.lock);
	return lb_is_contended((enum lb_lock_kind)k, &lbk_locks[k].l);
}

static const char *lbk_impl(enum lbk_kind k)
{
	return k == LBK_SPINLOCK ? lbk_spinlock_impl() : lbk_names[k];
}

/* ------------------------------------------------------------------ */
/* Shared state of a run                                               */
/* ------------------------------------------------------------------ */

/* Line 0 of the critical section: bookkeeping, written by every owner. */
static struct lbk_shared {
	u64 counter;		/* plain increment: checks mutual exclusion */
	u64 last_unlock_tsc;	/* TSC just before the previous unlock */
	u32 last_owner;		/* worker index of the previous grant */
	int first_done;		/* a worker reached @count: snapshot taken */
	int queued_at_unlock;	/* the lock showed a waiter at the last unlock */
	struct lb_run run;	/* longest run while others wait */
} lbk_sh ____cacheline_aligned_in_smp;

/* Lines 1..cs_lines-1 of the critical section. */
struct lbk_line {
	u64 counter;
} ____cacheline_aligned_in_smp;

static struct lbk_line lbk_cs[LBK_MAX_CS_LINES];

/* Control: written at the start and once at the stop, read-mostly. */
static struct {
	atomic_t arrived;	/* start barrier */
	atomic_t running;	/* workers not yet done */
	int go;			/* released by the last arrival */
	int stop;		/* duration over (or cap hit) */
	u64 start_ns;		/* common start, ktime_get_ns() */
	u64 deadline_tsc;
} lbk_ctl ____cacheline_aligned_in_smp;

static DECLARE_COMPLETION(lbk_done);

/* One per CPU and lock; written by its own kthread only (but for acq_at_first). */
struct lbk_worker {
	u64 acq;		/* grants so far */
	u64 acq_at_first;	/* grants when the first worker finished */
	u64 start_ns;		/* own start after the common start */
	u64 finish_ns;		/* last unlock, from the common start */
	u64 longest_run;	/* longest run of grants to this CPU */
	u64 fifo_breaks;	/* re-granted over a waiter the lock had queued */
	u64 wait_sum, cs_sum, handoff_sum;
	struct lb_hist wait;	/* TSC cycles, lock() to held */
	struct lb_hist handoff;	/* TSC cycles, previous unlock to held */
	struct lb_grant *log;	/* grant order, @count entries, or NULL */
	struct task_struct *task;
	unsigned int cpu, idx;
	int finished;		/* reached @count */
} ____cacheline_aligned_in_smp;

/* Everything that is reported for one lock. */
struct lbk_result {
	bool ran;
	bool complete;		/* every worker reached @count */
	bool counter_ok;
	unsigned int finished;
	u64 total_acq, total_ns, throughput, throughput_all;
	u64 jain, acq_min, acq_max, acq_spread;
	u64 fin_min, fin_max, spread, start_skew;
	u64 wait_avg, cs_avg, handoff_avg, handoffs;
	u64 longest_run, fifo_breaks;
	int order;		/* 1 analysed, 0 not logged, -1 log bad */
	struct lb_order ord;
	unsigned int longest_cpu;
	u64 uncontended_mcyc;	/* milli-cycles per lock+unlock pair */
	struct lbk_skt_stats skt;	/* skipticket: the slow path's events */
	u64 skt_hurried_ppm;	/* skipticket: share of the run hurried */
	struct lb_hist wait, handoff;
	struct lbk_worker *w;	/* per CPU */
};

static unsigned int lbk_n;		/* workers */
static unsigned int lbk_lockmask;	/* locks to run: LBK_NR <= 32 */
static enum lbk_kind lbk_order[LBK_NR];	/* ... in this order */
static int lbk_norder;
static struct cpumask lbk_cpus;
static struct lbk_worker *lbk_w;	/* workers of the current run */
static struct lbk_result lbk_res[LBK_NR];
static struct dentry *lbk_dir;

/* ------------------------------------------------------------------ */
/* The measurement loop                                                */
/* ------------------------------------------------------------------ */

/* Inside the first finisher's last critical section: exact counts. */
static void lbk_snapshot(void)
{
	unsigned int i;

	for (i = 0; i < lbk_n; i++)
		lbk_w[i].acq_at_first = READ_ONCE(lbk_w[i].acq);
	lbk_sh.first_done = 1;
}

static __always_inline void lbk_loop(struct lbk_worker *w,
				     const enum lbk_kind k)
{
	const u64 target = count;	/* 0: never reached, run until stop */
	const unsigned int lines = cs_lines, pauses = think;
	const u64 deadline = lbk_ctl.deadline_tsc;
	u64 n = 0;

	while (!READ_ONCE(lbk_ctl.stop)) {
		struct lb_grant g = { .who = w->idx };
		u64 t0, t1, t2, run;
		unsigned int i;

		if (irqsoff)
			local_irq_disable();
		t0 = rdtsc_ordered();
		lbk_lock(k, true, &g);	/* counts itself in lbk_waiters */
		t1 = rdtsc_ordered();
		atomic_dec(&lbk_waiters.n);

		/* Critical section: the lock under test orders all of this. */
		if (w->log) {
			g.seq = lbk_sh.counter;
			w->log[n] = g;
		}
		run = lb_run_grant(&lbk_sh.run, w->idx,
				   atomic_read(&lbk_waiters.n) > 0);
		if (run > w->longest_run)
			w->longest_run = run;
		/*
		 * Exact FIFO check where the lock shows its queue: when the
		 * previous owner unlocked, the lock had a waiter queued, yet
		 * the same CPU got the lock again.
		 */
		if (lbk_sh.last_owner == w->idx && lbk_sh.queued_at_unlock)
			w->fifo_breaks++;
		if (lbk_sh.last_owner != w->idx && lbk_sh.last_unlock_tsc > t0) {
			/* we were waiting when it was released: a handoff */
			u64 h = t1 - lbk_sh.last_unlock_tsc;

			lb_hist_add(&w->handoff, h);
			w->handoff_sum += h;
		}
		lbk_sh.counter++;
		for (i = 1; i < lines; i++)
			lbk_cs[i].counter++;
		WRITE_ONCE(w->acq, ++n);
		if (n == target && !lbk_sh.first_done)
			lbk_snapshot();
		lbk_sh.last_owner = w->idx;
		lbk_sh.queued_at_unlock = lbk_is_contended(k);
		t2 = rdtsc_ordered();
		lbk_sh.last_unlock_tsc = t2;
		lbk_unlock(k);
		if (irqsoff)
			local_irq_enable();

		w->wait_sum += t1 - t0;
		w->cs_sum += t2 - t1;
		lb_hist_add(&w->wait, t1 - t0);
		if (n == target) {
			w->finished = 1;
			break;
		}
		if (t1 >= deadline)
			WRITE_ONCE(lbk_ctl.stop, 1);
		for (i = 0; i < pauses; i++)
			cpu_relax();
		/* PREEMPT_NONE: let RCU and the watchdogs see this CPU */
		cond_resched();
	}
	w->finish_ns = ktime_get_ns() - lbk_ctl.start_ns;
}

/* One copy of the loop per lock, each with its lock inlined. */
#define LB_X(ID, name, type)						\
static noinline void lbk_loop_##name(struct lbk_worker *w)		\
{									\
	lbk_loop(w, LBK_##ID);						\
}
LB_LOCKS(LB_X)
#undef LB_X

static noinline void lbk_loop_spinlock(struct lbk_worker *w)
{
	lbk_loop(w, LBK_SPINLOCK);
}

static void (* const lbk_loops[LBK_NR])(struct lbk_worker *w) = {
#define LB_X(ID, name, type)	[LBK_##ID] = lbk_loop_##name,
	LB_LOCKS(LB_X)
#undef LB_X
	[LBK_SPINLOCK]	= lbk_loop_spinlock,
};

static enum lbk_kind lbk_cur;

/*
 * Start: the workers first sleep on lbk_start, which the loading task
 * completes once it has woken them all, so every worker is runnable on
 * its own CPU before any spins.  Then a spinning barrier: the last one to
 * arrive releases all at once.  (A worker spinning while the loading task
 * still had to run on its CPU would stall a PREEMPT_NONE kernel; the
 * occasional cond_resched() is only a safety net.)
 */
static DECLARE_COMPLETION(lbk_start);

static void lbk_start_barrier(struct lbk_worker *w)
{
	unsigned int spins = 0;

	wait_for_completion(&lbk_start);
	if (atomic_inc_return(&lbk_ctl.arrived) == lbk_n) {
		u64 cycles = (u64)duration_ms * tsc_khz;

		lbk_ctl.start_ns = ktime_get_ns();
		lbk_ctl.deadline_tsc = rdtsc_ordered() + cycles;
		/* publishes start_ns and deadline_tsc to the acquire below */
		smp_store_release(&lbk_ctl.go, 1);
	} else {
		/* pairs with the release above */
		while (!smp_load_acquire(&lbk_ctl.go)) {
			cpu_relax();
			if (!(++spins & 0xfffff))
				cond_resched();
		}
	}
	w->start_ns = ktime_get_ns() - lbk_ctl.start_ns;
}

static int lbk_thread(void *data)
{
	struct lbk_worker *w = data;

	lbk_start_barrier(w);
	lbk_loops[lbk_cur](w);
	if (atomic_dec_and_test(&lbk_ctl.running))
		complete(&lbk_done);

	/* Wait for kthread_stop(): the controller still reads *w. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Uncontended cost                                                    */
/* ------------------------------------------------------------------ */

static __always_inline u64 lbk_pairs(u32 loops, const enum lbk_kind k)
{
	u64 t0, t1;
	u32 i;

	t0 = rdtsc_ordered();
	for (i = 0; i < loops; i++) {
		lbk_lock(k, false, NULL);
		lbk_unlock(k);
	}
	t1 = rdtsc_ordered();
	return t1 - t0;
}

#define LB_X(ID, name, type)						\
static noinline u64 lbk_pairs_##name(u32 loops)				\
{									\
	return lbk_pairs(loops, LBK_##ID);				\
}
LB_LOCKS(LB_X)
#undef LB_X

static noinline u64 lbk_pairs_spinlock(u32 loops)
{
	return lbk_pairs(loops, LBK_SPINLOCK);
}

static u64 (* const lbk_pairs_fn[LBK_NR])(u32 loops) = {
#define LB_X(ID, name, type)	[LBK_##ID] = lbk_pairs_##name,
	LB_LOCKS(LB_X)
#undef LB_X
	[LBK_SPINLOCK]	= lbk_pairs_spinlock,
};

/*
 * Lock+unlock on this CPU with no other worker running, preemption off
 * so the CPU stays the same; the best of LBK_ROUNDS rounds drops rounds
 * hit by an interrupt.  Milli-cycles per pair.
 */
static u64 lbk_uncontended(enum lbk_kind k)
{
	u64 best = U64_MAX;
	int r;

	for (r = 0; r < LBK_ROUNDS; r++) {
		u64 c;

		preempt_disable();
		c = lbk_pairs_fn[k](uncontended_loops);
		preempt_enable();
		best = min(best, c);
		cond_resched();
	}
	return div64_u64(best * 1000, uncontended_loops);
}

/* ------------------------------------------------------------------ */
/* One run                                                             */
/* ------------------------------------------------------------------ */

static void lbk_reset(enum lbk_kind k)
{
	unsigned int i;

	if (k != LBK_SPINLOCK)
		lb_lock_init((enum lb_lock_kind)k, &lbk_locks[k].l);
	memset(&lbk_sh, 0, sizeof(lbk_sh));
	lbk_sh.last_owner = U32_MAX;
	lb_run_init(&lbk_sh.run);
	for (i = 0; i < LBK_MAX_CS_LINES; i++)
		lbk_cs[i].counter = 0;
	atomic_set(&lbk_waiters.n, 0);
	atomic64_set(&lbk_arrivals.n, 0);
	for_each_possible_cpu(i)
		memset(per_cpu_ptr(&lbk_skt, i), 0, sizeof(struct lbk_skt_stats));
	memset(lbk_skt_owner, 0, sizeof(lbk_skt_owner));
	memset(&lbk_skt_hurried, 0, sizeof(lbk_skt_hurried));
	/* Each run starts calm, with no stall noted. */
	skt_state.clock = 0;
	skt_state.stalled = 0;
	skt_state.hurried_until = 0;
	atomic_set(&lbk_ctl.arrived, 0);
	atomic_set(&lbk_ctl.running, lbk_n);
	lbk_ctl.go = 0;
	lbk_ctl.stop = 0;
	reinit_completion(&lbk_start);
	reinit_completion(&lbk_done);
}

static int lbk_summarise(struct lbk_result *r)
{
	u64 *acq, *fin, *start;
	u64 smin, smax;
	unsigned int i;
	int ret = -ENOMEM;

	acq = kcalloc(lbk_n, sizeof(*acq), GFP_KERNEL);
	fin = kcalloc(lbk_n, sizeof(*fin), GFP_KERNEL);
	start = kcalloc(lbk_n, sizeof(*start), GFP_KERNEL);
	if (!acq || !fin || !start)
		goto out;

	lb_hist_init(&r->wait);
	lb_hist_init(&r->handoff);
	r->finished = 0;
	r->total_acq = 0;
	r->total_ns = 0;
	for (i = 0; i < lbk_n; i++) {
		struct lbk_worker *w = &r->w[i];

		/* fixed duration, or nobody finished: counts at the stop */
		if (!lbk_sh.first_done)
			w->acq_at_first = w->acq;
		acq[i] = w->acq_at_first;
		fin[i] = w->finish_ns;
		start[i] = w->start_ns;
		r->finished += w->finished;
		r->total_acq += w->acq;
		r->total_ns = max(r->total_ns, w->finish_ns);
		r->wait_avg += w->wait_sum;
		r->cs_avg += w->cs_sum;
		r->handoff_avg += w->handoff_sum;
		r->fifo_breaks += w->fifo_breaks;
		lb_hist_merge(&r->wait, &w->wait);
		lb_hist_merge(&r->handoff, &w->handoff);
	}
	r->complete = count && r->finished == lbk_n;
	for_each_possible_cpu(i) {
		struct lbk_skt_stats *c = per_cpu_ptr(&lbk_skt, i);

		r->skt.wait += c->wait;
		r->skt.early += c->early;
		r->skt.held += c->held;
		r->skt.lazy += c->lazy;
		r->skt.lazy_late += c->lazy_late;
		r->skt.blocked += c->blocked;
		r->skt.claim += c->claim;
		r->skt.claim_fail += c->claim_fail;
		r->skt.stall += c->stall;
		r->skt.skip += c->skip;
		r->skt.requeue += c->requeue;
		r->skt.stale += c->stale;
	}
	r->throughput_all = r->total_ns ?
		mul_u64_u64_div_u64(r->total_acq, NSEC_PER_SEC, r->total_ns) : 0;
	r->jain = lb_jain_ppm(acq, lbk_n);
	lb_minmax(acq, lbk_n, &r->acq_min, &r->acq_max);
	r->acq_spread = lb_spread_ppm(acq, lbk_n);
	lb_minmax(fin, lbk_n, &r->fin_min, &r->fin_max);
	/*
	 * Throughput over the contended phase: the grants every CPU had made
	 * when the first one finished, over that time.  After it, fewer CPUs
	 * contend (at the end one runs alone), which would flatter a lock
	 * that lets one CPU finish early.  Without a finisher (fixed
	 * duration, or the cap) everybody ran to the stop: all of it.
	 */
	r->throughput = r->throughput_all;
	if (lbk_sh.first_done && r->fin_min) {
		u64 sum = 0;

		for (i = 0; i < lbk_n; i++)
			sum += acq[i];
		r->throughput = mul_u64_u64_div_u64(sum, NSEC_PER_SEC, r->fin_min);
	}
	r->spread = lb_spread_ppm(fin, lbk_n);
	lb_minmax(start, lbk_n, &smin, &smax);
	r->start_skew = smax - smin;
	r->handoffs = r->handoff.count;
	r->wait_avg = r->wait.count ? div64_u64(r->wait_avg, r->wait.count) : 0;
	r->cs_avg = r->wait.count ? div64_u64(r->cs_avg, r->wait.count) : 0;
	r->handoff_avg = r->handoffs ? div64_u64(r->handoff_avg, r->handoffs) : 0;
	r->longest_run = lbk_sh.run.longest;
	r->longest_cpu = lbk_sh.run.longest ? r->w[lbk_sh.run.longest_owner].cpu : 0;
	r->counter_ok = lbk_sh.counter == r->total_acq;
	for (i = 1; i < cs_lines; i++)
		r->counter_ok &= lbk_cs[i].counter == r->total_acq;
	ret = 0;
out:
	kfree(acq);
	kfree(fin);
	kfree(start);
	return ret;
}

/*
 * Grant-order logs for a bench lock in fixed-count mode, one array of
 * @count grants per worker; none for spin_lock() (see
 * lbk_spin_lock_wait()), for a fixed duration, or beyond LBK_MAX_LOGGED
 * grants.  Without memory the run goes on unlogged.
 */
static void lbk_logs_free(struct lbk_result *r)
{
	unsigned int i;

	for (i = 0; i < lbk_n; i++) {
		kvfree(r->w[i].log);
		r->w[i].log = NULL;
	}
}

static void lbk_logs_alloc(enum lbk_kind k, struct lbk_result *r)
{
	unsigned int i;

	if (k == LBK_SPINLOCK || !count || count * lbk_n > LBK_MAX_LOGGED)
		return;
	for (i = 0; i < lbk_n; i++) {
		r->w[i].log = kvmalloc_array(count, sizeof(struct lb_grant),
					     GFP_KERNEL);
		if (!r->w[i].log) {	/* the run goes on, order=off */
			lbk_logs_free(r);
			return;
		}
	}
}

/* The grant order of a logged run (metrics.c), into r->ord. */
static void lbk_grant_order(enum lbk_kind k, struct lbk_result *r)
{
	const struct lb_grant **logs, **by = NULL;
	unsigned char *passed = NULL;
	u64 *lens, n = r->total_acq;
	lb_u32 *bit = NULL;
	unsigned int i;

	r->order = 0;
	if (!r->w[0].log)
		return;
	logs = kcalloc(lbk_n, sizeof(*logs), GFP_KERNEL);
	lens = kcalloc(lbk_n, sizeof(*lens), GFP_KERNEL);
	if (logs && lens && n) {
		by = kvmalloc_array(n, sizeof(*by), GFP_KERNEL);
		passed = kvmalloc(n, GFP_KERNEL);
		bit = kvmalloc_array(n + 1, sizeof(*bit), GFP_KERNEL);
	}
	if (by && passed && bit) {
		for (i = 0; i < lbk_n; i++) {
			logs[i] = r->w[i].log;
			lens[i] = r->w[i].acq;
		}
		r->order = lb_grant_order(logs, lens, lbk_n,
					  lb_ticket_bits((enum lb_lock_kind)k),
					  by, passed, bit, &r->ord) ? -1 : 1;
	} else {
		pr_info("%s: no memory to analyse the grant order\n", lbk_names[k]);
	}
	kvfree(by);
	kvfree(passed);
	kvfree(bit);
	kfree(logs);
	kfree(lens);
}

static int lbk_run(enum lbk_kind k)
{
	struct lbk_result *r = &lbk_res[k];
	unsigned int i, cpu;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->w = kvcalloc(lbk_n, sizeof(*r->w), GFP_KERNEL);
	if (!r->w)
		return -ENOMEM;
	lbk_w = r->w;
	lbk_cur = k;

	lbk_reset(k);
	r->uncontended_mcyc = lbk_uncontended(k);
	lbk_logs_alloc(k, r);
	lbk_stamps = !!r->w[0].log;
	i = 0;
	for_each_cpu(cpu, &lbk_cpus) {
		struct lbk_worker *w = &r->w[i];

		w->cpu = cpu;
		w->idx = i;
		lb_hist_init(&w->wait);
		lb_hist_init(&w->handoff);
		w->task = kthread_create_on_cpu(lbk_thread, w, cpu, "lockbench/%u");
		if (IS_ERR(w->task)) {
			ret = PTR_ERR(w->task);
			w->task = NULL;
			pr_err("cannot create a kthread on CPU %u: %d\n", cpu, ret);
			break;
		}
		i++;
	}
	if (!ret) {
		for (i = 0; i < lbk_n; i++)
			wake_up_process(r->w[i].task);
		complete_all(&lbk_start);
		/* killable: a long run is no hung task, and ^C still ends it */
		if (wait_for_completion_killable(&lbk_done)) {
			WRITE_ONCE(lbk_ctl.stop, 1);
			wait_for_completion(&lbk_done);
			ret = -EINTR;
		}
	}
	/* The last stall's hurry ends at the end of the run at the latest. */
	if (k == LBK_SKIPTICKET) {
		u64 end = rdtsc(), total = lbk_skt_hurried.total;

		if ((s64)(lbk_skt_hurried.end - end) > 0)
			total -= min(total, lbk_skt_hurried.end - end);
		r->skt_hurried_ppm = mul_u64_u64_div_u64(total, 1000000,
			max(1ULL, mul_u64_u64_div_u64(ktime_get_ns() - lbk_ctl.start_ns,
						      tsc_khz, 1000000)));
	}
	/* Unwoken threads exit in kthread_stop() without running. */
	for (i = 0; i < lbk_n; i++)
		if (r->w[i].task)
			kthread_stop(r->w[i].task);
	if (!ret)
		ret = lbk_summarise(r);
	if (!ret)
		lbk_grant_order(k, r);
	lbk_logs_free(r);
	if (ret)
		return ret;
	r->ran = true;
	pr_info("%s (%s): %llu acq/s, jain %llu ppm, longest run %llu, complete %d, counter %s\n",
		lbk_names[k], lbk_impl(k), r->throughput, r->jain,
		r->longest_run, r->complete, r->counter_ok ? "ok" : "BAD");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Results: /sys/kernel/debug/lockbench/results                        */
/* ------------------------------------------------------------------ */

/* A fixed-point ratio (ppm) with @dec decimals, or "inf". */
static void lbk_ppm(struct seq_file *m, const char *key, u64 ppm, int dec)
{
	u64 div = dec == 3 ? 1000 : 1;

	if (ppm == LB_SPREAD_INF) {
		seq_printf(m, " %s=inf", key);
		return;
	}
	ppm = div64_u64(ppm, div);
	seq_printf(m, " %s=%llu.%0*llu", key, div64_u64(ppm, LB_SCALE / div),
		   dec, ppm - div64_u64(ppm, LB_SCALE / div) * (LB_SCALE / div));
}

static void lbk_hist_show(struct seq_file *m, const char *key,
			  const struct lb_hist *h)
{
	bool first = true;
	unsigned int b;

	seq_printf(m, " %s=", key);
	for (b = 0; b < LB_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		seq_printf(m, "%s%u:%llu", first ? "" : ",", b, h->bucket[b]);
		first = false;
	}
	if (first)
		seq_puts(m, "-");
}

static int lbk_results_show(struct seq_file *m, void *v)
{
	char known[512];
	enum lbk_kind k;
	unsigned int i;

	seq_printf(m, "lockbench=1 threads=%u cpus=%*pbl online_cpus=%u mode=%s count=%lu duration_ms=%u cs_lines=%u think=%u irqsoff=%d uncontended_loops=%u skip_us=%u tsc_khz=%u spinlock_impl=%s hypervisor=%d nr_cpus=%d known=%s\n",
		   lbk_n, cpumask_pr_args(&lbk_cpus), num_online_cpus(),
		   count ? "count" : "duration", count, duration_ms, cs_lines,
		   think, irqsoff, uncontended_loops, skip_us, tsc_khz, lbk_spinlock_impl(),
		   boot_cpu_has(X86_FEATURE_HYPERVISOR) ? 1 : 0, CONFIG_NR_CPUS,
		   lbk_known(known, sizeof(known)));

	for (k = 0; k < LBK_NR; k++) {
		struct lbk_result *r = &lbk_res[k];

		if (!r->ran)
			continue;
		seq_printf(m, "lock=%s impl=%s threads=%u complete=%d finished=%u total_acq=%llu total_ns=%llu throughput=%llu throughput_all=%llu",
			   lbk_names[k], lbk_impl(k), lbk_n, r->complete,
			   r->finished, r->total_acq, r->total_ns, r->throughput,
			   r->throughput_all);
		lbk_ppm(m, "jain", r->jain, 6);
		seq_printf(m, " acq_min=%llu acq_max=%llu", r->acq_min, r->acq_max);
		lbk_ppm(m, "acq_spread", r->acq_spread, 3);
		seq_printf(m, " finish_min_ns=%llu finish_max_ns=%llu",
			   r->fin_min, r->fin_max);
		lbk_ppm(m, "spread", r->spread, 3);
		seq_printf(m, " start_skew_ns=%llu wait_avg=%llu wait_p50=%llu wait_p99=%llu wait_max=%llu cs_avg=%llu handoffs=%llu handoff_avg=%llu handoff_p50=%llu handoff_p99=%llu longest_run=%llu longest_run_cpu=%u uncontended_cycles=%llu.%03llu counter=%s",
			   r->start_skew, r->wait_avg,
			   lb_hist_percentile(&r->wait, 500000),
			   lb_hist_percentile(&r->wait, 990000), r->wait.max,
			   r->cs_avg, r->handoffs, r->handoff_avg,
			   lb_hist_percentile(&r->handoff, 500000),
			   lb_hist_percentile(&r->handoff, 990000),
			   r->longest_run, r->longest_cpu,
			   div64_u64(r->uncontended_mcyc, 1000),
			   r->uncontended_mcyc % 1000,
			   r->counter_ok ? "ok" : "BAD");
		if (lbk_shows_queue(k))
			seq_printf(m, " fifo_breaks=%llu", r->fifo_breaks);
		else
			seq_puts(m, " fifo_breaks=na");
		if (r->order == 1) {
			seq_printf(m, " order=ok waits=%llu bypasses=%llu",
				   r->ord.waits, r->ord.bypasses);
			lbk_ppm(m, "bypass_share", r->ord.bypass_share, 6);
			seq_printf(m, " bypass_max=%llu bypass_run=%llu",
				   r->ord.bypass_max, r->ord.bypass_run);
			if (k != LBK_SPINLOCK &&
			    lb_ticket_bits((enum lb_lock_kind)k))
				seq_printf(m, " ticket_breaks=%llu",
					   r->ord.ticket_breaks);
			lbk_hist_show(m, "bypass_hist", &r->ord.passed);
		} else {
			seq_printf(m, " order=%s", r->order ? "BAD" : "off");
		}
		if (k == LBK_SKIPTICKET && skt_stats)
			seq_printf(m, " skt_waits=%llu skt_early=%llu skt_lazy=%llu skt_lazy_late=%llu skt_held=%llu skt_blocked=%llu skt_claims=%llu skt_claim_fails=%llu skt_stalls=%llu skt_skips=%llu skt_requeues=%llu skt_stale=%llu skt_hurried_ppm=%llu",
				   r->skt.wait, r->skt.early, r->skt.lazy,
				   r->skt.lazy_late,
				   r->skt.held, r->skt.blocked, r->skt.claim,
				   r->skt.claim_fail,
				   r->skt.stall, r->skt.skip, r->skt.requeue,
				   r->skt.stale, r->skt_hurried_ppm);
		lbk_hist_show(m, "wait_hist", &r->wait);
		seq_putc(m, '\n');

		for (i = 0; i < lbk_n; i++) {
			struct lbk_worker *w = &r->w[i];

			seq_printf(m, "cpu=%u lock=%s acq=%llu acq_at_first=%llu finished=%d start_ns=%llu finish_ns=%llu wait_p50=%llu wait_p99=%llu wait_max=%llu longest_run=%llu",
				   w->cpu, lbk_names[k], w->acq, w->acq_at_first,
				   w->finished, w->start_ns, w->finish_ns,
				   lb_hist_percentile(&w->wait, 500000),
				   lb_hist_percentile(&w->wait, 990000),
				   w->wait.max, w->longest_run);
			lbk_hist_show(m, "wait_hist", &w->wait);
			seq_putc(m, '\n');
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lbk_results);

/* ------------------------------------------------------------------ */
/* Load and unload                                                     */
/* ------------------------------------------------------------------ */

/* shuffle=1: a new random order of the locks asked for (Fisher-Yates). */
static void lbk_shuffle(void)
{
	int i;

	for (i = lbk_norder - 1; i > 0; i--) {
		int j = get_random_u32_below(i + 1);

		swap(lbk_order[i], lbk_order[j]);
	}
}

static int lbk_parse_locks(void)
{
	char *buf, *p, *name;
	int ret = 0;

	lbk_lockmask = 0;
	lbk_norder = 0;
	if (!locks || !strcmp(locks, "all")) {
		lbk_lockmask = BIT(LBK_NR) - 1;
		for (lbk_norder = 0; lbk_norder < LBK_NR; lbk_norder++)
			lbk_order[lbk_norder] = lbk_norder;
		if (shuffle)
			lbk_shuffle();
		return 0;
	}
	buf = kstrdup(locks, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = buf;
	/* '+' too: the lab's command lines already split on commas */
	while ((name = strsep(&p, ",+")) != NULL) {
		int k = match_string(lbk_names, LBK_NR, name);

		if (k < 0) {
			char known[512];

			pr_err("locks=%s: unknown lock '%s' (valid: all, or a list of %s separated by ',' or '+')\n",
			       locks, name, lbk_known(known, sizeof(known)));
			ret = -EINVAL;
			break;
		}
		if (lbk_lockmask & BIT(k)) {
			pr_err("locks=%s: lock '%s' given twice\n", locks, name);
			ret = -EINVAL;
			break;
		}
		lbk_lockmask |= BIT(k);
		lbk_order[lbk_norder++] = k;
	}
	kfree(buf);
	if (!ret && shuffle)
		lbk_shuffle();
	return ret;
}

/* A value outside [lo, hi] fails the load, naming the parameter. */
static int lbk_range(const char *name, unsigned long val, unsigned long lo,
		     unsigned long hi)
{
	if (val >= lo && val <= hi)
		return 0;
	pr_err("%s=%lu out of range (valid: %lu to %lu)\n", name, val, lo, hi);
	return -EINVAL;
}

static int lbk_check_params(void)
{
	unsigned int online = num_online_cpus();
	unsigned int cpu;
	int k, ret;

	if (threads > online) {
		pr_err("threads=%u out of range (valid: 0 to %u, the online CPUs; 0 = all)\n",
		       threads, online);
		return -EINVAL;
	}
	ret = lbk_range("count", count, 0, LBK_MAX_COUNT) ?:
	      lbk_range("duration_ms", duration_ms, 1, LBK_MAX_DURATION_MS) ?:
	      lbk_range("cs_lines", cs_lines, 1, LBK_MAX_CS_LINES) ?:
	      lbk_range("think", think, 0, LBK_MAX_THINK) ?:
	      lbk_range("uncontended_loops", uncontended_loops, 1, LBK_MAX_LOOPS) ?:
	      lbk_range("skip_us", skip_us, 1, 10000) ?:
	      lbk_parse_locks();
	if (ret)
		return ret;

	lbk_n = threads ? threads : online;
	/* the bench locks' own CPU bounds (locks.h; 0 = none) */
	for (k = 0; k < LB_NR_KINDS; k++) {
		u32 max = lb_lock_max_cpus(k);

		if ((lbk_lockmask & BIT(k)) && max && lbk_n > max) {
			pr_err("threads=%u out of range for %s (valid: 1 to %u; or leave %s out of locks=)\n",
			       lbk_n, lbk_names[k], max, lbk_names[k]);
			return -EINVAL;
		}
	}
	if (!tsc_khz) {
		pr_err("no TSC frequency (tsc_khz=0): cannot time the runs\n");
		return -ENODEV;
	}
	skt_state.patience = div_u64((u64)skip_us * tsc_khz, 1000);

	cpumask_clear(&lbk_cpus);
	for_each_online_cpu(cpu) {
		if (cpumask_weight(&lbk_cpus) == lbk_n)
			break;
		cpumask_set_cpu(cpu, &lbk_cpus);
	}
	lbk_n = cpumask_weight(&lbk_cpus);
	return 0;
}

static void lbk_free(void)
{
	enum lbk_kind k;

	for (k = 0; k < LBK_NR; k++) {
		kvfree(lbk_res[k].w);
		lbk_res[k].w = NULL;
		lbk_res[k].ran = false;
	}
}

static int __init lbk_init(void)
{
	int i, ret;

	BUILD_BUG_ON(LBK_NR > 32);	/* lbk_lockmask has a bit per lock */
	if (skt_stats)
		static_branch_enable(&lbk_skt_stats_on);
	cpus_read_lock();	/* the CPU set stays online for the whole run */
	ret = lbk_check_params();
	for (i = 0; !ret && i < lbk_norder; i++)
		ret = lbk_run(lbk_order[i]);
	cpus_read_unlock();
	if (ret) {
		lbk_free();
		return ret;
	}

	lbk_dir = debugfs_create_dir("lockbench", NULL);
	debugfs_create_file("results", 0444, lbk_dir, NULL, &lbk_results_fops);
	return 0;
}

static void __exit lbk_exit(void)
{
	debugfs_remove_recursive(lbk_dir);
	lbk_free();
}

module_init(lbk_init);
module_exit(lbk_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Spinlock fairness and cost: the locks of bench/lib/locks.h and the kernel's own spinlock_t");
