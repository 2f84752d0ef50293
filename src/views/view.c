/*
 * view.c - printing collected reports: --top text and --json.
 */
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"
#include "views/view.h"

/* All the ticks counted: the functions' and *unknown*'s, the whole of
 * which --top's shares and --json's percents are parts. */
static uint64_t
view_all(const struct report_result *res)
{
	return res->total + res->unknown;
}

/* ticks * 100 / total, 0 for a total of 0. */
static double
view_percent(uint64_t ticks, uint64_t total)
{
	return total ? (double)ticks * 100.0 / (double)total : 0.0;
}

/* Replace the newline just written by " PCT%\n" (the line is in o->buf:
 * the output spills only before a line is formatted, never after). */
static void
pct_tail(struct out *o, double pct)
{
	char b[64];
	int n = snprintf(b, sizeof b, " %6.2f%%\n", pct);

	o->len--;
	out_str(o, b, (size_t)n);
}

/* The header row of --top: the columns of the lines below (none for
 * -b, whose blocks name their own parts). */
static void
top_header(struct out *o, const struct report_result *res,
    const struct report_opts *opt)
{
	char b[160];
	int n;

	if (opt->bins)
		return;
	if (!opt->verbose)
		n = snprintf(b, sizeof b, "%6s %-40s %8s %7s\n", "ticks",
		    "function", "load", "share");
	else if (res->h)
		n = snprintf(b, sizeof b, "%-16s %-40s %6s %8s %10s%s %7s\n",
		    "address", "function", "ticks", "load", "seconds",
		    res->h->calls ? "    calls" : "", "share");
	else
		n = snprintf(b, sizeof b, "%-16s %-40s %6s %8s %7s\n",
		    "address", "function", "ticks", "load", "share");
	out_str(o, b, (size_t)n);
}

/* The *unknown* row: the ticks of no function, where a function's row has
 * its address, load, seconds and calls: blank. */
static void
top_unknown(struct out *o, const struct report_result *res,
    const struct report_opts *opt, double pct)
{
	char b[64 + FMT_MAX], t[FMT_MAX];
	unsigned long long u = res->unknown;
	int n;

	if (opt->bins)		/* as the classic *unknown* line */
		n = snprintf(b, sizeof b, "%6llu *unknown*", u);
	else if (!opt->verbose)
		n = snprintf(b, sizeof b, "%6llu %-40s %8s", u, "*unknown*", "");
	else
		n = snprintf(b, sizeof b, "%16s %-40s %6llu %8s", "",
		    "*unknown*", u, "");
	out_str(o, b, (size_t)n);
	if (opt->verbose && !opt->bins && res->h) {
		t[fmt_seconds(t, res->unknown, res->h->rate)] = '\0';
		n = snprintf(b, sizeof b, " %10s%s", t, res->h->calls ?
		    "         " : "");
		out_str(o, b, (size_t)n);
	}
	out_str(o, "\n", 1);
	pct_tail(o, pct);
}

