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

#include "base/input.h"
#include "cli/buildid.h"
#include "cli/kernel.h"
#include "cli/kroot.h"
#include "cli/profiling.h"
#include "sym/symsrc.h"
#include "base/util.h"

static _Noreturn void profile_missing(const struct kfiles *k);

/* The ELF images with symbols that debug packages install (Debian's and
 * Ubuntu's linux-image-*-dbg, Fedora's kernel-debuginfo), tried after the
 * first DEBUG_PLACES places, the System.map files. */
#define DEBUG_PLACES 4

void
kernel_write_profile(const struct kfiles *k, const int *multiplier)
{
	int fd, e;
	ssize_t r;
	char byte = 0;
	const char *name = k->profile;

	fd = kroot_open_installed(name, O_WRONLY | O_CLOEXEC);
	e = errno;
	if (fd < 0 && e == ENOENT)
		profile_missing(k);
	if (fd < 0)
		fatal("%s", name);
	if (multiplier)
		r = write(fd, multiplier, sizeof *multiplier);
	else
		r = write(fd, &byte, 1);
	if (r < 0 || close(fd) < 0)
		fatal("error writing %s", name);
	exit(0);
}

/* Whether /proc/cmdline has a profile= word: 1, 0, or -1 unreadable. */
static int
cmdline_has_profile(const char *path)
{
	char buf[4096], *w;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	r = read_full(fd, buf, sizeof buf - 1, -1);
	close(fd);
	if (r < 0)
		return -1;
	buf[r] = '\0';
	for (w = buf; *w; w += strcspn(w, " \t\n")) {
		w += strspn(w, " \t\n");
		if (strncmp(w, "profile=", 8) == 0)
			return 1;
	}
	return 0;
}

/* Whether the kernel's config has CONFIG_PROFILING=y: 1, 0, -1 unknown. */
static int
config_has_profiling(const char *path)
{
	char line[256];
	int r = 0;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	while (r == 0 && fgets(line, sizeof line, f) != NULL)
		if (strcmp(line, "CONFIG_PROFILING=y\n") == 0)
			r = 1;
	fclose(f);
	return r;
}

unsigned long
kernel_config_hz(const struct kfiles *k)
{
	char line[256], *end;
	unsigned long hz = 0;
	FILE *f;

	if ((f = fopen(k->config, "re")) == NULL)
		return 0;
	while (hz == 0 && fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "CONFIG_HZ=", 10) == 0) {
			hz = strtoul(line + 10, &end, 10);
			if (*end != '\n' || hz > 100000)
				hz = 0;
		}
	fclose(f);
	return hz;
}

/*
 * NAME, the kernel's profile, does not exist: util-linux's line, then
 * what the kernel lacks, as far as /proc/cmdline and /boot/config-R tell.
 */
#define ADD_PROFILE "add profile=2 to the kernel command line (with GRUB: " \
	"to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run " \
	"update-grub) and reboot"

static _Noreturn void
profile_missing(const struct kfiles *k)
{
	const char *name = k->profile, *cmdline = k->cmdline;
	const char *config = k->config;
	int cmd, cfg;

	profiling_hint(name);	/* /sys/kernel/profiling knows better */
	cmd = cmdline_has_profile(cmdline);
	cfg = config_has_profiling(config);
	warnx_("%s: %s", name, strerror(ENOENT));
	if (cfg == 0)
		fatalx_hint("this kernel was built without CONFIG_PROFILING "
		    "(%s): /proc/profile needs a kernel built with it and booted "
		    "with profile=N", config);
	if (cmd == 0 && cfg == 1)
		fatalx_hint("the kernel has CONFIG_PROFILING=y (%s) but was "
		    "booted without profile=N (%s): %s", config, cmdline,
		    ADD_PROFILE);
	if (cmd == 0)
		fatalx_hint("the kernel was booted without profile=N (%s), and "
		    "must have CONFIG_PROFILING=y (%s cannot be read to check): "
		    "%s", cmdline, config, ADD_PROFILE);
	if (cmd == 1 && cfg == 1)
		fatalx_hint("the kernel has CONFIG_PROFILING=y (%s) and profile= "
		    "on its command line (%s): is /proc mounted?", config,
		    cmdline);
	if (cmd == 1)
		fatalx_hint("the kernel was booted with profile= (%s), so it "
		    "lacks CONFIG_PROFILING (%s cannot be read to check)",
		    cmdline, config);
	fatalx_hint("/proc/profile needs a kernel built with "
	    "CONFIG_PROFILING=y and booted with profile=N (for example "
	    "profile=2 on its command line)");
}

