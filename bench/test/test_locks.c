// SPDX-License-Identifier: GPL-2.0
/*
 * test_locks.c - single-threaded semantics of the locks in lib/locks.h:
 * init / lock / trylock / unlock / is_locked, the raw lock words, and the
 * ticket wrap-around (8-bit head and tail wrap after 256 acquisitions,
 * 16-bit after 65536).  ticket8 and ticket16 are the series' own header
 * (lib/series.h), so this tests the kernel's code in user space.
 * Called by make -C bench check (make test, "bench unit tests").  Mutual exclusion under contention is checked by
 * the counter in fairness.c.  Prints "ok <name>"/"FAIL <name>", exits 1
 * on any failure.  A broken lock usually hangs rather than fails (e.g. a
 * head increment that carries into the tail), so a 10 s alarm turns a
 * hang into "FAIL timeout" and exit 1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "locks.h"
#include "skipticket.h"

#include <asm/msr.h>

static int test_failed, any_failed;

#define CHECK(expr)							\
	do {								\
		if (!(expr)) {						\
			printf("  %s:%d: assertion failed: %s\n",	\
			       __FILE__, __LINE__, #expr);		\
			test_failed = 1;				\
		}							\
	} while (0)

static void on_alarm(int sig)
{
	static const char msg[] = "FAIL timeout (a lock hung)\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static void run(const char *name, void (*fn)(void))
{
	test_failed = 0;
	fn();
	printf("%s %s\n", test_failed ? "FAIL" : "ok", name);
	if (test_failed)
		any_failed = 1;
}

static void test_legacy(void)
{
	struct lb_legacy l = LB_LEGACY_UNLOCKED;

	CHECK(l.slock == 1);
	CHECK(!lb_legacy_is_locked(&l));
	lb_legacy_lock(&l);
	CHECK(l.slock == 0);
	CHECK(lb_legacy_is_locked(&l));
	CHECK(!lb_legacy_trylock(&l));		/* held: fails, writes 0 */
	CHECK(l.slock == 0);
	lb_legacy_unlock(&l);
	CHECK(l.slock == 1);
	CHECK(lb_legacy_trylock(&l));
	CHECK(l.slock == 0);
	/* a held lock with "waiters" (negative): trylock fails */
	l.slock = -3;
	CHECK(lb_legacy_is_locked(&l));
	CHECK(!lb_legacy_trylock(&l));
	lb_legacy_unlock(&l);
	CHECK(!lb_legacy_is_locked(&l));
	lb_legacy_init(&l);
	CHECK(l.slock == 1);
}

static void test_ticket8(void)
{
	series8_t l;
	unsigned int i;

	series8_init(&l);
	CHECK(l.slock == 0);

	CHECK(!series8_is_locked(&l));
	series8_lock(&l);
	CHECK(l.slock == 0x0100);		/* tail 1, head 0 */
	CHECK(series8_is_locked(&l));
	CHECK(!series8_is_contended(&l));
	CHECK(!series8_trylock(&l));
	CHECK(l.slock == 0x0100);		/* failed trylock: no change */
	series8_unlock(&l);
	CHECK(l.slock == 0x0101);
	CHECK(!series8_is_locked(&l));
	CHECK(series8_trylock(&l));
	CHECK(l.slock == 0x0201);
	series8_unlock(&l);

	/* pretend two more tickets are out: contended */
	l.slock = 0x0502;
	CHECK(series8_is_locked(&l));
	CHECK(series8_is_contended(&l));

	/* wrap: the 8-bit increments must never carry into each other */
	series8_init(&l);
	for (i = 0; i < 300; i++) {
		series8_lock(&l);
		CHECK(series8_is_locked(&l));
		series8_unlock(&l);
	}
	CHECK(l.slock == ((300 % 256) << 8 | (300 % 256)));
	CHECK(!series8_is_locked(&l));
	l.slock = 0xffff;			/* head = tail = 255 */
	CHECK(series8_trylock(&l));
	CHECK(l.slock == 0x00ff);		/* tail wrapped to 0 */
	series8_unlock(&l);
	CHECK(l.slock == 0x0000);		/* head wrapped, no carry */
}