void
view_top(struct out *o, const struct collect *k,
    const struct report_result *res, const struct counters *c,
    const struct report_opts *opt, const char *counting)
{
	uint64_t all = view_all(res);
	int unknown = res->unknown > 0;	/* still to list */
	size_t rows = 0;

	if (counting != NULL) {
		out_str(o, "Counting: ", 10);
		out_str(o, counting, strlen(counting));
		out_str(o, "\n", 1);
	}
	top_header(o, res, opt);
	for (size_t i = 0;; i++) {
		const struct func_rec *f = &k->v[i];
		double pct;
		const char *name;
		size_t nlen;

		/* *unknown* ranks with the functions (after a tie) */
		if (unknown && (i == k->n || res->unknown > f->ticks)) {
			unknown = 0;
			if (rows++ < k->limit)
				top_unknown(o, res, opt,
				    view_percent(res->unknown, all));
		}
		if (i == k->n || rows >= k->limit)
			break;
		rows++;
		pct = view_percent(f->ticks, all);
		name = f->name;
		nlen = f->namelen;

		if (opt->rename)
			name = opt->rename(f->name, f->namelen, &nlen);
		if (opt->bins) {
			report_list_bins(o, c, &res->a, &f->sp, name,
			    nlen, opt->all);
			out_bin_total(o, f->ticks);
			pct_tail(o, pct);
			continue;
		}
		if (opt->verbose && res->h)
			out_sym_seconds(o, f->addr, name, nlen,
			    f->ticks, attrib_load(f->ticks, f->len),
			    res->h->rate, res->h->calls ? &f->calls : NULL);
		else if (opt->verbose)
			out_sym_verbose(o, f->addr, name, nlen,
			    f->ticks, attrib_load(f->ticks, f->len));
		else
			out_sym(o, f->ticks, name, nlen,
			    attrib_load(f->ticks, f->len));
		pct_tail(o, pct);
		if (opt->counters && (res->a.step || res->h))
			report_list_counters(o, c, &res->a, &f->sp, name,
			    nlen, f->addr);
	}
	if (res->h)
		report_hist_total(o, res, opt->verbose);
	else
		out_total(o, res->total, res->load, opt->verbose);
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
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	char b[16];
	size_t i = 0, run = 0, len;

	out_str(o, "\"", 1);
	while (i < n) {
		unsigned char ch = s[i];

		if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
			i++, run++;
			continue;
		}
		if (ch >= 0x80 && (len = utf8_len(s + i, n - i)) != 0) {
			i += len, run += len;
			continue;
		}
		out_str(o, str + i - run, run);
		run = 0;
		if (ch == '"')
			out_str(o, "\\\"", 2);
		else if (ch == '\\')
			out_str(o, "\\\\\\\\", 4);
		else if (ch == '\n')
			out_str(o, "\\n", 2);
		else if (ch == '\t')
			out_str(o, "\\t", 2);
		else if (ch < 0x80) {	/* other controls, and DEL */
			memcpy(b, "\\u00", 4);
			b[4] = hex[ch >> 4];
			b[5] = hex[ch & 15];
			out_str(o, b, 6);
		} else {		/* not UTF-8: \\xNN */
			memcpy(b, "\\\\x", 3);
			b[3] = hex[ch >> 4];
			b[4] = hex[ch & 15];
			out_str(o, b, 5);
		}
		i++;
	}
	out_str(o, str + i - run, run);
	out_str(o, "\"", 1);
}

void
view_folded(struct out *o, const struct collect *k,
    const char *(*rename)(const char *, size_t, size_t *))
{
	static const char hex[] = "0123456789abcdef";
	char b[FMT_MAX + 2];

	for (size_t i = 0; i < k->n; i++) {
		const struct func_rec *f = &k->v[i];
		const unsigned char *s;
		size_t n, j = 0, run = 0, len;

		if (f->ticks == 0)
			continue;
		s = (const unsigned char *)f->name;
		n = f->namelen;
		if (rename)
			s = (const unsigned char *)rename(f->name, n, &n);
		while (j < n) {
			if (s[j] >= 0x20 && s[j] < 0x7f && s[j] != ';' &&
			    s[j] != '\\') {
				j++, run++;
				continue;
			}
			if (s[j] >= 0x80 && (len = utf8_len(s + j, n - j))) {
				j += len, run += len;
				continue;
			}
			out_str(o, (const char *)s + j - run, run);
			run = 0;
			b[0] = '\\';
			b[1] = 'x';
			b[2] = hex[s[j] >> 4];
			b[3] = hex[s[j] & 15];
			out_str(o, b, 4);
			j++;
		}
		out_str(o, (const char *)s + j - run, run);
		b[0] = ' ';
		len = fmt_u64(b + 1, f->ticks);
		b[len + 1] = '\n';
		out_str(o, b, len + 2);
	}
}

static void
put(struct out *o, const char *s)
{
	out_str(o, s, strlen(s));
}

static void
put_u64(struct out *o, uint64_t v)
{
	char b[FMT_MAX];

	out_str(o, b, fmt_u64(b, v));
}