void
kernel_profile_check(const struct kfiles *k)
{
	if (access(k->profile, F_OK) < 0 && errno == ENOENT)
		profile_missing(k);
}

/* What a place of the default map chain holds. */
enum found {
	FOUND_MAP,		/* a map with a non-zero _stext */
	FOUND_MISSING,
	FOUND_UNREADABLE,	/* err says why */
	FOUND_STUB,		/* Debian's one-line stub; pkg names the package */
	FOUND_NO_STEXT,
	FOUND_HIDDEN,		/* _stext at 0: kallsyms hiding its addresses */
	FOUND_OTHER_BUILD,	/* an ELF map of another build than this kernel */
};

struct place {
	const char *path;
	enum found what;
	int err;
	char pkg[128];
	struct build_id bid;	/* an ELF map's; n 0: none */
};

#define MAX_PLACES KFILES_MAPS

/*
 * Debian's and Ubuntu's /boot/System.map-* without the -dbg package is one
 * line, "ffffffffffffffff B The real System.map is in the PKG package":
 * copy PKG.  Returns 0 for anything else.
 */
static int
read_stub(const char *path, char *pkg, size_t n)
{
	static const char mark[] = "The real System.map is in the ";
	char buf[512], *p;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	r = read_full(fd, buf, sizeof buf - 1, -1);
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	if ((p = strstr(buf, mark)) == NULL)
		return 0;
	p += sizeof mark - 1;
	snprintf(pkg, n, "%.*s", (int)strcspn(p, " \n"), p);
	return 1;
}

static void
probe(struct place *pl)
{
	struct symsrc m;
	struct sym s;
	int found;

	if (symsrc_open(&m, pl->path) < 0) {
		pl->err = errno;
		pl->what = errno == ENOENT || errno == ENOTDIR ? FOUND_MISSING :
		    FOUND_UNREADABLE;
		return;
	}
	found = symsrc_find_stext(&m, &s);
	pl->bid = *symsrc_build_id(&m);
	symsrc_close(&m);
	if (found)
		pl->what = s.addr != 0 ? FOUND_MAP : FOUND_HIDDEN;
	else
		pl->what = read_stub(pl->path, pl->pkg, sizeof pl->pkg) ?
		    FOUND_STUB : FOUND_NO_STEXT;
}

static void
tell(const struct place *pl)
{
	char a[BUILD_ID_HEX], b[BUILD_ID_HEX];

	switch (pl->what) {
	case FOUND_MISSING:
		warnx_("  %s: missing", pl->path);
		break;
	case FOUND_UNREADABLE:
		warnx_("  %s: unreadable (%s)", pl->path, strerror(pl->err));
		break;
	case FOUND_STUB:
		warnx_("  %s: a stub; the real map is in the %s package",
		    pl->path, pl->pkg[0] ? pl->pkg : "-dbg");
		break;
	case FOUND_NO_STEXT:
		warnx_("  %s: no _stext", pl->path);
		break;
	case FOUND_HIDDEN:
		warnx_("  %s: symbol addresses are hidden (all zero)", pl->path);
		break;
	case FOUND_OTHER_BUILD:
		warnx_("  %s: build-id %s, not the running kernel's %s",
		    pl->path, build_id_hex(&pl->bid, a), build_id_hex(
		    kernel_build_id(), b));
		break;
	case FOUND_MAP:
		break;
	}
}

