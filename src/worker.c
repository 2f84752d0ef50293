/*
 * worker.c - the second thread, kept for the whole run.
 *
 * One job at a time: posted counts the jobs given, done the jobs done.
 * A side with nothing to do first polls the count for up to SPIN_NS,
 * then sleeps on the condition variable; `sleepers` tells the other side
 * to wake it (sequentially consistent: one side stores its count and then
 * reads `sleepers`, the other adds itself to `sleepers` and then reads the
 * count, so one of them sees the other).
 *
 * A new thread is put on the processor of the thread that started it, and
 * is moved to an idle one only at the scheduler's next tick (measured: 2
 * to 4 ms late, on a machine of two).  So it is sent to another processor
 * as soon as it exists, and given all of them back once it runs.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "worker.h"

#define SPIN_NS 2000000L	/* 2 ms: about a phase of a large report */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int state;		/* 0 not started, 1 running, -1 failed */
static pthread_t thread;
static void (*job_fn)(void *);
static void *job_arg;
static int job_more;
static uint64_t posted, done;	/* atomic */
static int sleepers;		/* atomic */
static int awake = 1;		/* the thread waits awake for its next job */
static cpu_set_t cpus;		/* where the thread may run */
static int moved;		/* atomic: 1 when it was sent elsewhere, 2 when not */

static void
relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static int64_t
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Wait until *COUNT reaches N: awake for SPIN_NS when SPIN, then asleep. */
static void
wait_count(uint64_t *count, uint64_t n, int spin)
{
	if (spin) {
		int64_t end = now_ns() + SPIN_NS;

		do {
			for (int i = 0; i < 256; i++) {
				if (__atomic_load_n(count, __ATOMIC_SEQ_CST) >= n)
					return;
				relax();
			}
		} while (now_ns() < end);
	}
	pthread_mutex_lock(&mu);
	__atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(count, __ATOMIC_SEQ_CST) < n)
		pthread_cond_wait(&cv, &mu);
	__atomic_sub_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&mu);
}

static void
wake(void)
{
	if (__atomic_load_n(&sleepers, __ATOMIC_SEQ_CST) == 0)
		return;
	pthread_mutex_lock(&mu);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

/* Send thread T to a processor other than this thread's. */
static void
move_away(pthread_t t)
{
	cpu_set_t one;
	int me = sched_getcpu();

	if (me < 0 || sched_getaffinity(0, sizeof cpus, &cpus) != 0)
		return;		/* (read again: the thread restores this) */
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (c != me && CPU_ISSET(c, &cpus)) {
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			if (pthread_setaffinity_np(t, sizeof one, &one) == 0)
				__atomic_store_n(&moved, 1, __ATOMIC_SEQ_CST);
			return;
		}
}

static void *
loop(void *unused)
{
	int m;

	(void)unused;
	while ((m = __atomic_load_n(&moved, __ATOMIC_SEQ_CST)) == 0)
		relax();
	if (m == 1)	/* free to go anywhere again */
		pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
	for (uint64_t n = 1;; n++) {
		wait_count(&posted, n, awake);
		if (job_fn == NULL)	/* the end of the run */
			break;
		job_fn(job_arg);	/* set before posted was */
		awake = job_more;
		__atomic_store_n(&done, n, __ATOMIC_SEQ_CST);
		wake();
	}
	return NULL;
}

/*
 * At exit, an idle thread is ended and joined, so that it leaves nothing
 * behind (valgrind would call its stack lost); a busy one (an error cut
 * its job short) is left to the exit.
 */
static void
worker_end(void)
{
	if (state != 1 || __atomic_load_n(&done, __ATOMIC_SEQ_CST) !=
	    __atomic_load_n(&posted, __ATOMIC_SEQ_CST))
		return;
	job_fn = NULL;
	__atomic_add_fetch(&posted, 1, __ATOMIC_SEQ_CST);
	wake();
	pthread_join(thread, NULL);
	state = 0;
}

int
worker_start(void)
{

	if (state != 0)
		return state > 0 ? 0 : -1;
	state = -1;
	/* on one processor a second thread only takes turns with the first */
	if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) < 2)
		return -1;
	if (pthread_create(&thread, NULL, loop, NULL) != 0)
		return -1;
	state = 1;
	move_away(thread);
	if (__atomic_load_n(&moved, __ATOMIC_SEQ_CST) == 0)
		__atomic_store_n(&moved, 2, __ATOMIC_SEQ_CST);
	atexit(worker_end);
	return 0;
}

int
worker_post(void (*fn)(void *), void *arg, int more)
{
	if (worker_start() < 0)
		return -1;
	job_fn = fn;
	job_arg = arg;
	job_more = more;
	__atomic_add_fetch(&posted, 1, __ATOMIC_SEQ_CST);
	wake();
	return 0;
}

void
worker_wait(void)
{
	wait_count(&done, __atomic_load_n(&posted, __ATOMIC_SEQ_CST), 1);
}
