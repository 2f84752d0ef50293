/*
 * view.c - --top text, --json and --folded.
 */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "core/batch.h"
#include "views/classic.h"
#include "hist/profile.h"
#include "views/view.h"

typedef unsigned long long ull;

static double
view_percent(uint64_t ticks, uint64_t total)
{
	return total ? (double)ticks * 100.0 / (double)total : 0.0;
}

#define SHARE "%6.2f%%"	/* --top's share column, before the name */

/* A row of ticks in no function (*unknown*, no symbol): where a
 * function's row has its address, load, seconds and calls: blank. */
static void
top_nofunc(const struct run *r, const struct report_result *res,
    const char *name, uint64_t u)
{
	const struct options *opt = r->o;
	struct out *o = r->out;
	char t[32], s[16];

	snprintf(s, sizeof s, SHARE, view_percent(u, res->all));
	if (opt->bins) {	/* as the blocks' totals: the share, the name */
		out_printf(o, "%6llu %7s %s\n", (ull)u, s, name);
		return;
	}
	if (opt->verbose)
		out_printf(o, "%16s ", "");
	out_printf(o, "%6llu %8s", (ull)u, "");
	if (opt->verbose && res->h) {
		fmt_seconds(t, sizeof t, u, res->h->rate);
		out_printf(o, " %10s%s", t, res->h->calls ? "         " : "");
	}
	out_printf(o, " %7s %s\n", s, name);
}

/* The header row: the names of the columns below (none for -b, whose
 * blocks name their own parts), what is counted first. */
static void
top_header(const struct run *r, const struct report_result *res,
    const char *counted)
{
	const struct options *opt = r->o;

	if (opt->bins)
		return;
	if (opt->verbose)
		out_printf(r->out, "%-16s ", "address");
	out_printf(r->out, "%6s %8s%s %7s %s\n", counted, "load",
	    !opt->verbose || !res->h ? "" : res->h->calls ?
	    "    seconds    calls" : "    seconds", "share", "function");
}

void
view_top(const struct run *r, const struct report_result *res,
    const struct counters *c)
{
	const struct options *opt = r->o;
	struct out *o = r->out;
	const struct collect *k = r->collect;
	/* what a gmon.out counts is not the kernel's */
	const struct counted *counted = r->hist ? NULL : r->counting;
	/* the rows of no function, ranked with the functions (after a tie) */
	struct {
		const char *name;
		uint64_t n;
	} nf[2] = { { "*unknown*", report_unknown(res) },
	    { "[no symbol]", res->nosym } };
	size_t rows = 0, j = 0;
	struct classic cl = { r, c, res };
	char b[32];

	if (nf[1].n > nf[0].n)	/* the larger first */
		swap_bytes((unsigned char *)nf, (unsigned char *)(nf + 1),
		    sizeof *nf);
	if (counted != NULL)
		out_printf(o, "Counting: %s\n", counted->what);
	top_header(r, res, counted ? counted->column : "ticks");
	/* the names shown, demangled as one batch, not one by one */
	batch_ahead(r, k->v, k->n < k->limit ? k->n : k->limit, NULL);
	for (size_t i = 0;; i++) {
		while (j < 2 && (nf[j].n == 0 || i == k->n ||
		    nf[j].n > k->v[i].ticks)) {
			if (nf[j].n > 0 && rows++ < k->limit)
				top_nofunc(r, res, nf[j].name, nf[j].n);
			j++;
		}
		if (i == k->n || rows >= k->limit)
			break;
		rows++;	/* a kept function's row, or -b block */
		snprintf(b, sizeof b, SHARE, view_percent(k->v[i].ticks,
		    res->all));
		classic_out(&cl, &k->v[i], b);
	}
	/* the total row: every tick, of which the shares are parts, and
	 * their load over the text */
	out_top_total(o, res, opt->verbose);
}