/* The places of the default map chain, in order; returns how many. */
static size_t
default_places(const struct kfiles *k, struct place *pl)
{
	memset(pl, 0, MAX_PLACES * sizeof *pl);
	for (size_t i = 0; i < KFILES_MAPS; i++)
		pl[i].path = k->maps[i];
	return KFILES_MAPS;
}

/*
 * Probe the N places of PL in order up to the first map that will do (an
 * ELF map of another build than the running kernel will not); its index,
 * or N.  *OTHER: the first of another build, or N.
 */
static size_t
first_usable(struct place *pl, size_t n, size_t *other)
{
	const struct build_id *k = kernel_build_id();

	*other = n;
	for (size_t i = 0; i < n; i++) {
		probe(&pl[i]);
		if (pl[i].what != FOUND_MAP)
			continue;
		if (pl[i].bid.n == 0 || k->n == 0 || build_id_equal(&pl[i].bid, k))
			return i;
		pl[i].what = FOUND_OTHER_BUILD;
		if (*other == n)
			*other = i;
	}
	return n;
}

const char *
kernel_default_map_quiet(const struct kfiles *k)
{
	struct place pl[MAX_PLACES];
	size_t other, n = default_places(k, pl), i = first_usable(pl, n, &other);

	return i < n ? pl[i].path : other < n ? pl[other].path : NULL;
}

/* What the notice says of an ELF map's build-id. */
static const char *
bid_note(const struct place *pl)
{
	if (pl->bid.n == 0)
		return "it has no build-id to check";
	if (kernel_build_id()->n == 0)
		return "its build-id not checked: " SYS_NOTES " gave none";
	return build_id_equal(&pl->bid, kernel_build_id()) ?
	    "its build-id matches the running kernel's" :
	    "its build-id is NOT the running kernel's: the report is likely "
	    "wrong";
}

const char *
kernel_default_map(const struct kfiles *k, const char *profile, int live)
{
	struct place pl[MAX_PLACES];
	const char *stub = NULL;
	size_t n = default_places(k, pl), i, j, other;

	i = first_usable(pl, n, &other);
	for (j = 0; j < i && j < n; j++)
		if (pl[j].what == FOUND_STUB && stub == NULL)
			stub = pl[j].pkg;
	if (i < DEBUG_PLACES)
		return pl[i].path;
	if (i == n && other < n) {	/* better than nothing, said so */
		warnx_("using %s (%s); nothing else was usable:",
		    pl[other].path, bid_note(&pl[other]));
		for (j = 0; j < n; j++)
			if (j != other)
				tell(&pl[j]);
		return pl[other].path;
	}
	if (i < n - 1) {
		warnx_("using %s (%s); no System.map was usable:", pl[i].path,
		    bid_note(&pl[i]));
		for (j = 0; j < i; j++)
			tell(&pl[j]);
		return pl[i].path;
	}
	if (i == n - 1) {
		warnx_("using %s; no System.map was usable:", pl[i].path);
		for (i = 0; i < n - 1; i++)
			tell(&pl[i]);
		return pl[n - 1].path;
	}
	warnx_("no usable symbol map:");
	for (i = 0; i < n; i++)
		tell(&pl[i]);
	if (!live)
		fatalx("%s is not this kernel's /proc/profile: pass the map of "
		    "the kernel it came from with -m", profile);
	if (pl[n - 1].what == FOUND_HIDDEN)
		fatalx("%s: symbol addresses are hidden (all zero, "
		    "kernel.kptr_restrict); run as root, or allow them with: "
		    "sysctl kernel.kptr_restrict=0 kernel.perf_event_paranoid=1",
		    pl[n - 1].path);
	if (stub && stub[0])
		fatalx("install %s for the real map, or pass one with -m", stub);
	fatalx("pass a map with -m: the kernel's System.map, or a copy of "
	    "/proc/kallsyms made as root");
}
