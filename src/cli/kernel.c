/*
 * kernel.c - /proc/profile writes, the default map, build-ids against it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/kernel.h"
#include "cli/profiling.h"
#include "sym/symsrc.h"
#include "base/util.h"

/* The ELF images with symbols that debug packages install (Debian's and
 * Ubuntu's linux-image-*-dbg, Fedora's kernel-debuginfo), tried after the
 * first KFILES_SYSTEM_MAPS places, the System.map files. */
#define DEBUG_PLACES KFILES_SYSTEM_MAPS

/* A word looked for in the kernel's config: KEY's value (kroot_word) in
 * the first of K's configs that can be read, named by FROM; none: FROM
 * lists them all, in NAMES. */
struct cfgword {
	const char *key;
	char val[256];
	const char *from;
	char names[KFILES_CONFIGS * KPATH];
};

/* W's word in K's configs: 1, 0, or -1 when none can be read. */
static int
config_word(const struct kfiles *k, struct cfgword *w)
{
	int r = -1;
	size_t len = 0;

	for (size_t i = 0; i < KFILES_CONFIGS && r < 0; i++) {
		w->from = k->config[i];
		r = kroot_word(k->config[i], w->key, w->val, sizeof w->val);
		if (len < sizeof w->names)
			len += (size_t)snprintf(w->names + len,
			    sizeof w->names - len, "%s%s", i ? ", " : "",
			    k->config[i]);
	}
	if (r < 0)
		w->from = w->names;
	return r;
}

unsigned long
kernel_config_hz(const struct kfiles *k, const char **from)
{
	struct cfgword w = { .key = "CONFIG_HZ=" };
	int r = config_word(k, &w);
	char *end;
	unsigned long hz;

	*from = r < 0 ? NULL : w.from;	/* not W's names, gone on return */
	if (r < 1)
		return 0;
	hz = strtoul(w.val, &end, 10);
	return *end != '\0' || hz > 100000 ? 0 : hz;
}

#define ADD_PROFILE "add profile=2 to the kernel command line (with GRUB: " \
	"to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then run " \
	"update-grub) and reboot"

/* K->profile does not exist: util-linux's line, then what the kernel
 * lacks, as far as /proc/cmdline and the kernel's config tell. */
static _Noreturn void
profile_missing(const struct kfiles *k)
{
	const char *cmdline = k->cmdline, *config;
	struct cfgword w = { .key = "CONFIG_PROFILING=" };
	int cmd, cfg;

	warnx_("%s: %s", k->profile, strerror(ENOENT));
	profiling_hint(k);	/* /sys/kernel/profiling knows better */
	cmd = kroot_word(cmdline, "profile=", w.val, sizeof w.val);
	cfg = config_word(k, &w);
	config = w.from;
	cfg = cfg == 1 ? strcmp(w.val, "y") == 0 : cfg;
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
		    "must have CONFIG_PROFILING=y (none of %s can be read to check): "
		    "%s", cmdline, config, ADD_PROFILE);
	if (cmd == 1 && cfg == 1)
		fatalx_hint("the kernel has CONFIG_PROFILING=y (%s) and profile= "
		    "on its command line (%s): is /proc mounted?", config,
		    cmdline);
	if (cmd == 1)
		fatalx_hint("the kernel was booted with profile= (%s), so it "
		    "lacks CONFIG_PROFILING (none of %s can be read to check)",
		    cmdline, config);
	fatalx_hint("/proc/profile needs a kernel built with "
	    "CONFIG_PROFILING=y and booted with profile=N (for example "
	    "profile=2 on its command line)");
}

void
kernel_write_profile(const struct kfiles *k, const int *multiplier)
{
	int fd = kroot_open_installed(&k->rights, k->profile,
	    O_WRONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 && errno == ENOENT)
		profile_missing(k);
	if (fd < 0)
		fatal("%s", k->profile);
	r = multiplier ? write(fd, multiplier, sizeof *multiplier) :
	    write(fd, "", 1);	/* one zero byte */
	if (r < 0 || close(fd) < 0)
		fatal("error writing %s", k->profile);
	exit(0);
}

void
kernel_profile_check(const struct kfiles *k)
{
	if (access(k->profile, F_OK) < 0 && errno == ENOENT)
		profile_missing(k);
}

/* Debian's and Ubuntu's /boot/System.map-* without the -dbg package:
 * "ffffffffffffffff B The real System.map is in the PKG package". */
#define STUB "The real System.map is in the "

/* A place of the default map chain, and what it holds. */
struct place {
	const char *path;
	int hidden;		/* _stext at 0: kallsyms hiding its addresses */
	int stub;		/* Debian's one-line stub; pkg names the package */
	char pkg[128];
	char why[2 * BUILD_ID_HEX + 64];	/* what the notice says of it */
	struct build_id bid;	/* an ELF map's; n 0: none */
};

