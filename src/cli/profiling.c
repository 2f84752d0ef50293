/*
 * profiling.c - reading and starting the kernel's profiling at run time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/kroot.h"
#include "cli/options.h"
#include "cli/profiling.h"
#include "base/util.h"

/* How to start it, for the hints. */
#define START_HOW "readprofile --enable (or: echo 2 > " SYS_PROFILING ")"
#define MEMORY_NOTE "its counters take 4 bytes of kernel memory for every " \
	"2^N bytes of kernel text (profile=N; with 2, as much memory as the " \
	"kernel's text), until the next boot"

/* Up to N - 1 bytes of PATH, NUL-terminated; the length, or -1. */
static ssize_t
read_small(const char *path, char *buf, size_t n)
{
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	r = read(fd, buf, n - 1);
	e = errno;
	close(fd);
	errno = e;
	if (r < 0)
		return -1;
	buf[r] = '\0';
	return r;
}

/*
 * The mode /sys/kernel/profiling reads (under the test root), or -1 with
 * errno set when it cannot be read (ENOENT: no such file; EINVAL: not a
 * number).
 */
static int
profiling_mode(void)
{
	char buf[32], *end;
	long v;

	if (read_small(kroot_path(SYS_PROFILING), buf, sizeof buf) < 0)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || (*end != '\0' && strcmp(end, "\n") != 0) ||
	    errno == ERANGE || v < 0 || v > 255) {
		errno = EINVAL;
		return -1;
	}
	return (int)v;
}

/* What the counters of MODE count ("CPU ticks", ...), or NULL. */
static const char *
profiling_counts(int mode)
{
	switch (mode) {
	case PROF_CPU:
		return "CPU ticks";
	case PROF_SCHED:
		return "schedule() calls";
	case PROF_SLEEP:
		return "milliseconds of uninterruptible sleep";
	case PROF_KVM:
		return "KVM exits";
	default:
		return NULL;
	}
}

const char *
profiling_counting(int live)
{
	if (!live)
		return NULL;
	return profiling_counts(profiling_mode());
}

void
profiling_info(struct out *out, int live)
{
	const char *what = profiling_counting(live);
	char rel[256], line[512];
	int n;

	if (what != NULL) {
		out_str(out, "Counting: ", 10);
		out_str(out, what, strlen(what));
		out_str(out, "\n", 1);
	}
	switch (kroot_last_counter_is_text(live)) {
	case 1:
		n = snprintf(line, sizeof line, "Last_counter: text (kernel "
		    "%s: from 6.11 ticks outside the text are dropped; "
		    "--exact credits it to its function)\n",
		    kroot_release(rel, sizeof rel));
		break;
	case 0:
		n = snprintf(line, sizeof line, "Last_counter: text and every "
		    "tick outside it (kernel %s: up to 6.10 they are clamped "
		    "into it; *unknown*)\n", kroot_release(rel, sizeof rel));
		break;
	default:
		n = snprintf(line, sizeof line, "Last_counter: unknown (not "
		    "the running kernel's profile: up to 6.10 it also counts "
		    "ticks outside the text, from 6.11 it is text only; "
		    "*unknown*)\n");
		break;
	}
	out_str(out, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n :
	    sizeof line - 1);
}

int
profiling_parse(const char *arg, unsigned *shift, char *canon, size_t n)
{
	static const struct {
		const char *name;
		int mode;
	} kinds[] = {
		{ "schedule", PROF_SCHED }, { "sleep", PROF_SLEEP },
		{ "kvm", PROF_KVM },
	};
	const char *p = arg, *kind = NULL;
	int mode = PROF_CPU, k;
	unsigned long v;

	*shift = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		size_t len = strlen(kinds[i].name);

		if (strncmp(p, kinds[i].name, len) == 0 &&
		    (p[len] == '\0' || p[len] == ',')) {
			mode = kinds[i].mode;
			kind = kinds[i].name;
			p += len;
			if (*p == '\0') {
				snprintf(canon, n, "%s", kind);
				return mode;
			}
			p++;
			break;
		}
	}
	if (!options_number(p, 0, 0))
		return -1;
	errno = 0;
	v = strtoul(p, NULL, 10);
	if (errno == ERANGE || v > 30)
		return -1;
	*shift = (unsigned)v;
	k = snprintf(canon, n, "%s%s%u", kind ? kind : "", kind ? "," : "",
	    *shift);
	return k < 0 || (size_t)k >= n ? -1 : mode;
}

