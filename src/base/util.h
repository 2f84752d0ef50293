/*
 * util.h - fatal errors and warnings in the style of err(3), and checked
 * allocation.  Every message goes to stderr prefixed "readprofile: ".
 */
#ifndef RP_UTIL_H
#define RP_UTIL_H

#include <setjmp.h>
#include <stddef.h>

#define PROGNAME "readprofile"

/* Print "readprofile: MSG" and exit(1). */
_Noreturn void fatalx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "readprofile: MSG: strerror(errno)" and exit(1). */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "readprofile: MSG" and go on. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Hook run by fatal()/fatalx() before exiting (drops held-back output). */
extern void (*fatal_hook)(void);

/*
 * A helper thread's messages (hist/profile.c, core/reportpar.c): after
 * msg_hold(H), this thread's warnings and fatal errors are appended to
 * H->text instead of printed, and a fatal error jumps to H->jb (set by the
 * thread) instead of exiting.  The thread that reads its results prints
 * them in their place.
 */
struct msghold {
	char *text;
	size_t len, cap;
	jmp_buf jb;
};
void msg_hold(struct msghold *h);

/* Run fatal_hook, print TEXT (held messages) and exit(1). */
_Noreturn void msg_replay_fatal(const char *text, size_t n);

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

#endif
