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

#include "base/input.h"
#include "base/util.h"
#include "cli/kroot.h"

/* PATH under K's test root if there is one, into BUF (KPATH bytes);
 * returns BUF.  Fatal when it does not fit. */
static char *
kroot_path(const struct kfiles *k, char *buf, const char *path)
{
	const char *root = secure_getenv(KERNEL_ROOT_ENV);

	if (snprintf(buf, KPATH, "%s%s", root && !k->rights.setuid ? root :
	    "", path) >= KPATH)
		fatalx("%s: too long under %s", path, KERNEL_ROOT_ENV);
	return buf;
}

/* PATH opened for reading lines, through its decompressor if it is
 * compressed (IN holds it, to close once F is); NULL with errno set. */
static FILE *
kroot_fopen(const char *path, struct input *in)
{
	FILE *f;

	in->child = -1;
	in->errfd = -1;
	in->fd = -1;
	if (input_tool(path) == NULL)
		return fopen(path, "re");
	if (input_open(in, path) < 0)
		return NULL;
	if ((f = fdopen(in->fd, "r")) != NULL)
		in->fd = -1;	/* F's now */
	else
		input_close(in);
	return f;
}

int
kroot_word(const char *path, const char *key, char *val, size_t n)
{
	static const char blank[] = " \t\n";
	struct input in;
	FILE *f = kroot_fopen(path, &in);
	char *line = NULL, *w = NULL;
	size_t cap = 0, len = strlen(key);
	int found = 0;

	if (f == NULL)
		return -1;
	while (!found && getline(&line, &cap, f) > 0) {
		w = line + strspn(line, blank);
		while (*w && !(found = strncmp(w, key, len) == 0)) {
			w += strcspn(w, blank);
			w += strspn(w, blank);
		}
	}
	w = found ? w + len : "";
	snprintf(val, n, "%.*s", (int)strcspn(w, blank), w);
	free(line);
	fclose(f);
	input_close(&in);	/* a decompressor stopped, if not at its end */
	return found;
}

void
kroot_drop_privileges(struct rights *rt)
{
	rt->euid = geteuid();
	rt->setuid = rt->euid != getuid();
	if (setegid(getgid()) < 0 || seteuid(getuid()) < 0)
		fatal("cannot drop privileges");
}

void
kroot_drop_privileges_for_good(const struct rights *rt)
{
	gid_t g = getgid();
	uid_t u = getuid();

	if (rt->setuid &&
	    (setresgid(g, g, g) < 0 || setresuid(u, u, u) < 0))
		fatal("cannot drop privileges");
}

int
kroot_open_installed(const struct rights *rt, const char *name, int flags)
{
	int fd, e;

	if (rt->setuid && seteuid(rt->euid) < 0)
		fatal("cannot regain privileges");
	fd = open(name, flags);
	e = errno;
	kroot_drop_privileges_for_good(rt);	/* from the regained rights too */
	errno = e;
	return fd;
}

int
kroot_last_counter_is_text(const struct kfiles *k, int live)
{
	unsigned maj, min;

	if (!live || sscanf(k->release, "%u.%u", &maj, &min) != 2)
		return -1;
	return maj > 6 || (maj == 6 && min >= 11);
}

void
kroot_files(struct kfiles *k, const struct rights *rt)
{
	struct utsname u;
	const char *r = uname(&u) == 0 ? u.release : "unknown";
	static const char *const maps[KFILES_MAPS] = { "/boot/System.map",
	    "/boot/System.map-%s", "/usr/lib/debug/boot/System.map-%s",
	    "/usr/lib/modules/%s/System.map", "/lib/modules/%s/System.map",
	    "/usr/lib/debug/boot/vmlinux-%s",
	    "/usr/lib/debug/usr/lib/modules/%s/vmlinux",
	    "/usr/lib/debug/lib/modules/%s/vmlinux", "/proc/kallsyms" };
	static const char *const configs[KFILES_CONFIGS] = {
	    "/boot/config-%s", "/usr/lib/modules/%s/config",
	    "/lib/modules/%s/config", "/proc/config.gz" };
	char buf[KPATH];

	k->rights = *rt;
	kroot_path(k, k->profile, PROC_PROFILE);
	kroot_path(k, k->cmdline, "/proc/cmdline");
	kroot_path(k, k->profiling, SYS_PROFILING);
	kroot_path(k, k->debug, "/usr/lib/debug");
	/* the release the test root says, else the real one: it names the
	 * kernel's files */
	if (secure_getenv(KERNEL_ROOT_ENV) == NULL || k->rights.setuid ||
	    kroot_word(kroot_path(k, buf, "/proc/sys/kernel/osrelease"), "",
	    k->release, sizeof k->release) < 1)
		snprintf(k->release, sizeof k->release, "%s", r);
	for (size_t i = 0; i < KFILES_CONFIGS; i++) {
		snprintf(buf, sizeof buf, configs[i], k->release);
		kroot_path(k, k->config[i], buf);
	}
	for (size_t i = 0; i < KFILES_MAPS; i++) {
		snprintf(buf, sizeof buf, maps[i], k->release);
		kroot_path(k, k->maps[i], buf);
	}
	notes_file_build_id(kroot_path(k, buf, SYS_NOTES), &k->id);
}