static void test_ticket16(void)
{
	series16_t l;
	unsigned int i;

	series16_init(&l);
	CHECK(l.slock == 0);

	CHECK(!series16_is_locked(&l));
	series16_lock(&l);
	CHECK(l.slock == 0x00010000);
	CHECK(series16_is_locked(&l));
	CHECK(!series16_trylock(&l));
	CHECK(l.slock == 0x00010000);
	series16_unlock(&l);
	CHECK(l.slock == 0x00010001);
	CHECK(series16_trylock(&l));
	CHECK(l.slock == 0x00020001);
	CHECK(!series16_is_contended(&l));
	series16_unlock(&l);

	/* 300 tickets would break ticket8, not ticket16 */
	l.slock = 300u << 16;
	CHECK(series16_is_locked(&l));
	CHECK(series16_is_contended(&l));

	series16_init(&l);
	for (i = 0; i < 70000; i++) {
		series16_lock(&l);
		series16_unlock(&l);
	}
	CHECK(l.slock == ((70000u % 65536) << 16 | (70000u % 65536)));
	l.slock = 0xffffffffu;
	CHECK(series16_trylock(&l));
	CHECK(l.slock == 0x0000ffffu);
	series16_unlock(&l);
	CHECK(l.slock == 0);
}

/*
 * The skip-ticket lock's states, in user space as in the kernel: the stall
 * clock on made-up times; a waiter next behind the holder in a calm
 * process waits unregistered and holds the lock at the unlock, with no
 * atomic of its own; a registered waiter is offered the lock and claims
 * it; a waiter that registered and never claims (a preempted one) is
 * skipped after the calm patience (256 of them), and the same skip in a
 * hurried process takes one patience, far less than the calm 256.
 */