size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* no overlong forms */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void
json_str(struct out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, from = 0, len;

	out_str(o, "\"", 1);
	while (i < n) {
		unsigned char ch = s[i];

		if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
			i++;
			continue;
		}
		if (ch >= 0x80 && (len = utf8_len(s + i, n - i)) != 0) {
			i += len;
			continue;
		}
		out_str(o, str + from, i - from);
		from = ++i;
		if (ch == '"')
			out_str(o, "\\\"", 2);
		else if (ch == '\\')
			out_str(o, "\\\\\\\\", 4);
		else if (ch == '\n')
			out_str(o, "\\n", 2);
		else if (ch == '\t')
			out_str(o, "\\t", 2);
		else if (ch < 0x80)	/* other controls, and DEL */
			out_printf(o, "\\u%04x", ch);
		else			/* not UTF-8: \\xNN */
			out_printf(o, "\\\\x%02x", ch);
	}
	out_str(o, str + from, n - from);
	out_str(o, "\"", 1);
}

/* Whether byte J of the name S of N bytes is written \xNN. */
static int
folded_escaped(const unsigned char *s, size_t n, size_t j)
{
	int digit = 0;

	if (s[j] == ';' || s[j] == '\\' || s[j] < 0x20 || s[j] == 0x7f)
		return 1;
	if (j == 0 && s[j] == '[')
		return 1;
	if (s[j] != ' ')
		return 0;
	/* a ' ' before what flamegraph.pl would take for a count: digits,
	 * with dots, to the end */
	while (++j < n) {
		if (s[j] >= '0' && s[j] <= '9')
			digit = 1;
		else if (s[j] != '.')
			return 0;
	}
	return digit;
}

void
folded_name(struct out *o, const char *name, size_t n)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t from = 0, len;

	for (size_t j = 0; j < n; j += len ? len : 1) {
		len = s[j] >= 0x80 ? utf8_len(s + j, n - j) :
		    !folded_escaped(s, n, j);
		if (len == 0) {
			out_str(o, name + from, j - from);
			out_printf(o, "\\x%02x", s[j]);
			from = j + 1;
		}
	}
	out_str(o, name + from, n - from);
}

/* Whether F has a line, its name renamed. */
static int
folded_named(void *ctx, const struct func_rec *f)
{
	const struct folded_stream *fs = ctx;

	return f->ticks != 0 && report_shown(fs->r->o, f);
}

static void
folded_func(void *ctx, const struct func_rec *f)
{
	struct folded_stream *fs = ctx;
	const char *name = f->name;
	size_t n = f->namelen;

	if (!folded_named(fs, f))
		return;
	if (fs->r->rename)
		name = fs->r->rename(fs->r->rename_ctx, f->name, n, &n);
	folded_name(fs->r->out, name, n);
	out_printf(fs->r->out, " %llu\n", (ull)f->ticks);
}

/* The frames of no function. */
static void
folded_end(void *ctx, const struct report_result *res)
{
	struct folded_stream *fs = ctx;
	struct out *o = fs->r->out;

	if (report_unknown(res))
		out_printf(o, "[unknown] %llu\n", (ull)report_unknown(res));
	if (res->nosym)
		out_printf(o, "[no symbol] %llu\n", (ull)res->nosym);
	out_note(o, res->note);
}

struct report_sink
view_folded_sink(struct folded_stream *fs, const struct run *r)
{
	fs->r = r;
	return (struct report_sink){ NULL, folded_func, folded_end, fs,
	    folded_named };
}

static void
put(struct out *o, const char *s)
{
	out_str(o, s, strlen(s));
}

/* KEY, then S as a JSON string, or null for NULL. */
static void
put_str(struct out *o, const char *key, const char *s)
{
	put(o, key);
	if (s)
		json_str(o, s, strlen(s));
	else
		put(o, "null");
}