static void
put_fix(struct out *o, double v, int prec)
{
	char b[64];
	int n = snprintf(b, sizeof b, "%.*f", prec, v);

	out_str(o, b, (size_t)n);
}

/* "KEY":N,"KEY_hex":"HHHH" */
static void
put_addr(struct out *o, const char *key, uint64_t v)
{
	char b[FMT_MAX];

	out_str(o, "\"", 1);
	put(o, key);
	put(o, "\":");
	put_u64(o, v);
	put(o, ",\"");
	put(o, key);
	put(o, "_hex\":\"");
	out_str(o, b, fmt_hex16(b, v));
	out_str(o, "\"", 1);
}

/* One bucket, as -b or -s would list it. */
static void
put_bucket(struct out *o, int *first, uint64_t addr, uint32_t count)
{
	put(o, *first ? "{" : ",{");
	*first = 0;
	put_addr(o, "address", addr);
	put(o, ",\"count\":");
	put_u64(o, count);
	put(o, "}");
}

/* The buckets -b (non-zero ones, all with -a) or -s would list. */
static void
put_buckets(struct out *o, const struct func_rec *f,
    const struct report_result *res, const struct counters *c,
    const struct report_opts *opt)
{
	uint64_t from = opt->bins ? f->sp.first : f->sp.list_first;
	uint64_t to = opt->bins ? f->sp.end : f->sp.list_end;
	int first = 1;

	if (!opt->bins && res->a.step == 0 && res->h == NULL)
		to = from;
	put(o, ",\"buckets\":[");
	for (uint64_t k = from; k < to;) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, k, to, &got);

		for (size_t i = 0; i < got; i++)
			if (!opt->bins || opt->all || w[i])
				put_bucket(o, &first,
				    attrib_word_addr(&res->a, k + i), w[i]);
		k += got;
	}
	put(o, "]");
}

/* A gmon.out's ',"seconds":S' (exact decimals, as -v), and its calls. */
static void
put_hist_extra(struct out *o, const struct report_hist *h, uint64_t ticks,
    uint64_t calls)
{
	char b[FMT_MAX];

	put(o, ",\"seconds\":");
	out_str(o, b, fmt_seconds(b, ticks, h->rate));
	if (h->calls) {
		put(o, ",\"calls\":");
		put_u64(o, calls);
	}
}

static void
put_function(struct out *o, const struct func_rec *f,
    const struct report_result *res, const struct counters *c,
    const struct report_opts *opt)
{
	const char *name = f->name;
	size_t nlen = f->namelen;

	if (opt->rename)
		name = opt->rename(f->name, f->namelen, &nlen);
	put(o, "{\"name\":");
	json_str(o, name, nlen);
	if (res->h) {	/* a program's: the name as its map spells it */
		put(o, ",\"mangled\":");
		json_str(o, f->name, f->namelen);
	}
	put(o, ",");
	put_addr(o, "address", f->addr);
	put(o, ",\"size\":");
	put_u64(o, f->len);
	put(o, ",\"ticks\":");
	put_u64(o, f->ticks);
	put(o, ",\"load\":");
	put_fix(o, attrib_load(f->ticks, f->len), 4);
	put(o, ",\"percent\":");
	put_fix(o, view_percent(f->ticks, view_all(res)), 6);
	if (res->h)
		put_hist_extra(o, res->h, f->ticks, f->calls);
	if (opt->bins || opt->counters)
		put_buckets(o, f, res, c, opt);
	put(o, "}");
}

/* A bin width: the integer when whole, else rounded to six decimals
 * (the exact width is (high - low) / bins). */
static void
put_width(struct out *o, const struct hist_range *r)
{
	uint64_t span = r->high - r->low;

	if (span % r->nbins == 0)
		put_u64(o, span / r->nbins);
	else
		put_fix(o, (double)span / (double)r->nbins, 6);
}

/* A gmon.out's shape: format, rate, the width of the first range's bins
 * as "step", then each range. */
