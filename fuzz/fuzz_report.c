/*
 * fuzz_report.c - libFuzzer harness for the whole report.
 *
 * Input: two bytes (little-endian) giving the profile's length L, L bytes
 * of profile (host byte order; a partial last word is dropped), then the
 * map text.  The report is run with every combination of -v, -a, -b, -s
 * and --exact into a held-back output buffer, and checked against a
 * reference written here from the rules of the classic tool:
 *   - an error (fatal) happens exactly when the reference says so;
 *   - the total line holds the reference's 64-bit total, the *unknown*
 *     line the last word;
 *   - with -a (no -b) the symbol lines add up to the total, with -b -v the
 *     per-symbol "total" lines do;
 *   - the output is whole lines and holds no NUL byte.
 * Fatal errors come back through the fatal hook and longjmp.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attrib.h"
#include "sym/mapfile.h"
#include "base/output.h"
#include "core/report.h"
#include "views/classic.h"
#include "base/util.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s (options %u)\n", __FILE__, \
	    __LINE__, #c, cur_opts); abort(); } } while (0)

static unsigned cur_opts;
static jmp_buf fatal_env;

static void
on_fatal(void *ctx)
{
	(void)ctx;
	longjmp(fatal_env, 1);
}


/*
 * A fatal error leaves report_run() by longjmp, dropping whatever it had
 * allocated (the pending symbol's name): in the program, exit() follows.
 * To keep leak detection on, the library's xmalloc/xrealloc/free calls are
 * routed through here (-Wl,--wrap) and whatever is still live after a
 * fatal error, other than the buffers the harness owns, is freed.
 */
void *__real_xmalloc(size_t n);
void *__real_xrealloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_xmalloc(size_t n);
void *__wrap_xrealloc(void *p, size_t n);
void __wrap_free(void *p);

#define NLIVE 256
static void *live[NLIVE];
static int tracking, nlive;

static void
untrack(void *p)
{
	for (int i = 0; p && nlive > 0 && i < NLIVE; i++)
		if (live[i] == p) {
			live[i] = NULL;
			nlive--;
			return;
		}
}

static void
track(void *p)
{
	if (!tracking)
		return;
	for (int i = 0; i < NLIVE; i++)
		if (live[i] == NULL) {
			live[i] = p;
			nlive++;
			return;
		}
	abort();
}

void *
__wrap_xmalloc(size_t n)
{
	void *p = __real_xmalloc(n);

	track(p);
	return p;
}

void *
__wrap_xrealloc(void *p, size_t n)
{
	untrack(p);
	p = __real_xrealloc(p, n);
	track(p);
	return p;
}

void
__wrap_free(void *p)
{
	untrack(p);
	__real_free(p);
}

/* Free what a fatal error left behind, except KEEP. */
static void
free_leftovers(const void *keep)
{
	for (int i = 0; i < NLIVE; i++)
		if (live[i] != NULL && live[i] != keep) {
			__real_free(live[i]);
			live[i] = NULL;
			nlive--;
		}
}

struct rsym {
	uint64_t addr;
	enum sym_kind kind;
	char *name;
};

/* The map as the reference sees it: the lines read before a wrong one. */
static struct rsym *syms;
static size_t nsyms, capsyms;
static int map_wrong;		/* a wrong line follows syms[nsyms - 1] */

static void
read_syms(const char *text, size_t n)
{
	static struct map m;
	struct sym s;

	nsyms = 0;
	map_wrong = 0;
	if (setjmp(fatal_env) == 0) {
		map_open_mem(&m, "map", text, n);
		while (map_next(&m, &s)) {
			if (nsyms == capsyms) {
				capsyms = capsyms ? 2 * capsyms : 64;
				syms = realloc(syms, capsyms * sizeof *syms);
			}
			syms[nsyms].addr = s.addr;
			syms[nsyms].kind = s.kind;
			syms[nsyms].name = strndup(s.name, s.namelen);
			nsyms++;
		}
	} else {
		map_wrong = 1;
	}
	map_close(&m);
}

static void
free_syms(void)
{
	for (size_t i = 0; i < nsyms; i++)
		free(syms[i].name);
	nsyms = 0;
}

static int
named(const struct rsym *s, const char *a, const char *b)
{
	return strcmp(s->name, a) == 0 || (b && strcmp(s->name, b) == 0);
}

/*
 * The reference report: returns 1 when it must fail, else 0 with the
 * total in *TOTAL.
 */
static int
ref_report(const uint32_t *w, uint64_t n, int exact, uint64_t *total)
{
	size_t i = 0;
	uint64_t origin, start, cursor = 1, step = w[0];

	*total = 0;
	for (;; i++) {
		if (i == nsyms)
			return 1;	/* wrong line, or no _stext */
		if (named(&syms[i], "_stext", "__stext"))
			break;
	}
	if (syms[i].addr == 0)
		return 1;
	origin = start = syms[i].addr;
	for (i++;; i++) {
		const struct rsym *s;
		uint64_t next, ticks = 0;
		int last;

		if (i == nsyms)
			return map_wrong;
		s = &syms[i];
		last = named(s, "_etext", "__etext");
		if (!last && s->kind == SYM_ABS &&
		    (*total == 0 || strcmp(s->name, "__init_end") == 0))
			continue;
		if (!last && s->kind != SYM_TEXT)
			return 0;
		next = s->addr;
		if (next < start)
			return 1;	/* address goes backwards */
		if (!exact) {
			uint64_t j = step ? (next - origin) / step : 0;

			if (cursor >= n || j > n)
				return 1;	/* beyond the profile */
			for (; cursor < j; cursor++)
				ticks += w[cursor];
		} else {
			if (n <= 1 || (step && (start - origin) / step >= n))
				return 1;
			/* Brute force: word k's bucket starts inside [start, next). */
			for (uint64_t k = 1; step && k + 1 < n; k++) {
				unsigned __int128 b = (unsigned __int128)(k - 1) * step;
				if (b >= start - origin && b < next - origin)
					ticks += w[k];
			}
		}
		*total += ticks;
		start = next;
		if (last)
			return 0;
	}
}

