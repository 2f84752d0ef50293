/*
 * model.c - an independent model of `readprofile --exact`.
 *
 *   model [-a] [-v] [-s] [-b] PROFILE MAP
 *
 * Written from the definition of the kernel's mapping, not from the
 * program's sources.  A profile is words w[0..n-1]: w[0] is the sampling
 * step, word k (1 <= k < n-1) counts the ticks of the bucket
 * [_stext + (k-1)*step, _stext + k*step), and the last word is *unknown*.
 * Each bucket goes to the symbol whose [start, next start) contains the
 * bucket's first address, found by binary search over the report's symbols.
 *
 * The report's symbols are the map lines the classic report reads: from
 * _stext (or __stext) on, up to and including _etext (or __etext); a line
 * of type A or ? is skipped while no tick has been credited yet, and
 * always when named __init_end; otherwise it ends the list, as does any
 * other type than T, t, W, w.  "Credited yet" uses the exact figures,
 * so it is worked out while the list is built, by walking the buckets in
 * address order.
 *
 * Output: the classic formats.  Exit 0 with the report; exit 2 with
 * "model: unsupported: WHY" for inputs outside the model (step 0,
 * unreadable lines, ...), which the driver skips.  Exit 4 when a symbol
 * lies beyond the profile, 5 when addresses go down (below _stext too):
 * both are errors of the program.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct symbol {
	unsigned long long addr;
	char *name;
};

static uint32_t *w;
static unsigned long long nw;
static struct symbol *syms;
static size_t nsyms, capsyms;

static void
unsupported(const char *fmt, ...)
{
	va_list ap;

	fputs("model: unsupported: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *
xalloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL) {
		fputs("model: out of memory\n", stderr);
		exit(3);
	}
	return p;
}

static uint32_t
swap32(uint32_t x)
{
	return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) |
	    (x << 24);
}

static void
read_profile(const char *name)
{
	FILE *f = fopen(name, "rb");
	size_t cap = 1 << 16, len = 0, got;
	unsigned char *buf = NULL;
	unsigned long long big = 0, small = 0;

	if (f == NULL) {
		perror(name);
		exit(3);
	}
	buf = xalloc(buf, cap);
	while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			cap *= 2;
			buf = xalloc(buf, cap);
		}
	}
	fclose(f);
	if (len < 8)
		unsupported("profile of %zu bytes", len);
	len -= len % 4;		/* a trailing partial word is left out */
	nw = len / 4;
	w = xalloc(NULL, len);
	memcpy(w, buf, len);
	free(buf);
	/* Byte order: more words using the upper half than the lower one. */
	for (unsigned long long k = 1; k < nw; k++) {
		if (w[k] >> 16)
			big++;
		if (w[k] & 0xffff)
			small++;
	}
	if (big > small)
		for (unsigned long long k = 0; k < nw; k++)
			w[k] = swap32(w[k]);
	if (w[0] == 0)
		unsupported("step 0");
}

/* Split a line into address, type character, name; 0 when it has not 3. */
static int
split(char *line, unsigned long long *addr, char *type, char **name)
{
	char *p = line, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
	    (*p >= 'A' && *p <= 'F')))
		return 0;
	*addr = strtoull(p, &end, 16);
	p = end;
	if (*p != ' ' && *p != '\t')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return 0;
	*type = *p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return 0;
	*name = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	*p = '\0';
	return 1;
}

static int
is(const char *name, const char *a, const char *b)
{
	return strcmp(name, a) == 0 || strcmp(name, b) == 0;
}

static void
add(unsigned long long addr, const char *name)
{
	if (nsyms == capsyms) {
		capsyms = capsyms ? capsyms * 2 : 1024;
		syms = xalloc(syms, capsyms * sizeof *syms);
	}
	syms[nsyms].addr = addr;
	syms[nsyms].name = xalloc(NULL, strlen(name) + 1);
	strcpy(syms[nsyms].name, name);
	nsyms++;
}

/*
 * Build the symbol list.  The running exact total: every bucket whose
 * first address is below the pending (last added) symbol's address.
 */
static void
read_map(const char *mapname)
{
	FILE *f = fopen(mapname, "r");
	static char line[1 << 21];
	unsigned long long addr, stext = 0, step = w[0];
	unsigned long long walked = 1, total = 0;
	char type, *name;
	int started = 0;

	if (f == NULL) {
		perror(mapname);
		exit(3);
	}
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (!feof(f))
			unsupported("long line");
		if (memchr(line, '\r', n) || !split(line, &addr, &type, &name))
			unsupported("map line '%s'", line);
		if (!started) {
			if (!is(name, "_stext", "__stext"))
				continue;
			if (addr == 0)
				unsupported("_stext at 0");
			stext = addr;
			started = 1;
			add(addr, name);
			continue;
		}
		if (!is(name, "_etext", "__etext")) {
			if (type == 'A' || type == '?') {
				/* Credit the buckets below the pending symbol. */
				unsigned long long upto =
				    syms[nsyms - 1].addr - stext;
				while (walked < nw - 1 &&
				    (walked - 1) * step < upto)
					total += w[walked++];
				if (total == 0 || strcmp(name, "__init_end") == 0)
					continue;
				break;	/* not a text symbol: the end */
			} else if (!strchr("TtWw", type)) {
				break;
			}
		}
		if (addr < syms[nsyms - 1].addr) {
			fprintf(stderr, "model: %s: address goes backwards\n",
			    name);
			exit(5);
		}
		add(addr, name);
		if (is(name, "_etext", "__etext"))
			break;
	}
	fclose(f);
	if (!started)
		unsupported("no _stext");
	/*
	 * The text holds nw - 1 whole buckets and maybe part of one more (its
	 * ticks are in the last word).  A symbol starting after that lies
	 * beyond the profile: the program must refuse the map (exit 4 here).
	 */
	for (size_t i = 0; i + 1 < nsyms; i++)
		if ((syms[i].addr - stext) / step >= nw) {
			fprintf(stderr, "model: %s lies beyond the profile\n",
			    syms[i].name);
			exit(4);
		}
}