static void
put_gmon(struct out *o, const struct view_inputs *in,
    const struct report_hist *h)
{
	put(o, ",\"format\":\"gmon.out\",\"gmon_format\":\"");
	put(o, in->gmon_format);
	put(o, "\",\"version\":");
	put_u64(o, in->gmon_version);
	put(o, ",\"pointer_size\":");
	put_u64(o, (uint64_t)in->pointer_size);
	put(o, ",\"rate\":");
	put_u64(o, h->rate);
	put(o, ",\"step\":");
	put_width(o, &h->ranges[0]);
	put(o, ",\"counters\":");
	put_u64(o, h->nbins);
	put(o, ",\"ranges\":[");
	for (size_t i = 0; i < h->nranges; i++) {
		put(o, i ? ",{" : "{");
		put_addr(o, "low", h->ranges[i].low);
		put(o, ",");
		put_addr(o, "high", h->ranges[i].high);
		put(o, ",\"bins\":");
		put_u64(o, h->ranges[i].nbins);
		put(o, ",\"bin_width\":");
		put_width(o, &h->ranges[i]);
		put(o, "}");
	}
	put(o, "]");
}

static void
put_inputs(struct out *o, const struct view_inputs *in,
    const struct report_opts *opt, const struct report_hist *h)
{
	put(o, "{\"profile\":");
	json_str(o, in->profile, strlen(in->profile));
	put(o, ",\"map\":");
	json_str(o, in->map, strlen(in->map));
	put(o, ",\"baseline\":");
	if (in->baseline)
		json_str(o, in->baseline, strlen(in->baseline));
	else
		put(o, "null");
	if (h)
		put_gmon(o, in, h);
	else {
		put(o, ",\"format\":\"kernel\",\"step\":");
		put_u64(o, in->step);
		put(o, ",\"counters\":");
		put_u64(o, in->counters);
		put(o, ",\"counting\":");
		if (in->counting)
			json_str(o, in->counting, strlen(in->counting));
		else
			put(o, "null");
	}
	put(o, ",\"byte_order\":\"");
	put(o, in->byte_order);
	put(o, "\",\"mode\":\"");
	put(o, h ? "histogram" : opt->mode == ATTRIB_EXACT ? "exact" :
	    "classic");
	put(o, "\",\"all\":");
	put(o, opt->all ? "true" : "false");
	put(o, ",\"buckets\":\"");
	put(o, opt->bins ? "histbin" : opt->counters ? "counters" : "none");
	put(o, "\",\"top\":");
	if (in->top)
		put_u64(o, in->top);
	else
		put(o, "null");
	put(o, "}");
}

static void
put_interval(struct out *o, const struct view_inputs *in)
{
	put(o, "\"interval\":{\"number\":");
	put_u64(o, in->number);
	put(o, ",\"time\":");
	json_str(o, in->time, strlen(in->time));
	put(o, ",\"seconds\":");
	put_fix(o, in->seconds, 3);
	put(o, ",\"reset\":");
	put(o, in->reset ? "true" : "false");
	put(o, "},");
}

void
view_json(struct out *o, const struct collect *k,
    const struct report_result *res, const struct counters *c,
    const struct report_opts *opt, const struct view_inputs *in)
{
	char b[FMT_MAX];

	put(o, "{");
	if (in->interval)
		put_interval(o, in);
	put(o, "\"inputs\":");
	put_inputs(o, in, opt, res->h);
	put(o, ",\"functions\":[");
	for (size_t i = 0; i < k->n; i++) {
		if (i)
			put(o, ",");
		put_function(o, &k->v[i], res, c, opt);
	}
	put(o, "],\"unknown\":");
	put_u64(o, res->unknown);
	put(o, ",\"total\":");
	put_u64(o, res->total);
	put(o, ",\"total_load\":");
	put_fix(o, res->load, 4);
	if (res->h) {
		put(o, ",\"total_seconds\":");
		out_str(o, b, fmt_seconds(b, res->total, res->h->rate));
		if (res->h->calls) {
			put(o, ",\"total_calls\":");
			put_u64(o, res->calls);
		}
	}
	put(o, "}\n");
}
