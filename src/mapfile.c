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
	m->buf[n] = '\n';
	m->len = n;
	m->eof = 1;
}

/* Byte classes: a line is split at C_SPACE; C_END ('\n', NUL) ends it. */
enum { C_WORD, C_SPACE, C_END };

static const unsigned char cls[256] = {
	['\0'] = C_END, ['\n'] = C_END,
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE,
	['\r'] = C_SPACE,
};

/* Hex digit value + 1; 0 for any other byte. */
static const unsigned char hexv1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

#define CLS(p) cls[(unsigned char)*(p)]
#define HEX(p) (hexv1[(unsigned char)*(p)] - 1)
#define NOHEX (-1)

/* Like strtoull(p, &end, 16): sign, 0x, saturation; NULL without digits. */
static const char *
parse_hex(const char *p, uint64_t *out)
{
	int neg = 0, over = 0;
	uint64_t v = 0;
	const char *digits;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] | 0x20) == 'x' && HEX(p + 2) != NOHEX)
		p += 2;
	digits = p;
	for (; HEX(p) != NOHEX; p++) {
		over |= (v >> 60) != 0;
		v = v << 4 | HEX(p);
	}
	if (p == digits)
		return NULL;
	*out = over ? UINT64_MAX : neg ? -v : v;
	return p;
}

static const char *
skip_space(const char *p)
{
	while (CLS(p) == C_SPACE)
		p++;
	return p;
}

static const char *
skip_word(const char *p)
{
	while (CLS(p) == C_WORD)
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

	(void)e;	/* *e is '\n' or NUL: the scans stop there */
	p = parse_hex(skip_space(p), &s->addr);
	if (p == NULL)
		return -1;
	type = skip_space(p);
	p = skip_word(type);
	if (p == type)
		return -1;
	name = skip_space(p);
	p = skip_word(name);
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
			*nl = '\n';		/* room kept by fill() */
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