/* What the place PL holds; whether it is a map with a non-zero _stext. */
static int
probe(struct place *pl)
{
	struct symsrc m;
	struct sym s;
	int found;

	if (symsrc_open(&m, pl->path) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			snprintf(pl->why, sizeof pl->why, "missing");
		else
			snprintf(pl->why, sizeof pl->why, "unreadable (%s)",
			    strerror(errno));
		return 0;
	}
	found = symsrc_find_stext(&m, &s);
	pl->bid = *symsrc_build_id(&m);
	symsrc_close(&m);
	pl->hidden = found && s.addr == 0;
	if (pl->hidden)
		snprintf(pl->why, sizeof pl->why, "symbol addresses are hidden "
		    "(all zero)");
	else if (!found && (pl->stub = kroot_word(pl->path, STUB, pl->pkg,
	    sizeof pl->pkg) == 1))
		snprintf(pl->why, sizeof pl->why, "a stub; the real map is in "
		    "the %s package", pl->pkg[0] ? pl->pkg : "-dbg");
	else if (!found)
		snprintf(pl->why, sizeof pl->why, "no _stext");
	return found && s.addr != 0;
}

/* Probe K's default map chain into PL up to the first map that will do
 * (not an ELF map of another build than the running kernel): its index,
 * or KFILES_MAPS; *OTHER: the first of another build, or KFILES_MAPS. */
static size_t
first_usable(const struct kfiles *k, struct place *pl, size_t *other)
{
	char a[BUILD_ID_HEX], b[BUILD_ID_HEX];

	memset(pl, 0, KFILES_MAPS * sizeof *pl);
	*other = KFILES_MAPS;
	for (size_t i = 0; i < KFILES_MAPS; i++) {
		pl[i].path = k->maps[i];
		if (!probe(&pl[i]))
			continue;
		if (pl[i].bid.n == 0 || k->id.n == 0 ||
		    build_id_equal(&pl[i].bid, &k->id))
			return i;
		/* another build: used only if nothing else is */
		snprintf(pl[i].why, sizeof pl[i].why, "build-id %s, not the "
		    "running kernel's %s", build_id_hex(&pl[i].bid, a),
		    build_id_hex(&k->id, b));
		if (*other == KFILES_MAPS)
			*other = i;
	}
	return KFILES_MAPS;
}

/* What the notice says of an ELF map's build-id; K: the kernel's. */
static const char *
bid_note(const struct place *pl, const struct build_id *k)
{
	if (pl->bid.n == 0)
		return "it has no build-id to check";
	if (k->n == 0)
		return "its build-id not checked: " SYS_NOTES " gave none";
	return build_id_equal(&pl->bid, k) ?
	    "its build-id matches the running kernel's" :
	    "its build-id is NOT the running kernel's: the report is likely "
	    "wrong";
}

void
kernel_build_id_warn(const struct build_id *map, const char *mapname,
    const struct build_id *k)
{
	char a[BUILD_ID_HEX], b[BUILD_ID_HEX];

	if (map->n == 0 || k == NULL || k->n == 0 || build_id_equal(map, k))
		return;
	warnx_("warning: %s has build-id %s, but the running kernel's is %s "
	    "(%s): wrong map file?", mapname, build_id_hex(map, a),
	    build_id_hex(k, b), SYS_NOTES);
}

const char *
kernel_default_map(const struct kfiles *k, const char *profile, int live,
    int quiet)
{
	struct place pl[KFILES_MAPS];
	const char *stub = NULL;
	size_t n = KFILES_MAPS, other, i = first_usable(k, pl, &other);
	size_t use = i < n ? i : other;

	if (quiet || i < DEBUG_PLACES)
		return use < n ? pl[use].path : NULL;
	if (use < n && i == n - 1)	/* better than nothing, said so */
		warnx_("using %s; no System.map was usable:", pl[use].path);
	else if (use < n)
		warnx_("using %s (%s); %s was usable:", pl[use].path,
		    bid_note(&pl[use], &k->id), i == n ? "nothing else" :
		    "no System.map");
	else
		warnx_("no usable symbol map:");
	for (size_t j = 0; j < i; j++) {	/* none a map to use */
		if (j != use)
			warnx_("  %s: %s", pl[j].path, pl[j].why);
		if (pl[j].stub && stub == NULL)
			stub = pl[j].pkg;
	}
	if (use < n)
		return pl[use].path;
	if (!live)
		fatalx("%s is not this kernel's /proc/profile: pass the map of "
		    "the kernel it came from with -m", profile);
	if (pl[n - 1].hidden)
		fatalx("%s: " SYMSRC_HIDDEN, pl[n - 1].path);
	if (stub && stub[0])
		fatalx("install %s for the real map, or pass one with -m", stub);
	fatalx("pass a map with -m: the kernel's System.map, or a copy of "
	    "/proc/kallsyms made as root");
}
