/*
 * kernel.c - privileges, /proc/profile writes, the default map.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel.h"
#include "symsrc.h"
#include "util.h"

static uid_t saved_euid;
static int setuid_install;

const char *
kernel_path(const char *path)
{
	const char *root = secure_getenv(KERNEL_ROOT_ENV);
	char *p;
	size_t n;

	if (root == NULL || *root == '\0' || setuid_install)
		return path;
	n = strlen(root) + strlen(path) + 1;
	p = xmalloc(n);
	snprintf(p, n, "%s%s", root, path);
	return p;
}

void
kernel_drop_privileges(void)
{
	saved_euid = geteuid();
	setuid_install = saved_euid != getuid();
	if (setegid(getgid()) < 0 || seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
}

void
kernel_drop_privileges_for_good(void)
{
	gid_t g = getgid();
	uid_t u = getuid();

	if (setuid_install &&
	    (setresgid(g, g, g) < 0 || setresuid(u, u, u) < 0))
		fatal("cannot drop privileges");
}

void
kernel_write_profile(const int *multiplier)
{
	int fd, e;
	ssize_t r;
	char byte = 0;

	if (setuid_install && seteuid(saved_euid) < 0)
		fatal("cannot regain privileges");
	fd = open(PROC_PROFILE, O_WRONLY | O_CLOEXEC);
	e = errno;
	if (setuid_install && seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
	kernel_drop_privileges_for_good();
	errno = e;
	if (fd < 0)
		fatal("%s", PROC_PROFILE);
	if (multiplier)
		r = write(fd, multiplier, sizeof *multiplier);
	else
		r = write(fd, &byte, 1);
	if (r < 0 || close(fd) < 0)
		fatal("error writing %s", PROC_PROFILE);
	exit(0);
}

/*
 * Whether NAME can be used as the map: 1 when it holds a non-zero _stext,
 * 0 when it opens but does not (*hidden: its _stext reads as 0, as
 * /proc/kallsyms does when addresses are hidden), -1 with errno set when
 * it cannot be opened.
 */
static int
probe_map(const char *name, int *hidden)
{
	struct symsrc m;
	struct sym s;
	int found;

	*hidden = 0;
	if (symsrc_open(&m, name) < 0)
		return -1;
	found = symsrc_find_stext(&m, &s);
	symsrc_close(&m);
	*hidden = found && s.addr == 0;
	return found && s.addr != 0;
}

const char *
kernel_default_map(void)
{
	static char versioned[sizeof BOOT_MAP +
	    sizeof(((struct utsname *)0)->release) + 1];
	const char *cand[2] = { BOOT_MAP, NULL }, *last = BOOT_MAP;
	const char *kallsyms = kernel_path(PROC_KALLSYMS);
	struct utsname u;
	int r = -1, e = ENOENT, hidden;

	if (uname(&u) == 0) {
		snprintf(versioned, sizeof versioned, "%s-%s", BOOT_MAP,
		    u.release);
		cand[1] = kernel_path(versioned);
	}
	cand[0] = last = kernel_path(BOOT_MAP);
	for (int i = 0; i < 2 && cand[i] != NULL; i++) {
		last = cand[i];
		r = probe_map(last, &hidden);
		if (r > 0)
			return last;
		e = errno;
	}
	if (probe_map(kallsyms, &hidden) > 0) {
		warnx_("using %s: no _stext in %s or %s", kallsyms,
		    cand[0], last);
		return kallsyms;
	}
	if (hidden)
		fatalx("%s: symbol addresses are hidden (all zero, "
		    "kernel.kptr_restrict); run as root, or allow them with: "
		    "sysctl kernel.kptr_restrict=0 kernel.perf_event_paranoid=1",
		    kallsyms);
	if (r == 0)
		fatalx("can't find \"_stext\" in %s", last);
	errno = e;
	fatal("%s", last);
}
