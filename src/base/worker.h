/*
 * worker.h - the second thread, kept for the whole run.
 *
 * The byte-order pass and the report each give it a share of their work
 * (profile.c, reportpar.c).  Starting a thread, or waking one that slept,
 * can take milliseconds: the thread is started once, at the first job, and
 * between the jobs it knows more are coming it waits awake for a little
 * while.  At exit it is ended (when idle).
 */
#ifndef RP_WORKER_H
#define RP_WORKER_H

/* Start the thread now (none on a single processor); 0, or -1. */
int worker_start(void);

/*
 * Run FN(ARG) on the second thread (started if need be); MORE: another
 * job follows soon, so wait awake after this one.  Returns 0, or -1 when
 * there is no second thread (the caller does all the work).
 */
int worker_post(void (*fn)(void *), void *arg, int more);

/* Wait until the job posted last is done. */
void worker_wait(void);

#endif