static void test_skipticket(void)
{
	struct skt_state st;
	skt_lock_t l;
	skt_ticket_t absent;
	u32 v1, v2;
	u64 c0, gap, calm;
	int i;

	skt_set_patience_us(1000);
	st = skt_state;
	/* the stall clock (made-up times): calm until a burst + 1 at once */
	gap = st.patience << SKIPTICKET_GAP_SHIFT;
	calm = st.patience << SKIPTICKET_CALM_SHIFT;
	c0 = 1ULL << 40;
	st.clock = 0;
	for (i = 0; i < SKIPTICKET_BURST; i++) {
		st.clock = skt_stall_clock_after(st.clock, c0, st.patience);
		CHECK(skt_patience_for(st.clock, c0, st.patience) == calm);
	}
	CHECK(st.clock == c0 + SKIPTICKET_BURST * gap);
	st.clock = skt_stall_clock_after(st.clock, c0, st.patience);
	CHECK(skt_patience_for(st.clock, c0, st.patience) == st.patience);
	CHECK(skt_patience_for(st.clock, c0 + gap + 1, st.patience) == calm);
	CHECK(skt_stall_clock_after(c0 + (1ULL << 50), c0, st.patience) ==
	      c0 + 2 * SKIPTICKET_BURST * gap);
	CHECK(skt_stall_clock_after(c0 - 1, c0, st.patience) == c0 + gap);
	/* noted once per offer (lock, head) */
	st.clock = 0;
	st.stalled = 0;
	CHECK(skt_stalled(&st, &l, 5, c0) == calm && st.clock == c0 + gap);
	CHECK(skt_stalled(&st, &l, 5, c0) == calm && st.clock == c0 + gap);
	CHECK(skt_stalled(&st, &l, 6, c0) == calm && st.clock == c0 + 2 * gap);
	st.clock = 0;
	st.stalled = 0;

	skt_init(&l);
	CHECK(!skt_is_locked(&l));
	CHECK(skt_take(&l, &v1));		/* free: one xadd */
	CHECK(skt_tail(v1) == 0);
	CHECK(l.slock == 0x01000000);		/* tail 1, head 0 */
	CHECK(skt_is_locked(&l));
	CHECK(!skt_trylock(&l));
	/* next behind the holder, calm: unregistered */
	CHECK(!skt_take(&l, &v1));
	CHECK(skt_tail(v1) == 1 && skt_lazy(v1, &st, rdtsc));
	CHECK(l.slock == 0x02000000);
	skt_unlock(&l);				/* ticket 1 holds it */
	CHECK(l.slock == 0x02000001 && skt_busy(l.slock) == 1);
	CHECK(!skt_trylock(&l));
	skt_wait_clock(&l, v1, &st, rdtsc);	/* returns, writes nothing */
	CHECK(l.slock == 0x02000001);
	/* a registered waiter (ticket 2) is offered the lock and claims it */
	CHECK(!skt_take(&l, &v2));
	CHECK(skt_lazy(v2, &st, rdtsc));	/* next behind the holder, 1 */
	CHECK(!skt_register(&l, skt_tail(v2), l.slock));	/* registers anyway */
	CHECK(l.slock == 0x03000101);		/* waiting 1 */
	CHECK(skt_is_contended(&l));
	skt_unlock(&l);				/* offered to ticket 2 */
	CHECK(l.slock == 0x03000102 && skt_busy(l.slock) == 0);
	CHECK(skt_is_locked(&l));		/* offered is not free */
	CHECK(!skt_trylock(&l));
	skt_wait_registered(&l, 2, &st, rdtsc);	/* claims */
	CHECK(l.slock == 0x03000002);
	skt_unlock(&l);
	CHECK(!skt_is_locked(&l));
	/* ticket 4 registers and never claims; 5 skips it after 256 */
	CHECK(skt_take(&l, &v1));		/* 3 */
	CHECK(!skt_take(&l, &v1));
	absent = skt_tail(v1);
	CHECK(absent == 4 && !skt_register(&l, absent, l.slock));
	skt_unlock(&l);				/* offered to 4 */
	CHECK(!skt_take(&l, &v2));
	CHECK(!skt_lazy(v2, &st, rdtsc));	/* an offer ahead: registers */
	c0 = rdtsc();
	skt_wait_clock(&l, v2, &st, rdtsc);	/* skips 4, claims 5 */
	CHECK(rdtsc() - c0 > calm);		/* calm: after 256 patiences */
	CHECK(st.clock > c0 + st.patience + gap);	/* one stall */
	CHECK(l.slock == 0x06000005);		/* tail 6, head 5, 0 waiting */
	skt_unlock(&l);				/* free at 6 */
	CHECK(!skt_is_locked(&l));
	skt_wait_registered(&l, absent, &st, rdtsc);	/* queues again, gets it */
	CHECK(l.slock == 0x07000006);
	skt_unlock(&l);
	/* hurried: the same skip after 1 patience, long before 128 */
	CHECK(skt_take(&l, &v1));
	CHECK(!skt_take(&l, &v1));
	absent = skt_tail(v1);
	CHECK(!skt_register(&l, absent, l.slock));
	skt_unlock(&l);
	CHECK(!skt_take(&l, &v2));
	st.clock = rdtsc() + 2 * SKIPTICKET_BURST * gap;
	st.hurried_until = st.clock;
	c0 = rdtsc();
	skt_wait_clock(&l, v2, &st, rdtsc);
	c0 = rdtsc() - c0;
	CHECK(c0 > st.patience && c0 < calm / 2);
	skt_unlock(&l);
	skt_wait_registered(&l, absent, &st, rdtsc);
	skt_unlock(&l);
	CHECK(!skt_is_locked(&l));
	/* hurried: next behind the holder registers too */
	CHECK(skt_take(&l, &v1));
	CHECK(!skt_take(&l, &v1));
	CHECK(!skt_lazy(v1, &st, rdtsc));
	skt_unlock(&l);
	skt_unlock(&l);
	CHECK(skt_trylock(&l));
	skt_unlock(&l);
	/* 8-bit tickets: tail's xadd carries out of the word, head's incb
	 * into nothing */
	skt_init(&l);
	l.slock = 0xff0000ff;			/* head 255 = tail */
	CHECK(!skt_is_locked(&l));
	CHECK(skt_trylock(&l));
	CHECK(l.slock == 0x000000ff);		/* tail wrapped, head 255 */
	skt_unlock(&l);
	CHECK(l.slock == 0x00000000);		/* head wrapped, no carry */
	/* a skip across the wrap: head 255 -> 0, one waiter fewer */
	CHECK(skt_skip(0x010002ff) == 0x01000100);
	/* busy: the holder, and a CPU between its xadd and registering */
	skt_init(&l);
	CHECK(skt_take(&l, &v1));
	CHECK(skt_busy(l.slock) == 1);
	v2 = xadd(&l.slock, skt_tail_inc);	/* ticket 1, unregistered */
	CHECK(skt_busy(l.slock) == 2);
	skt_unlock(&l);
	CHECK(skt_busy(l.slock) == 1);		/* looks held: no claim, no skip */
	CHECK(skt_register(&l, skt_tail(v2), l.slock));	/* refused: ours */
	CHECK(skt_busy(l.slock) == 1 && skt_waiting(l.slock) == 0);
	skt_unlock(&l);
	CHECK(!skt_is_locked(&l));
	/*
	 * hurried (skt_state's hint, which skt_lock() and lockbench's take
	 * read): a free lock taken by a cmpxchg, else ticket and registration
	 * in one xadd, so no CPU sits between them (busy: the holder alone)
	 */
	st = skt_state;
	skt_state.clock = rdtsc() + (1ULL << 62);
	skt_state.hurried_until = skt_state.clock;
	skt_init(&l);
	skt_lock(&l);
	CHECK(l.slock == 0x01000000);
	CHECK(!lb_skipticket_take(&l, &v1));
	CHECK(v1 == (0x01000000 | skt_registered));
	CHECK(l.slock == 0x02000100 && skt_busy(l.slock) == 1);
	skt_unlock(&l);				/* offered to ticket 1 */
	CHECK(skt_busy(l.slock) == 0);
	lb_skipticket_wait(&l, v1);		/* claims */
	CHECK(l.slock == 0x02000001);
	skt_unlock(&l);
	CHECK(lb_skipticket_take(&l, &v1));	/* free: cmpxchg */
	CHECK(l.slock == 0x03000002);
	skt_unlock(&l);
	skt_state = st;
}

