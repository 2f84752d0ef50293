/*
 * kroot.c - the running kernel's files, under the test root, and the
 * rights to open them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/kroot.h"

static uid_t saved_euid;
static int setuid_install;

/*
 * Each path is made once and kept for the whole run: a caller may hold
 * it as long as it likes.  The paths asked for are a few fixed names and
 * those of one kernel's files, so the list stays short.
 */
const char *
kroot_path(const char *path)
{
	static struct made {
		struct made *next;
		char path[];
	} *made;
	const char *root = secure_getenv(KERNEL_ROOT_ENV);
	struct made *p;
	size_t r, n;

	if (root == NULL || setuid_install)
		root = "";
	r = strlen(root);
	n = r + strlen(path) + 1;
	for (p = made; p; p = p->next)	/* the root is the same all run */
		if (strcmp(p->path + r, path) == 0)
			return p->path;
	p = xmalloc(sizeof *p + n);
	snprintf(p->path, n, "%s%s", root, path);
	p->next = made;
	made = p;
	return p->path;
}

void
kroot_drop_privileges(void)
{
	saved_euid = geteuid();
	setuid_install = saved_euid != getuid();
	if (setegid(getgid()) < 0 || seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
}

int
kroot_setuid_install(void)
{
	return setuid_install;
}

void
kroot_drop_privileges_for_good(void)
{
	gid_t g = getgid();
	uid_t u = getuid();

	if (setuid_install &&
	    (setresgid(g, g, g) < 0 || setresuid(u, u, u) < 0))
		fatal("cannot drop privileges");
}

int
kroot_open_installed(const char *name, int flags)
{
	int fd, e;

	if (setuid_install && seteuid(saved_euid) < 0)
		fatal("cannot regain privileges");
	fd = open(name, flags);
	e = errno;
	if (setuid_install && seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
	kroot_drop_privileges_for_good();
	errno = e;
	return fd;
}

const char *
kroot_release(char *buf, size_t n)
{
	struct utsname u;
	const char *f = kroot_path("/proc/sys/kernel/osrelease");
	int fd = secure_getenv(KERNEL_ROOT_ENV) && !setuid_install ?
	    open(f, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t r = -1;

	if (fd >= 0) {
		r = read(fd, buf, n - 1);
		close(fd);
	}
	if (r > 0) {
		buf[r] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
	} else
		snprintf(buf, n, "%s", uname(&u) == 0 ? u.release : "");
	return buf;
}

int
kroot_last_counter_is_text(int live)
{
	char rel[256];
	unsigned maj, min;

	if (!live ||
	    sscanf(kroot_release(rel, sizeof rel), "%u.%u", &maj, &min) != 2)
		return -1;
	return maj > 6 || (maj == 6 && min >= 11);
}

/* FMT with the release R, under the test root if any. */
static const char *
with_release(const char *fmt, const char *r)
{
	char buf[512];

	snprintf(buf, sizeof buf, fmt, r);
	return kroot_path(buf);
}

void
kroot_files(struct kfiles *k)
{
	struct utsname u;
	const char *r = uname(&u) == 0 ? u.release : "unknown";
	static const char *const maps[KFILES_MAPS] = { BOOT_MAP,
	    BOOT_MAP "-%s", "/usr/lib/debug/boot/System.map-%s",
	    "/lib/modules/%s/System.map", "/usr/lib/debug/boot/vmlinux-%s",
	    "/usr/lib/debug/lib/modules/%s/vmlinux", PROC_KALLSYMS };

	k->profile = kroot_path(PROC_PROFILE);
	k->cmdline = kroot_path("/proc/cmdline");
	k->config = with_release("/boot/config-%s", r);
	for (size_t i = 0; i < KFILES_MAPS; i++)
		k->maps[i] = with_release(maps[i], r);
}
