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
 * second moves itself to another processor than the first's as it
 * starts, and stays there; the first is kept on its own from worker_post
 * to worker_wait, then let free.  Left to the scheduler, a new thread is
 * put on its creator's processor and moved only at the next tick, and two
 * busy threads were often found sharing one processor while the other was
 * idle, for milliseconds (measured: a third of the runs that followed a
 * long process; the 18 MB dense input then took 8 to 15 ms instead of 7).
 * The second thread is started on its processor (glibc), or moves itself
 * there: moving it from the first, which may have to wait for it to be
 * off the processor they share, took 4 ms.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "base/worker.h"

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
static int worker_cpu = -1;	/* the second's */

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

/*
 * The processors: this thread's (MAIN_CPU) and another (WORKER_CPU), or
 * -1 when they cannot be told.
 */
static void
choose_cpus(void)
{
	int me = sched_getcpu();

	if (me < 0)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (c != me && CPU_ISSET(c, &cpus)) {
			main_cpu = me;
			worker_cpu = c;
			return;
		}
}

/* Keep the calling thread on processor C (or let it free: C < 0). */
static void
stay_on(int c)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	if (c >= 0)
		CPU_SET(c, &one);
	pthread_setaffinity_np(pthread_self(), sizeof cpus, c >= 0 ? &one :
	    &cpus);
}

static void *
loop(void *where)
{
	/*
	 * First of all, off the first thread's processor, where it may
	 * well have been put (moving itself, it does not hold the first),
	 * unless it was started where it stays.
	 */
	if (where == NULL && worker_cpu >= 0)
		stay_on(worker_cpu);
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
	worker_cpu = -1;
}

/*
 * Start the thread; on WORKER_CPU from the first, where the C library can
 * say so before the thread runs (glibc), else it moves itself (musl).
 */
static int
create(void)
{
#ifdef __GLIBC__
	static int placed;	/* loop's argument: started on worker_cpu */
	pthread_attr_t a;
	cpu_set_t one;
	int r;

	if (worker_cpu >= 0 && pthread_attr_init(&a) == 0) {
		CPU_ZERO(&one);
		CPU_SET(worker_cpu, &one);
		r = pthread_attr_setaffinity_np(&a, sizeof one, &one) == 0 ?
		    pthread_create(&thread, &a, loop, &placed) : -1;
		pthread_attr_destroy(&a);
		if (r == 0)
			return 0;
	}
#endif
	return pthread_create(&thread, NULL, loop, NULL);
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
	choose_cpus();
	if (create() != 0)
		return -1;
	state = 1;
	pthread_atfork(NULL, NULL, in_child);
	atexit(worker_end);
	return 0;
}

/* Keep this thread on its own processor (ON), or let it free. */
static void
hold_main(int on)
{
	if (main_cpu >= 0)
		stay_on(on ? main_cpu : -1);
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