/* Index of the symbol holding offset OFF from _stext, or -1. */
static long
find(unsigned long long off)
{
	unsigned long long stext = syms[0].addr;
	size_t lo = 0, hi = nsyms;	/* first symbol with start > off */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (syms[mid].addr - stext > off)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* lo - 1: the last start <= off; the last symbol closes nothing. */
	if (lo == 0 || lo == nsyms)
		return -1;
	return (long)lo - 1;
}

int
main(int argc, char **argv)
{
	int all = 0, verbose = 0, counters = 0, bins = 0, i;
	unsigned long long *ticks, total = 0, stext, step, last;
	long *owner;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p == 'a')
				all = 1;
			else if (*p == 'v')
				verbose = 1;
			else if (*p == 's')
				counters = 1;
			else if (*p == 'b')
				bins = 1;
			else
				goto usage;
		}
	}
	if (argc - i != 2)
		goto usage;
	read_profile(argv[i]);
	read_map(argv[i + 1]);
	stext = syms[0].addr;
	step = w[0];

	/* Credit each bucket. */
	ticks = xalloc(NULL, nsyms * sizeof *ticks);
	memset(ticks, 0, nsyms * sizeof *ticks);
	owner = xalloc(NULL, nw * sizeof *owner);
	owner[0] = owner[nw - 1] = -1;
	for (unsigned long long k = 1; k < nw - 1; k++) {
		owner[k] = find((k - 1) * step);
		if (owner[k] >= 0) {
			ticks[owner[k]] += w[k];
			total += w[k];
		}
	}
	/* Words credited to a symbol are consecutive; find each one's run. */
	unsigned long long *first = xalloc(NULL, nsyms * sizeof *first);
	unsigned long long *end = xalloc(NULL, nsyms * sizeof *end);
	for (size_t s = 0; s < nsyms; s++)
		first[s] = end[s] = 0;
	for (unsigned long long k = 1; k < nw - 1; k++) {
		if (owner[k] < 0)
			continue;
		if (end[owner[k]] == 0)
			first[owner[k]] = k;
		end[owner[k]] = k + 1;
	}

	for (size_t s = 0; s + 1 < nsyms; s++) {
		unsigned long long len = syms[s + 1].addr - syms[s].addr;
		double load = len ? (double)ticks[s] / (double)len : 0.0;

		if (bins) {
			int header = 0;
			for (unsigned long long k = first[s]; k < end[s]; k++) {
				if (w[k] == 0 && !all)
					continue;
				if (!header)
					printf("%s:\n", syms[s].name);
				header = 1;
				printf("\t%llx\t%u\n", (k - 1) * step + stext, w[k]);
			}
			if (ticks[s] || verbose)
				printf("  total\t\t\t\t%llu\n", ticks[s]);
			continue;
		}
		if (len == 0 || (ticks[s] == 0 && !all))
			continue;
		if (verbose)
			printf("%016llx %-40s %6llu %8.4f\n", syms[s].addr,
			    syms[s].name, ticks[s], load);
		else
			printf("%6llu %-40s %8.4f\n", ticks[s], syms[s].name,
			    load);
		if (counters)
			for (unsigned long long k = first[s]; k < end[s]; k++) {
				unsigned long long a = (k - 1) * step + stext;
				printf("\t%#llx\t%s+%#llx\t%u\n", a, syms[s].name,
				    a - syms[s].addr, w[k]);
			}
	}
	printf("%6u *unknown*\n", w[nw - 1]);
	last = syms[nsyms - 1].addr;
	{
		double load = last > stext ? (double)total / (double)(last - stext)
		    : 0.0;
		if (verbose)
			printf("%016x %-40s %6llu %8.4f\n", 0, "total", total,
			    load);
		else
			printf("%6llu %-40s %8.4f\n", total, "total", load);
	}
	for (size_t s = 0; s < nsyms; s++)
		free(syms[s].name);
	free(syms);
	free(w);
	free(ticks);
	free(owner);
	free(first);
	free(end);
	return fflush(stdout) == 0 ? 0 : 3;
usage:
	fputs("usage: model [-a] [-v] [-s] [-b] PROFILE MAP\n", stderr);
	return 3;
}
