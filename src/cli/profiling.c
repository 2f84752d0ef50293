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

#include "cli/options.h"
#include "cli/profiling.h"
#include "base/input.h"
#include "hist/profile.h"
#include "base/util.h"

/* The mode K->profiling reads, or -1 with errno set (ENOENT: no such
 * file; EINVAL: not a number). */
static int
profiling_mode(const struct kfiles *k)
{
	char buf[32], *end;
	long v;

	if (kroot_word(k->profiling, "", buf, sizeof buf) < 0)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || *end != '\0' || errno == ERANGE || v < 0 ||
	    v > 255) {
		errno = EINVAL;
		return -1;
	}
	return (int)v;
}

/* What the counters of MODE count ("CPU ticks", ...), or DFLT. */
static const char *
profiling_counts(int mode, const char *dflt)
{
	const struct counted *c = profile_counted(mode);

	return c ? c->what : dflt;
}

const struct counted *
profiling_counting(const struct kfiles *k)
{
	return profile_counted(profiling_mode(k));
}

int
profiling_parse(const char *arg, unsigned *shift, char *canon, size_t n)
{
	static const char *const kinds[] = { [PROF_CPU] = "",
	    [PROF_SCHED] = "schedule", [PROF_SLEEP] = "sleep",
	    [PROF_KVM] = "kvm" };
	size_t len = strcspn(arg, ",");
	const char *p, *kind;
	int mode = PROF_KVM, k;
	unsigned long v;

	/* the kind before the first comma; none: CPU ticks, N alone */
	while (mode > PROF_CPU && (strlen(kinds[mode]) != len ||
	    strncmp(arg, kinds[mode], len) != 0))
		mode--;
	kind = kinds[mode];
	*shift = 0;
	if (*kind && arg[len] == '\0') {	/* the kind alone */
		snprintf(canon, n, "%s", kind);
		return mode;
	}
	p = *kind ? arg + len + 1 : arg;	/* past its comma */
	if (!options_number(p, 0, 0))
		return -1;
	errno = 0;
	v = strtoul(p, NULL, 10);
	if (errno == ERANGE || v > 30)
		return -1;
	*shift = (unsigned)v;
	k = snprintf(canon, n, "%s%s%u", kind, *kind ? "," : "", *shift);
	return k < 0 || (size_t)k >= n ? -1 : mode;
}

static _Noreturn void
already_on(int mode)
{
	char unknown[256];

	snprintf(unknown, sizeof unknown, "something this %s does not know",
	    prog_name());
	fatalx("profiling is already on (%s reads %d: counting %s): the "
	    "kernel starts it once per boot, so its mode cannot change until "
	    "the next boot; %s reads it as it is", SYS_PROFILING, mode,
	    profiling_counts(mode, unknown), prog_name());
}

void
profiling_enable(const struct kfiles *k, const char *arg, struct out *out)
{
	const char *name = k->profiling;
	char canon[32];
	unsigned shift;
	uint32_t step;
	struct stat st = { .st_size = 0 };
	int want = profiling_parse(arg, &shift, canon, sizeof canon), mode, fd;
	ssize_t r;

	if (want < 0)
		fatalx("--enable=%s: not what the kernel's profile= takes: N, "
		    "schedule[,N], sleep[,N] or kvm[,N], N a decimal number "
		    "from 0 to 30 (each counter covers 2^N bytes of kernel "
		    "text)", arg);
	arg = canon;	/* from here on, as the kernel is to read it */
	if (k->rights.setuid)
		fatalx("--enable is refused by a set-user-ID install: starting "
		    "profiling takes kernel memory until the next boot, so "
		    "only root may do it, running %s as root", prog_name());
	if (getuid() != 0)
		fatalx("--enable needs root: starting profiling takes kernel "
		    "memory until the next boot (as root: %s --enable=%s, or "
		    "echo %s > %s)", prog_name(), arg, arg, SYS_PROFILING);
	mode = profiling_mode(k);
	if (mode < 0 && errno == ENOENT)
		fatalx("%s: %s: this kernel was built without CONFIG_PROFILING "
		    "(or /sys is not mounted), so profiling cannot start "
		    "without a kernel that has it", name, strerror(ENOENT));
	if (mode > 0)
		already_on(mode);
	if ((fd = open(name, O_WRONLY | O_CLOEXEC)) < 0)
		fatal("%s", name);
	r = write(fd, arg, strlen(arg));
	if (r < 0 && errno == EEXIST)
		already_on(profiling_mode(k));
	if (r < 0 || close(fd) < 0)
		fatal("error writing %s", name);
	mode = profiling_mode(k);
	if ((fd = mode > 0 ? open(k->profile, O_RDONLY | O_CLOEXEC) : -1) < 0)
		fatalx("the kernel did not start profiling with %s (%s %s%s)%s",
		    arg, SYS_PROFILING, mode < 0 ? "cannot be read" : mode ?
		    "reads non-zero" : "still reads 0", mode > 0 ?
		    ", but there is no " PROC_PROFILE : "", want == PROF_SLEEP ?
		    ": profile=sleep was removed in Linux 6.11, and in the "
		    "stable trees too, so recent kernels do not count sleep" :
		    "");
	/* its step word, and the bytes of its counters */
	if (read_full(fd, &step, sizeof step, -1) != (ssize_t)sizeof step ||
	    fstat(fd, &st) < 0)
		step = 0;
	close(fd);
	if (step == 0)	/* 64-bit big-endian kernels: not in the word */
		step = 1u << shift;
	out_printf(out, "Started: %s\nCounting: %s\nSampling_step: %u\n"
	    "Kernel_memory: %lld bytes, until the next boot\n", arg,
	    profiling_counts(mode, "unknown"), step,
	    (long long)st.st_size - (long long)sizeof step);
}

void
profiling_hint(const struct kfiles *k)
{
	int mode = profiling_mode(k);
	const char *what = profiling_counts(mode, NULL);

	if (mode < 0)
		return;	/* no such file: kernel.c's hints */
	if (mode == PROF_OFF)
		fatalx_hint("profiling is off (%s reads 0); start it now, as "
		    "root, with %s --enable (or: echo 2 > %s): no "
		    "reboot is needed; it works once per boot, and its counters "
		    "take 4 bytes of kernel memory for every 2^N bytes of "
		    "kernel text (profile=N; with 2, as much memory as the "
		    "kernel's text), until the next boot", SYS_PROFILING,
		    prog_name(), SYS_PROFILING);
	fatalx_hint("%s reads %d (profiling is on%s%s), yet %s is missing: "
	    "is /proc mounted?", SYS_PROFILING, mode, what ? ", counting " : "",
	    what ? what : "", k->profile);
}
