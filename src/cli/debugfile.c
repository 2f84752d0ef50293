/*
 * debugfile.c - finding a stripped program's debug file.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/debugfile.h"
#include "cli/kroot.h"
#include "sym/elfpeek.h"
#include "base/util.h"

#define DEBUG_DIR "/usr/lib/debug"

struct search {
	const char *prog;
	struct elf_peek pk;
	struct debugfile *d;	/* the places tried, the CRC-32 seen */
};

static char *
joined(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s%s", a, b, c);
	return s;
}

/* Whether PATH is a debug file with symbols for the program (its
 * build-id, when both have one, the same). */
static int
usable(const struct search *s, const char *path)
{
	struct elf_peek d;

	if (elf_peek(path, &d) < 0 || !d.symtab)
		return 0;
	return s->pk.bid.n == 0 || d.bid.n == 0 ||
	    build_id_equal(&s->pk.bid, &d.bid);
}

static const char *
by_build_id(struct search *s)
{
	char hex[BUILD_ID_HEX], two[3];
	char *dir, *path;

	if (s->pk.bid.n < 2)
		return NULL;
	build_id_hex(&s->pk.bid, hex);
	memcpy(two, hex, 2);
	two[2] = '\0';
	dir = joined(kroot_path(DEBUG_DIR "/.build-id/"), two, "/");
	path = joined(dir, hex + 2, ".debug");
	free(dir);
	s->d->tried[s->d->ntried++] = path;
	return usable(s, path) ? path : NULL;
}

static const char *
by_debuglink(struct search *s)
{
	char real[PATH_MAX], *slash;
	const char *dir;
	char *c[3], *tmp;

	if (s->pk.link[0] == '\0')
		return NULL;
	if (realpath(s->prog, real) == NULL)
		snprintf(real, sizeof real, "%s", s->prog);
	slash = strrchr(real, '/');
	if (slash == NULL)
		dir = ".";
	else {
		*slash = '\0';
		dir = real[0] ? real : "/";
	}
	c[0] = joined(dir, "/", s->pk.link);
	c[1] = joined(dir, "/.debug/", s->pk.link);
	c[2] = joined(kroot_path(DEBUG_DIR), dir[0] == '/' ? dir : "/",
	    strcmp(dir, "/") ? "/" : "");
	tmp = c[2];
	c[2] = joined(tmp, s->pk.link, "");
	free(tmp);
	for (size_t i = 0; i < 3; i++)	/* freed with the others */
		s->d->tried[s->d->ntried++] = c[i];
	for (size_t i = 0; i < 3; i++) {
		uint32_t crc;
		char rc[PATH_MAX];

		if (realpath(c[i], rc) != NULL && realpath(s->prog, real) &&
		    strcmp(rc, real) == 0)
			continue;	/* the program itself */
		if (elf_file_crc32(c[i], &crc) < 0)
			continue;
		if (crc != s->pk.link_crc) {
			s->d->crc_bad = 1;
			continue;
		}
		if (usable(s, c[i]))
			return c[i];
	}
	return NULL;
}

void
debugfile_resolve(struct debugfile *d, const char *prog)
{
	struct search s;
	const char *found;

	memset(d, 0, sizeof *d);
	memset(&s, 0, sizeof s);
	s.prog = prog;
	s.d = d;
	d->use = prog;
	if (strcmp(prog, "-") == 0 || elf_peek(prog, &s.pk) < 0 || s.pk.symtab)
		return;
	if ((found = by_build_id(&s)) != NULL) {
		warnx_("%s has no symbol table: using its debug file %s (by "
		    "its build-id)", prog, found);
		d->use = found;
		return;
	}
	if ((found = by_debuglink(&s)) != NULL) {
		warnx_("%s has no symbol table: using its debug file %s (by "
		    "its .gnu_debuglink, CRC-32 matched)", prog, found);
		d->use = found;
		return;
	}
	d->stripped = 1;
	d->no_id = d->ntried == 0;
}

char *
debugfile_cause(const struct debugfile *d, const char *prog)
{
	size_t len = strlen(prog) + 256;
	char *s;
	int n;

	for (size_t i = 0; i < d->ntried; i++)
		len += strlen(d->tried[i]) + 2;
	s = xmalloc(len);
	if (d->no_id) {
		snprintf(s, len, "%s has no symbol table (stripped), nor a "
		    "build-id or .gnu_debuglink to find its debug file by: only "
		    "its dynamic symbols are known.", prog);
		return s;
	}
	n = snprintf(s, len, "%s has no symbol table (stripped): only its "
	    "dynamic symbols are known. Its debug file (from the "
	    "distribution's -dbgsym, -dbg or -debuginfo package) was looked "
	    "for as", prog);
	for (size_t i = 0; i < d->ntried && n > 0 && (size_t)n < len; i++)
		n += snprintf(s + n, len - (size_t)n, "%s %s", i ? "," : "",
		    d->tried[i]);
	if (n > 0 && (size_t)n < len && d->crc_bad)
		snprintf(s + n, len - (size_t)n, " (one there has another "
		    "CRC-32: not this build's)");
	return s;
}

void
debugfile_free(struct debugfile *d)
{
	for (size_t i = 0; i < d->ntried; i++)
		free(d->tried[i]);
	d->ntried = 0;
}
