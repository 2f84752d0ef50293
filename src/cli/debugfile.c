/*
 * debugfile.c - finding a stripped program's debug file.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/debugfile.h"
#include "sym/elfsym.h"
#include "base/util.h"

struct search {
	const char *prog;
	struct elf_peek pk;
	const char *debug;	/* /usr/lib/debug under the test root */
	struct debugfile *d;	/* the places tried, the CRC-32 seen */
};

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
by_debuglink(struct search *s)
{
	char real[PATH_MAX], self[PATH_MAX], rc[PATH_MAX], *slash, *c[3];
	const char *dir = ".", *link = s->pk.link;
	int have_self = realpath(s->prog, self) != NULL;
	uint32_t crc;

	if (link[0] == '\0')
		return NULL;
	snprintf(real, sizeof real, "%s", have_self ? self : s->prog);
	if ((slash = strrchr(real, '/')) != NULL) {
		*slash = '\0';
		dir = real[0] ? real : "/";
	}
	c[0] = xasprintf("%s/%s", dir, link);
	c[1] = xasprintf("%s/.debug/%s", dir, link);
	c[2] = xasprintf("%s%s%s%s", s->debug, dir[0] == '/' ? dir : "/",
	    strcmp(dir, "/") ? "/" : "", link);
	for (size_t i = 0; i < 3; i++)	/* freed with the others */
		s->d->tried[s->d->ntried++] = c[i];
	for (size_t i = 0; i < 3; i++) {
		if (have_self && realpath(c[i], rc) != NULL &&
		    strcmp(rc, self) == 0)
			continue;	/* the program itself */
		if (elf_file_crc32(c[i], &crc) < 0)
			continue;
		if (crc != s->pk.link_crc)
			s->d->crc_bad = 1;
		else if (usable(s, c[i]))
			return c[i];
	}
	return NULL;
}

void
debugfile_resolve(struct debugfile *d, const char *prog, const char *debug)
{
	struct search s = { .prog = prog, .debug = debug, .d = d };
	const char *found = NULL, *how = "build-id";
	char hex[BUILD_ID_HEX], *path;

	*d = (struct debugfile){ .use = prog };
	if (strcmp(prog, "-") == 0 || elf_peek(prog, &s.pk) < 0 || s.pk.symtab)
		return;
	if (s.pk.bid.n >= 2) {
		build_id_hex(&s.pk.bid, hex);
		path = xasprintf("%s/.build-id/%.2s/%s.debug", debug, hex,
		    hex + 2);
		d->tried[d->ntried++] = path;
		found = usable(&s, path) ? path : NULL;
	}
	if (found == NULL) {
		found = by_debuglink(&s);
		how = ".gnu_debuglink, CRC-32 matched";
	}
	d->stripped = found == NULL;
	if (d->stripped)
		return;
	warnx_("%s has no symbol table: using its debug file %s (by its %s)",
	    prog, found, how);
	d->use = found;
}

char *
debugfile_cause(const struct debugfile *d, const char *prog)
{
	char *s = NULL;
	size_t len;
	FILE *f;

	if (d->ntried == 0)
		return xasprintf("%s has no symbol table (stripped), nor a "
		    "build-id or .gnu_debuglink to find its debug file by: only "
		    "its dynamic symbols are known.", prog);
	if ((f = open_memstream(&s, &len)) == NULL)
		fatalx("out of memory");
	fprintf(f, "%s has no symbol table (stripped): only its dynamic "
	    "symbols are known. Its debug file (from the distribution's "
	    "-dbgsym, -dbg or -debuginfo package) was looked for as", prog);
	for (size_t i = 0; i < d->ntried; i++)
		fprintf(f, "%s %s", i ? "," : "", d->tried[i]);
	if (d->crc_bad)
		fputs(" (one there has another CRC-32: not this build's)", f);
	if (fclose(f) != 0)
		fatalx("out of memory");
	return s;
}

void
debugfile_free(struct debugfile *d)
{
	for (size_t i = 0; i < d->ntried; i++)
		free(d->tried[i]);
	d->ntried = 0;
}