static void test_dispatch(void)
{
	union lb_anylock l;
	int k;

	for (k = 0; k < LB_NR_KINDS; k++) {
		lb_lock_init(k, &l);
		CHECK(!lb_is_locked(k, &l));
		lb_lock(k, &l);
		CHECK(lb_is_locked(k, &l));
		CHECK(!lb_trylock(k, &l));
		lb_unlock(k, &l);
		CHECK(!lb_is_locked(k, &l));
		CHECK(lb_trylock(k, &l));
		lb_unlock(k, &l);
	}
	CHECK(lb_lock_max_cpus(LB_TICKET8) == 255);
	CHECK(lb_lock_max_cpus(LB_TICKET16) == 65535);
	CHECK(lb_lock_max_cpus(LB_LEGACY) == 0);
	CHECK(lb_lock_max_cpus(LB_SKIPTICKET) == 255);
	CHECK(!strcmp(lb_lock_name(LB_SKIPTICKET), "skipticket"));
	CHECK(!strcmp(lb_lock_name(LB_LEGACY), "legacy"));
	CHECK(!strcmp(lb_lock_name(LB_TICKET8), "ticket8"));
	CHECK(!strcmp(lb_lock_name(LB_TICKET16), "ticket16"));
	/* the list's names: every lock named, no name twice, none beyond */
	for (k = 0; k < LB_NR_KINDS; k++) {
		int j;

		CHECK(lb_lock_name(k)[0] && strcmp(lb_lock_name(k), "?"));
		for (j = 0; j < k; j++)
			CHECK(strcmp(lb_lock_name(j), lb_lock_name(k)));
	}
	CHECK(!strcmp(lb_lock_name(LB_NR_KINDS), "?"));
	lb_cpu_relax();
}

/*
 * take/wait: the first attempt wins a free lock and reports the ticket it
 * took; refused, it leaves its ticket in line (the word's tail moved on),
 * and wait() returns once the holder has unlocked.  Single-threaded, so
 * the refused taker's wait() runs after the holder's unlock.
 */
static void test_take_wait(void)
{
	union lb_anylock l;
	lb_u32 t1, t2;
	int k, i;

	for (k = 0; k < LB_NR_KINDS; k++) {
		lb_lock_init(k, &l);
		for (i = 0; i < 300; i++) {	/* past the 8-bit wrap */
			CHECK(lb_take(k, &l, &t1));
			CHECK(lb_is_locked(k, &l));
			CHECK(!lb_is_contended(k, &l));
			CHECK(!lb_take(k, &l, &t2));
			if (lb_ticket_bits(k))	/* a ticket lock shows its queue */
				CHECK(lb_is_contended(k, &l));
			if (lb_ticket_bits(k)) {	/* a ticket lock */
				lb_u32 mask = (1U << lb_ticket_bits(k)) - 1;

				CHECK(lb_ticket(k, t1) == ((lb_u32)(2 * i) & mask));
				CHECK(lb_ticket(k, t2) == ((lb_ticket(k, t1) + 1) & mask));
			}
			lb_unlock(k, &l);
			if (k == LB_LEGACY)	/* a refused decl leaves it at -1 */
				CHECK(!lb_is_locked(k, &l));
			lb_wait(k, &l, t2);	/* ours now */
			CHECK(lb_is_locked(k, &l));
			lb_unlock(k, &l);
			CHECK(!lb_is_locked(k, &l));
		}
	}
	CHECK(lb_ticket_bits(LB_TICKET8) == 8);
	CHECK(lb_ticket_bits(LB_TICKET16) == 16);
	CHECK(lb_ticket_bits(LB_LEGACY) == 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	alarm(10);
	run("legacy", test_legacy);
	run("ticket8", test_ticket8);
	run("ticket16", test_ticket16);
	run("skipticket", test_skipticket);
	run("dispatch", test_dispatch);
	run("take_wait", test_take_wait);
	printf("test_locks: %s\n", any_failed ? "FAILED" : "all tests passed");
	return any_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