/* SEP"KEY":N,"KEY_hex":"HHHH" */
static void
put_addr(struct out *o, const char *sep, const char *key, uint64_t v)
{
	out_printf(o, "%s\"%s\":%llu,\"%s_hex\":\"%016llx\"", sep, key,
	    (ull)v, key, (ull)v);
}

/* The buckets -b (non-zero ones, all with -a) or -s would list. */
static void
put_buckets(struct out *o, const struct func_rec *f,
    const struct report_result *res, const struct counters *c,
    const struct options *opt)
{
	uint64_t from = opt->bins ? f->sp.first : f->sp.list_first;
	uint64_t to = opt->bins ? f->sp.end : f->sp.list_end;
	const char *sep = "{";

	if (!opt->bins && res->a.step == 0 && res->h == NULL)
		to = from;
	put(o, ",\"buckets\":[");
	for (uint64_t k = from; k < to;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, to, &got);

		for (size_t i = 0; i < got; i++) {
			if (opt->bins && !opt->all && w[i] == 0)
				continue;
			put_addr(o, sep, "address",
			    attrib_word_addr(&res->a, k + i));
			out_printf(o, ",\"count\":%llu}", (ull)w[i]);
			sep = ",{";
		}
		k += got;
	}
	put(o, "]");
}

/* A gmon.out's ',"PREFIXseconds":S' (exact decimals, as -v), and its
 * calls. */
static void
put_hist_extra(struct out *o, const char *prefix,
    const struct report_hist *h, uint64_t ticks, uint64_t calls)
{
	char b[32];

	fmt_seconds(b, sizeof b, ticks, h->rate);
	out_printf(o, ",\"%sseconds\":%s", prefix, b);
	if (h->calls)
		out_printf(o, ",\"%scalls\":%llu", prefix, (ull)calls);
}

void
view_width(struct out *o, const struct hist_range *r)
{
	uint64_t span = r->high - r->low;

	if (span % r->nbins == 0)
		out_printf(o, "%llu", (ull)(span / r->nbins));
	else
		out_printf(o, "%.6f", (double)span / (double)r->nbins);
}

static void
put_inputs(const struct json_stream *j, const struct report_hist *h)
{
	const struct run *r = j->r;
	const struct options *opt = r->o;
	const struct gmon *g = r->gmon;
	struct out *o = r->out;

	put_str(o, "\"inputs\":{\"profile\":", r->profile);
	put_str(o, ",\"map\":", r->map);
	put_str(o, ",\"baseline\":", opt->baseline);
	if (h) {	/* the width of the first range's bins as "step" */
		out_printf(o, ",\"format\":\"gmon.out\",\"gmon_format\":\"%s\","
		    "\"version\":%llu,\"pointer_size\":%llu,\"rate\":%llu",
		    g->format == GMON_GNU ? "GNU" : "BSD", (ull)g->version,
		    (ull)(uint64_t)g->ptrsize, (ull)h->rate);
		put(o, ",\"step\":");
		view_width(o, &h->ranges[0]);
		out_printf(o, ",\"counters\":%llu,\"ranges\":[", (ull)h->nbins);
		for (size_t i = 0; i < h->nranges; i++) {
			put_addr(o, i ? ",{" : "{", "low", h->ranges[i].low);
			put_addr(o, ",", "high", h->ranges[i].high);
			out_printf(o, ",\"bins\":%llu,\"bin_width\":",
			    (ull)h->ranges[i].nbins);
			view_width(o, &h->ranges[i]);
			put(o, "}");
		}
		put(o, "]");
	} else {
		out_printf(o, ",\"format\":\"kernel\",\"step\":%llu,"
		    "\"counters\":%llu", (ull)r->step, (ull)(j->c->n - 1));
		put_str(o, ",\"counting\":", r->counting ? r->counting->what :
		    NULL);
	}
	out_printf(o, ",\"byte_order\":\"%s\",\"mode\":\"%s\",\"all\":%s,"
	    "\"buckets\":\"%s\",\"top\":", run_byte_order(r),
	    h ? "histogram" : run_mode(r) == ATTRIB_EXACT ? "exact" : "classic",
	    opt->all ? "true" : "false",
	    opt->bins ? "histbin" : opt->counters ? "counters" : "none");
	if (opt->top)
		out_printf(o, "%llu}", (ull)opt->top);
	else
		put(o, "null}");
}

