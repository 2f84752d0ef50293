/*
 * mapguard.c - report a SIGBUS in a watched mapping and exit.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/mapguard.h"
#include "base/util.h"

struct slot {
	volatile sig_atomic_t used;
	uintptr_t base;
	size_t len;
	char msg[512];		/* the whole line, prefix and newline */
	size_t msglen;
};

static struct slot slots[MAPGUARD_SLOTS];
static int installed;
/* Two threads may read mapped files at once (the profile's two halves). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void
put(const char *s, size_t n)
{
	ssize_t r = write(STDERR_FILENO, s, n);

	(void)r;
}

/* Async-signal-safe: write() and _exit() only. */
static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	static const char other[] = PROGNAME ": an input file shrank while "
	    "being read\n";
	uintptr_t a = (uintptr_t)si->si_addr;
	size_t used = 0, last = 0;

	(void)sig;
	(void)uc;
	for (size_t i = 0; i < MAPGUARD_SLOTS; i++) {
		if (!slots[i].used)
			continue;
		if (a - slots[i].base < slots[i].len) {
			put(slots[i].msg, slots[i].msglen);
			_exit(1);
		}
		used++;
		last = i;
	}
	/*
	 * No watched mapping holds the address (an emulator may not report
	 * it): with one mapping watched, the fault is still its file's.
	 */
	if (used == 1)
		put(slots[last].msg, slots[last].msglen);
	else
		put(other, sizeof other - 1);
	_exit(1);
}

static void
install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	installed = 1;
}

int
mapguard_add(const void *base, size_t len, const char *msg)
{
	int n;

	pthread_mutex_lock(&lock);
	if (!installed)
		install();
	for (size_t i = 0; i < MAPGUARD_SLOTS; i++) {
		struct slot *s = &slots[i];

		if (s->used)
			continue;
		n = snprintf(s->msg, sizeof s->msg, "%s: %s\n", PROGNAME, msg);
		s->msglen = n < 0 ? 0 : (size_t)n < sizeof s->msg ? (size_t)n :
		    sizeof s->msg - 1;
		if (s->msglen > 0 && s->msg[s->msglen - 1] != '\n')
			s->msg[s->msglen - 1] = '\n';
		s->base = (uintptr_t)base;
		s->len = len;
		__atomic_store_n(&s->used, 1, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&lock);
		return 0;
	}
	pthread_mutex_unlock(&lock);
	return -1;
}

void
mapguard_remove(const void *base)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < MAPGUARD_SLOTS; i++)
		if (slots[i].used && slots[i].base == (uintptr_t)base)
			__atomic_store_n(&slots[i].used, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
}
