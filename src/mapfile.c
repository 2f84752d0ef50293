/*
 * mapfile.c - streaming map reader and line parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mapfile.h"
#include "util.h"

#define READ_CHUNK ((size_t)1 << 17)

int
map_open(struct map *m, const char *name)
{
	memset(m, 0, sizeof *m);
	m->name = name;
	if (input_open(&m->in, name) < 0)
		return -1;
	m->cap = READ_CHUNK * 2;
	m->buf = xmalloc(m->cap);
	return 0;
}

void
map_open_mem(struct map *m, const char *name, const char *text, size_t n)
{
	memset(m, 0, sizeof *m);
	m->name = name;
	m->in.fd = -1;
	m->in.child = -1;
	m->in.errfd = -1;
	m->buf = xmalloc(n + 1);
	m->cap = n + 1;
	memcpy(m->buf, text, n);
	m->len = n;
	m->eof = 1;
}

static int
is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Like strtoull(p, &end, 16) over [p, e): sign, 0x, saturation. */
static const char *
parse_hex(const char *p, const char *e, uint64_t *out)
{
	int neg = 0, over = 0, d;
	uint64_t v = 0;
	const char *digits;

	if (p < e && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (e - p >= 3 && p[0] == '0' && (p[1] | 0x20) == 'x' &&
	    hexval((unsigned char)p[2]) >= 0)
		p += 2;
	digits = p;
	for (; p < e && (d = hexval((unsigned char)*p)) >= 0; p++) {
		if (v >> 60)
			over = 1;
		v = v << 4 | (uint64_t)d;
	}
	if (p == digits)
		return NULL;
	if (over)
		v = UINT64_MAX;
	else if (neg)
		v = -v;
	*out = v;
	return p;
}

static const char *
skip_space(const char *p, const char *e)
{
	while (p < e && is_space((unsigned char)*p))
		p++;
	return p;
}

static const char *
skip_word(const char *p, const char *e)
{
	while (p < e && !is_space((unsigned char)*p))
		p++;
	return p;
}

enum sym_kind
map_kind(char type)
{
	switch (type) {
	case 'T': case 't': case 'W': case 'w':
		return SYM_TEXT;
	case 'A': case '?':
		return SYM_ABS;
	default:
		return SYM_OTHER;
	}
}

int
map_parse_line(const char *p, const char *e, struct sym *s)
{
	const char *type, *name;

	if (memchr(p, '\0', (size_t)(e - p)) != NULL)
		return -1;
	p = parse_hex(skip_space(p, e), e, &s->addr);
	if (p == NULL)
		return -1;
	type = skip_space(p, e);
	p = skip_word(type, e);
	if (p == type)
		return -1;
	name = skip_space(p, e);
	p = skip_word(name, e);
	if (p == name)
		return -1;
	s->kind = map_kind(*type);
	s->name = name;
	s->namelen = (size_t)(p - name);
	return 0;
}

/* Make room and read more; returns 0 at end of input. */
static int
fill(struct map *m)
{
	size_t got;

	if (m->eof)
		return 0;
	if (m->pos > 0) {
		memmove(m->buf, m->buf + m->pos, m->len - m->pos);
		m->len -= m->pos;
		m->pos = 0;
	}
	if (m->cap - m->len < READ_CHUNK) {
		m->cap *= 2;
		m->buf = xrealloc(m->buf, m->cap);
	}
	got = input_read(&m->in, m->buf + m->len, m->cap - m->len - 1);
	if (got == 0) {
		m->eof = 1;
		return 0;
	}
	m->len += got;
	return 1;
}

int
map_next(struct map *m, struct sym *s)
{
	char *line, *nl;
	size_t scanned = 0;

	for (;;) {
		line = m->buf + m->pos;
		nl = memchr(line + scanned, '\n', m->len - m->pos - scanned);
		if (nl != NULL)
			break;
		scanned = m->len - m->pos;
		if (scanned > MAP_MAX_LINE)
			fatalx("%s(%llu): line longer than %zu bytes", m->name,
			    (unsigned long long)m->lineno + 1, MAP_MAX_LINE);
		if (!fill(m)) {
			if (m->len == m->pos)
				return 0;
			nl = m->buf + m->len;	/* last line, no newline */
			line = m->buf + m->pos;
			break;
		}
	}
	m->lineno++;
	if ((size_t)(nl - line) > MAP_MAX_LINE)
		fatalx("%s(%llu): line longer than %zu bytes", m->name,
		    (unsigned long long)m->lineno, MAP_MAX_LINE);
	m->pos = (size_t)(nl - m->buf) + (nl < m->buf + m->len);
	s->lineno = m->lineno;
	if (map_parse_line(line, nl, s) < 0)
		fatalx("%s(%llu): wrong map line", m->name,
		    (unsigned long long)m->lineno);
	return 1;
}

int
sym_is(const struct sym *s, const char *name)
{
	size_t n = strlen(name);

	return s->namelen == n && memcmp(s->name, name, n) == 0;
}

int
sym_is_stext(const struct sym *s)
{
	return sym_is(s, "_stext") || sym_is(s, "__stext");
}

int
sym_is_etext(const struct sym *s)
{
	return sym_is(s, "_etext") || sym_is(s, "__etext");
}

void
map_close(struct map *m)
{
	if (m->in.fd >= 0 || m->in.child > 0)
		input_close(&m->in);
	free(m->buf);
	m->buf = NULL;
}