/* Lines of the output: [p, e) without the '\n'. */
static const char *
line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	CHECK(nl != NULL);
	return nl;
}

static uint64_t
num_at(const char *p)
{
	return strtoull(p, NULL, 10);
}

/* The ticks of a symbol line (not -b). */
static uint64_t
sym_ticks(const char *p, const char *e, int verbose)
{
	if (!verbose)
		return num_at(p);
	CHECK(e - p > 17);
	p += 17;			/* address and space */
	while (p < e && *p != ' ')	/* the name: no spaces in names */
		p++;
	while (p < e && *p == ' ')
		p++;
	return num_at(p);
}

static void
check_output(const char *buf, size_t len, const struct options *ro,
    uint64_t total, uint32_t unknown)
{
	const char *end = buf + len, *p, *lines[2] = { NULL, NULL };
	uint64_t sum = 0;
	size_t nlines = 0;
	char want[64];

	CHECK(len > 0 && buf[len - 1] == '\n');
	CHECK(memchr(buf, '\0', len) == NULL);
	/* Find the last two lines. */
	for (p = buf; p < end; p = line_end(p, end) + 1) {
		lines[0] = lines[1];
		lines[1] = p;
		nlines++;
	}
	CHECK(nlines >= 2);
	snprintf(want, sizeof want, "%6u *unknown*\n", unknown);
	CHECK((size_t)(lines[1] - lines[0]) == strlen(want) &&
	    memcmp(lines[0], want, strlen(want)) == 0);
	if (ro->verbose) {
		CHECK(memcmp(lines[1], "0000000000000000 total ", 23) == 0);
		CHECK(sym_ticks(lines[1], end - 1, 1) == total);
	} else {
		CHECK(num_at(lines[1]) == total);
		p = lines[1];
		while (*p == ' ')
			p++;
		while (*p >= '0' && *p <= '9')
			p++;
		CHECK(memcmp(p, " total ", 7) == 0);
	}
	if (ro->all && !ro->bins) {
		for (p = buf; p < lines[0]; p = line_end(p, end) + 1)
			if (*p != '\t')
				sum += sym_ticks(p, line_end(p, end), ro->verbose);
		CHECK(sum == total);
	}
	if (ro->bins && ro->verbose) {
		for (p = buf; p < lines[0]; p = line_end(p, end) + 1)
			if (memcmp(p, "  total\t\t\t\t", 11) == 0)
				sum += num_at(p + 11);
		CHECK(sum == total);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct out o;
	char *buf;
	size_t blen;
	static struct symsrc m;
	static uint32_t *words;
	static uint64_t nw;
	static const char *text;
	static size_t tlen;
	size_t plen;

	if (size < 2)
		return 0;
	fatal_hook_set(on_fatal, NULL);
	plen = (size_t)(data[0] | data[1] << 8);
	data += 2;
	size -= 2;
	if (plen > size)
		plen = size;
	nw = plen / 4;
	if (nw == 0)
		return 0;
	words = malloc(nw * 4);
	memcpy(words, data, nw * 4);
	text = (const char *)data + plen;
	tlen = size - plen;
	read_syms(text, tlen);

	for (cur_opts = 0; cur_opts < 32; cur_opts++) {
		static struct options ro = { .mapfile = "map" };
		static struct run rn = { .o = &ro };
		static struct report_result res;
		struct counters c = counters_array(words, nw, NULL);
		uint64_t want_total;
		int want_fatal;

		ro.verbose = cur_opts & 1;
		ro.all = (cur_opts >> 1) & 1;
		ro.bins = (cur_opts >> 2) & 1;
		ro.counters = (cur_opts >> 3) & 1;
		ro.exact = (cur_opts >> 4) & 1;
		want_fatal = ref_report(words, nw, ro.exact,
		    &want_total);
		buf = NULL;
		blen = 0;
		o = (struct out){ .f = open_memstream(&buf, &blen) };
		CHECK(o.f != NULL);
		tracking = 1;
		if (setjmp(fatal_env) == 0) {
			symsrc_open_mem(&m, "map", text, tlen);
			rn.step = words[0];
			rn.out = &o;
			classic_run(&m, &c, &rn, &res);
			tracking = 0;
			CHECK(!want_fatal);
			CHECK(res.total == want_total);
			CHECK(res.total + report_unknown(&res) + res.nosym == res.all);
			CHECK(fflush(o.f) == 0);
			check_output(buf, blen, &ro, want_total, words[nw - 1]);
		} else {
			tracking = 0;
			CHECK(want_fatal);
		}
		symsrc_close(&m);
		out_note(&o, "");
		fclose(o.f);
		free(buf);
		if (want_fatal)
			free_leftovers(NULL);
		for (int i = 0; i < NLIVE; i++)
			CHECK(live[i] == NULL);
	}
	free_syms();
	free(words);
	words = NULL;
	return 0;
}