/* The document up to its list of functions. */
static void
json_begin(void *ctx, const struct report_result *res)
{
	struct json_stream *j = ctx;
	const struct run_read *rd = j->r->read;
	struct out *o = j->r->out;

	j->res = res;
	put(o, "{");
	if (rd != NULL) {
		out_printf(o, "\"interval\":{\"number\":%llu",
		    (ull)rd->number);
		put_str(o, ",\"time\":", rd->time);
		out_printf(o, ",\"seconds\":%.3f,\"reset\":%s},",
		    rd->seconds, rd->reset ? "true" : "false");
	}
	put_inputs(j, res->h);
	put(o, ",\"functions\":[");
}

/* Whether F is listed, its name renamed. */
static int
json_named(void *ctx, const struct func_rec *f)
{
	const struct json_stream *j = ctx;

	return report_shown(j->r->o, f);
}

static void
json_func(void *ctx, const struct func_rec *f)
{
	struct json_stream *j = ctx;

	const struct report_result *res = j->res;
	const struct run *r = j->r;
	struct out *o = r->out;
	const char *name = f->name;
	size_t nlen = f->namelen;

	if (!json_named(j, f))
		return;
	if (j->n++)
		put(o, ",");
	if (r->rename)
		name = r->rename(r->rename_ctx, f->name,
		    f->namelen, &nlen);
	put(o, "{\"name\":");
	json_str(o, name, nlen);
	if (res->h) {	/* a program's: the name as its map spells it */
		put(o, ",\"mangled\":");
		json_str(o, f->name, f->namelen);
	}
	put_addr(o, ",", "address", f->addr);
	out_printf(o, ",\"size\":%llu,\"ticks\":%llu,\"load\":%.4f,"
	    "\"percent\":%.6f", (ull)f->len, (ull)f->ticks,
	    attrib_load(f->ticks, f->len), view_percent(f->ticks, res->all));
	if (res->h)
		put_hist_extra(o, "", res->h, f->ticks, f->calls);
	if (r->o->bins || r->o->counters)
		put_buckets(o, f, res, j->c, r->o);
	put(o, "}");
}

/* The totals: functions', *unknown*'s and no symbol's add up to all. */
static void
json_end(void *ctx, const struct report_result *res)
{
	struct json_stream *j = ctx;
	struct out *o = j->r->out;

	out_printf(o, "],\"unknown\":%llu,\"no_symbol\":%llu,"
	    "\"in_functions\":%llu,\"total\":%llu,\"total_load\":%.4f",
	    (ull)report_unknown(res), (ull)res->nosym, (ull)res->total,
	    (ull)res->all, res->load);
	if (res->h)
		put_hist_extra(o, "total_", res->h, res->total, res->calls);
	put(o, "}\n");
	out_note(o, res->note);
}

struct report_sink
view_json_sink(struct json_stream *j, const struct run *r,
    const struct counters *c)
{
	*j = (struct json_stream){ r, c, NULL, 0 };
	return (struct report_sink){ json_begin, json_func, json_end, j,
	    json_named };
}

void
view_json(const struct run *r, const struct report_result *res,
    const struct counters *c)
{
	const struct collect *k = r->collect;
	struct json_stream j;

	view_json_sink(&j, r, c);
	json_begin(&j, res);
	batch_ahead(r, k->v, k->n, NULL);
	for (size_t i = 0; i < k->n; i++)	/* each shown, as collected */
		json_func(&j, &k->v[i]);
	json_end(&j, res);
}