/* The message for a kernel already profiling in MODE. */
static _Noreturn void
already_on(int mode)
{
	const char *what = profiling_counts(mode);

	fatalx("profiling is already on (%s reads %d: counting %s): the "
	    "kernel starts it once per boot, so its mode cannot change until "
	    "the next boot; readprofile reads it as it is", SYS_PROFILING,
	    mode, what ? what : "something this readprofile does not know");
}

/* /proc/profile's step word and the bytes of its counters; -1 if none. */
static int
live_profile(uint32_t *step, long long *bytes)
{
	const char *name = kroot_path(PROC_PROFILE);
	struct stat st = { .st_size = 0 };
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = read(fd, step, sizeof *step);
	if (r != (ssize_t)sizeof *step || fstat(fd, &st) < 0)
		*step = 0;
	close(fd);
	*bytes = (long long)st.st_size - (long long)sizeof *step;
	return 0;
}

void
profiling_enable(const char *arg, int setuid_install, struct out *out)
{
	const char *name = kroot_path(SYS_PROFILING);
	char line[512], canon[32];
	unsigned shift;
	uint32_t step;
	long long bytes;
	int want = profiling_parse(arg, &shift, canon, sizeof canon), mode, fd;
	int n;
	ssize_t r;

	if (want < 0)
		fatalx("--enable=%s: not what the kernel's profile= takes: N, "
		    "schedule[,N], sleep[,N] or kvm[,N], N a decimal number "
		    "from 0 to 30 (each counter covers 2^N bytes of kernel "
		    "text)", arg);
	arg = canon;	/* from here on, as the kernel is to read it */
	if (setuid_install)
		fatalx("--enable is refused by a set-user-ID install: starting "
		    "profiling takes kernel memory until the next boot, so "
		    "only root may do it, running readprofile as root");
	if (getuid() != 0)
		fatalx("--enable needs root: starting profiling takes kernel "
		    "memory until the next boot (as root: readprofile "
		    "--enable=%s, or echo %s > %s)", arg, arg, SYS_PROFILING);
	mode = profiling_mode();
	if (mode < 0 && errno == ENOENT)
		fatalx("%s: %s: this kernel was built without CONFIG_PROFILING "
		    "(or /sys is not mounted), so profiling cannot start "
		    "without a kernel that has it", name, strerror(ENOENT));
	if (mode > 0)
		already_on(mode);
	fd = open(name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fatal("%s", name);
	r = write(fd, arg, strlen(arg));
	if (r < 0 && errno == EEXIST)
		already_on(profiling_mode());
	if (r < 0 || close(fd) < 0)
		fatal("error writing %s", name);
	mode = profiling_mode();
	if (mode <= 0 || live_profile(&step, &bytes) < 0)
		fatalx("the kernel did not start profiling with %s (%s %s%s)%s",
		    arg, SYS_PROFILING, mode < 0 ? "cannot be read" : mode ?
		    "reads non-zero" : "still reads 0", mode > 0 ?
		    ", but there is no " PROC_PROFILE : "", want == PROF_SLEEP ?
		    ": sleep needs a kernel with CONFIG_SCHEDSTATS, and recent "
		    "kernels no longer have it" : "");
	if (step == 0)	/* 64-bit big-endian kernels: not in the word */
		step = 1u << shift;
	n = snprintf(line, sizeof line, "Started: %s\nCounting: %s\n"
	    "Sampling_step: %u\nKernel_memory: %lld bytes, until the next "
	    "boot\n", arg, profiling_counts(mode) ? profiling_counts(mode) :
	    "unknown", step, bytes);
	out_str(out, line, n < 0 ? 0 : (size_t)n);
}

void
profiling_hint(const char *name)
{
	int mode = profiling_mode();

	if (mode < 0)
		return;	/* no such file: kernel.c's hints */
	warnx_("%s: %s", name, strerror(ENOENT));
	if (mode == PROF_OFF)
		fatalx_hint("profiling is off (%s reads 0); start it now, "
		    "as root, with %s: no reboot is needed; it works once per "
		    "boot, and " MEMORY_NOTE, SYS_PROFILING, START_HOW);
	fatalx_hint("%s reads %d (profiling is on%s%s), yet %s is missing: "
	    "is /proc mounted?", SYS_PROFILING, mode, profiling_counts(mode) ?
	    ", counting " : "", profiling_counts(mode) ?
	    profiling_counts(mode) : "", name);
}
