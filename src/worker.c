/*
 * worker.c - the second thread, kept for the whole run.
 *
 * One job at a time, in one slot: IDLE, POSTED (given, not taken yet),
 * RUNNING, DONE, or back to IDLE when the poster takes back a job the
 * thread has not begun (the poster ran out of work to share before the
 * thread got going: no use waiting for it).  A side with nothing to do
 * first polls the slot for up to SPIN_NS, then sleeps on the condition
 * variable; `sleepers` tells the other side to wake it (sequentially
 * consistent: one side stores the state and then reads `sleepers`, the
 * other adds itself to `sleepers` and then reads the state, so one of
 * them sees the other).
 *
 * Each thread has a processor of its own while they share a job: the
 * second stays on the one it was sent to when it started, and the first
 * is kept on another from worker_post to worker_wait, then let free.
 * Left to the scheduler, a new thread is put on its creator's processor
 * and moved only at the next tick, and two busy threads were often found
 * sharing one processor while the other was idle, for milliseconds
 * (measured: a third of the runs that followed a long process; the 18 MB
 * dense input then took 8 to 15 ms instead of 7).
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
enum { IDLE, POSTED, RUNNING, DONE };
static void (*job_fn)(void *);
static void *job_arg;
static int job_more;
static int slot;		/* atomic: IDLE, POSTED, RUNNING, DONE */
static int sleepers;		/* atomic */
static int awake = 1;		/* the thread waits awake for its next job */
static cpu_set_t cpus;		/* where the process may run */
static int main_cpu = -1;	/* the first thread's processor, or -1 */
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

/* Wait until the slot holds WANT: awake for SPIN_NS when SPIN, then asleep. */
static void
wait_slot(int want, int spin)
{
	if (spin) {
		int64_t end = now_ns() + SPIN_NS;

		do {
			for (int i = 0; i < 256; i++) {
				if (__atomic_load_n(&slot, __ATOMIC_SEQ_CST) == want)
					return;
				relax();
			}
		} while (now_ns() < end);
	}
	pthread_mutex_lock(&mu);
	__atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&slot, __ATOMIC_SEQ_CST) != want)
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

/* Send thread T to a processor other than this thread's, for good. */
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
			if (pthread_setaffinity_np(t, sizeof one, &one) == 0) {
				main_cpu = me;
				__atomic_store_n(&moved, 1, __ATOMIC_SEQ_CST);
			}
			return;
		}
}

static void *
loop(void *unused)
{
	(void)unused;
	while (__atomic_load_n(&moved, __ATOMIC_SEQ_CST) == 0)
		relax();	/* (until it is where it will stay) */
	for (;;) {
		int want = POSTED;

		wait_slot(POSTED, awake);
		if (!__atomic_compare_exchange_n(&slot, &want, RUNNING, 0,
		    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			continue;	/* taken back */
		if (job_fn == NULL)	/* the end of the run */
			break;
		job_fn(job_arg);	/* set before the slot was */
		awake = job_more;
		__atomic_store_n(&slot, DONE, __ATOMIC_SEQ_CST);
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
	int st = __atomic_load_n(&slot, __ATOMIC_SEQ_CST);

	if (state != 1 || st == POSTED || st == RUNNING)
		return;
	job_fn = NULL;
	__atomic_store_n(&slot, POSTED, __ATOMIC_SEQ_CST);
	wake();
	pthread_join(thread, NULL);
	state = 0;
}

/* A child of fork has no second thread: it does all the work itself. */
static void
in_child(void)
{
	state = -1;
	main_cpu = -1;
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
	pthread_atfork(NULL, NULL, in_child);
	move_away(thread);
	if (__atomic_load_n(&moved, __ATOMIC_SEQ_CST) == 0)
		__atomic_store_n(&moved, 2, __ATOMIC_SEQ_CST);
	atexit(worker_end);
	return 0;
}

/* Keep this thread on its own processor (ON), or let it free. */
static void
hold_main(int on)
{
	cpu_set_t one;

	if (main_cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(main_cpu, &one);
	pthread_setaffinity_np(pthread_self(), sizeof cpus, on ? &one : &cpus);
}

int
worker_post(void (*fn)(void *), void *arg, int more)
{
	if (worker_start() < 0)
		return -1;
	hold_main(1);
	job_fn = fn;
	job_arg = arg;
	job_more = more;
	__atomic_store_n(&slot, POSTED, __ATOMIC_SEQ_CST);
	wake();
	return 0;
}

void
worker_wait(void)
{
	int want = POSTED;

	/* not begun: taken back, the poster did the work */
	if (!__atomic_compare_exchange_n(&slot, &want, IDLE, 0,
	    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		wait_slot(DONE, 1);
		__atomic_store_n(&slot, IDLE, __ATOMIC_SEQ_CST);
	}
	hold_main(0);
}
