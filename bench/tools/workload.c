// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - a whole-kernel workload in which every thread contends on
 * ONE kernel spinlock, to compare kernels (queued against ticket) at the
 * same vCPU count by throughput.
 *
 * Usage: workload [-m futex|open] [-t THREADS] [-s SECONDS] [-k] [-h]
 *
 *   -m futex  (default) every thread calls futex(FUTEX_WAIT_PRIVATE) on
 *             the same word with a value it does not hold.  The kernel
 *             hashes the futex to one hash bucket, takes that bucket's
 *             spinlock (spin_lock(&hb->lock) in futex_q_lock()), reads
 *             the word, sees the mismatch, unlocks and returns EAGAIN:
 *             one lock/unlock of one spinlock_t per call, nothing else
 *             shared but the bucket's waiter count.
 *   -m open   every thread open()s and close()s the same file.  The
 *             threads share one fd table, so each call takes the table's
 *             spinlock (files->file_lock, in alloc_fd() and
 *             file_close_fd()), and the file's dentry refcount (a lockref,
 *             whose spinlock is taken when its cmpxchg loop gives up).
 *   -t        threads, pinned round robin to the online CPUs (default:
 *             online CPUs; 1..1024)
 *   -s        seconds to run (default 3; 1..3600)
 *   -k        key=value output (one line)
 *
 * All threads start together (spinning barrier) and stop on a flag the
 * main thread sets after SECONDS.  Reported: calls per second over all
 * threads, and how evenly they were shared (Jain's index, min and max per
 * thread), which shows the lock's fairness in a real kernel path.
 *
 * Exit status: 0 ok, 1 runtime failure, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"
#include "uclock.h"

#define MAX_THREADS	1024
#define HOT_ALIGN	128

enum mode { M_FUTEX, M_OPEN };

struct thr {
	pthread_t tid;
	int cpu;
	lb_u64 ops;
} __attribute__((aligned(HOT_ALIGN)));

static struct {
	unsigned int arrived __attribute__((aligned(HOT_ALIGN)));
	volatile int stop __attribute__((aligned(HOT_ALIGN)));
	int futex_word __attribute__((aligned(HOT_ALIGN)));
} sh;

static enum mode mode;
static unsigned int nthreads;
static const char *path = "/tmp/workload.file";
static struct thr thr[MAX_THREADS];

static void die(const char *what)
{
	fprintf(stderr, "workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *worker(void *arg)
{
	struct thr *t = arg;
	lb_u64 n = 0;

	if (t->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);	/* best effort */
	}
	__atomic_add_fetch(&sh.arrived, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&sh.arrived, __ATOMIC_ACQUIRE) < nthreads)
		;

	while (!sh.stop) {
		if (mode == M_FUTEX) {
			/* the word is 0: waiting for 1 returns EAGAIN at once */
			if (syscall(SYS_futex, &sh.futex_word,
				    FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0) == 0 ||
			    errno != EAGAIN)
				die("futex");
		} else {
			int fd = open(path, O_RDONLY);

			if (fd < 0)
				die("open");
			close(fd);
		}
		n++;
	}
	t->ops = n;
	return NULL;
}

static unsigned long parse_num(const char *opt, const char *s,
			       unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max) {
		fprintf(stderr, "workload: %s %s: must be a number %lu..%lu (see workload -h)\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

static void usage(void)
{
	printf("usage: workload [-m futex|open] [-t THREADS] [-s SECONDS] [-k] [-h]\n"
	       "  -m futex  FUTEX_WAIT on one word: one futex hash-bucket spinlock (default)\n"
	       "  -m open   open+close of one file, shared fd table: files->file_lock\n"
	       "  -t        threads, pinned round robin (default: online CPUs; 1..%d)\n"
	       "  -s        seconds (default 3; 1..3600)\n"
	       "  -k        key=value output\n", MAX_THREADS);
}

int main(int argc, char **argv)
{
	unsigned long secs = 3;
	lb_u64 ops[MAX_THREADS], total = 0, min, max, t0, t1, rate;
	lb_u64 jain;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct timespec ts;
	int opt, kv = 0;
	unsigned int i;

	nthreads = online > 0 ? (online > MAX_THREADS ? MAX_THREADS :
				 (unsigned int)online) : 1;
	opterr = 0;
	while ((opt = getopt(argc, argv, "m:t:s:kh")) != -1) {
		switch (opt) {
		case 'm':
			if (!strcmp(optarg, "futex")) {
				mode = M_FUTEX;
			} else if (!strcmp(optarg, "open")) {
				mode = M_OPEN;
			} else {
				fprintf(stderr, "workload: -m %s: must be futex or open (see workload -h)\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			nthreads = parse_num("-t", optarg, 1, MAX_THREADS);
			break;
		case 's':
			secs = parse_num("-s", optarg, 1, 3600);
			break;
		case 'k':
			kv = 1;
			break;
		case 'h':
			usage();
			return 0;
		default:
			fprintf(stderr, "workload: unknown option -%c (see workload -h)\n",
				optopt);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "workload: unexpected argument '%s' (see workload -h)\n",
			argv[optind]);
		return 2;
	}

	if (mode == M_OPEN) {
		int fd = open(path, O_CREAT | O_WRONLY, 0644);

		if (fd < 0)
			die(path);
		close(fd);
	}
	for (i = 0; i < nthreads; i++) {
		thr[i].cpu = online > 0 ? (int)(i % online) : -1;
		if (pthread_create(&thr[i].tid, NULL, worker, &thr[i]))
			die("pthread_create");
	}
	while (__atomic_load_n(&sh.arrived, __ATOMIC_ACQUIRE) < nthreads)
		usleep(1000);
	t0 = lb_now_ns();
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = 0;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	sh.stop = 1;
	for (i = 0; i < nthreads; i++)
		pthread_join(thr[i].tid, NULL);
	t1 = lb_now_ns();

	for (i = 0; i < nthreads; i++) {
		ops[i] = thr[i].ops;
		total += ops[i];
	}
	lb_minmax(ops, nthreads, &min, &max);
	jain = lb_jain_ppm(ops, nthreads);
	rate = t1 > t0 ? (lb_u64)((double)total * 1e9 / (double)(t1 - t0)) : 0;
	if (kv)
		printf("workload=%s threads=%u secs=%lu ops=%llu ns=%llu ops_per_sec=%llu jain=%llu.%06llu ops_min=%llu ops_max=%llu\n",
		       mode == M_FUTEX ? "futex" : "open", nthreads, secs,
		       total, t1 - t0, rate, jain / LB_SCALE, jain % LB_SCALE,
		       min, max);
	else
		printf("%s: %u threads, %llu calls in %.3f s: %llu/s, jain %.6f, per thread %llu..%llu\n",
		       mode == M_FUTEX ? "futex" : "open", nthreads, total,
		       (double)(t1 - t0) / 1e9, rate, (double)jain / 1e6,
		       min, max);
	if (mode == M_OPEN)
		unlink(path);
	return 0;
}
