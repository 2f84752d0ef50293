/* mapfile.c - streaming map reader and line parser. */
#include <stdlib.h>
#include <string.h>

#include "sym/mapfile.h"
#include "base/util.h"

#define READ_CHUNK ((size_t)1 << 17)

/* The N bytes at P come next: while M is not known to be something else,
 * its first SNIFF_TEXT bytes, as they come, tell whether it is text. */
static void
look_at(struct map *m, const char *p, size_t n)
{
	if (m->kind != NULL || m->head >= SNIFF_TEXT)
		return;
	if (n > SNIFF_TEXT - m->head)
		n = SNIFF_TEXT - m->head;
	m->head += n;
	m->head_nul |= memchr(p, '\0', n) != NULL;
	m->head_nl |= memchr(p, '\n', n) != NULL;
	m->kind = sniff_text(m->head_nul, m->head_nl, m->head);
}

void
map_open_input(struct map *m, const char *name, const struct input *in,
    const void *head, size_t n)
{
	*m = (struct map){ .name = name, .in = *in, .cap = READ_CHUNK * 2,
	    .kind = sniff_binary(head, n) };
	m->buf = xmalloc(m->cap);
	memcpy(m->buf, head, n);
	m->len = n;
	look_at(m, head, n);
}

void
map_open_mem(struct map *m, const char *name, const char *text, size_t n)
{
	*m = (struct map){ .name = name, .in = { .fd = -1, .child = -1,
	    .errfd = -1 }, .eof = 1, .cap = n + 1 };
	m->buf = xmalloc(m->cap);
	memcpy(m->buf, text, n);
	m->len = n;
	look_at(m, text, n);
	if (n > 0 && text[n - 1] != '\n')
		m->buf[m->len++] = '\n';
	m->lines = m->len;
}

/* A map line is read as the classic tool reads it: blanks (isspace) before
 * the address and each field are skipped, but a field, the type (at most
 * 7 bytes) or the name, ends only at a space, the end of the line or a
 * NUL: a tab or a CR is part of a name ("sym\t[mod]"). */
static const unsigned char blank[256] = {
	[' '] = 1, ['\t'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
};

static const unsigned char field_end[256] = {
	[' '] = 1, ['\n'] = 1, ['\0'] = 1,
};

#define TYPE_MAX 7

#define FIELD_END(p) field_end[(unsigned char)*(p)]

static const char *
skip_space(const char *p)
{
	while (blank[(unsigned char)*p])
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

/* The fields of the line at P, which a \n or a NUL ends; NULL when short. */
static const char *
parse_fields(const char *p, struct sym *s)
{
	const char *type, *name;
	char *end;

	/* as strtoull reads an address (sign, 0x, saturation), not past \n */
	p = skip_space(p);
	if (*p == '\n')
		return NULL;
	s->addr = strtoull(p, &end, 16);
	if (end == p)
		return NULL;
	type = skip_space(end);
	for (p = type; !FIELD_END(p) && p - type < TYPE_MAX; p++)
		;
	if (p == type)
		return NULL;
	name = skip_space(p);
	p = name + strcspn(name, " \n");	/* a space, the \n or a NUL */
	if (p == name)
		return NULL;
	s->kind = map_kind(*type);
	s->type = *type;
	s->name = name;
	s->namelen = (size_t)(p - name);
	s->dynamic = s->stable = 0;
	s->size = 0;
	return p;
}

int
map_parse_line(const char *p, const char *e, struct sym *s)
{
	(void)e;	/* *E, \n or NUL, ends the line */
	return parse_fields(p, s) ? 0 : -1;
}

/* Line LINENO is too long; a second line says so when M's data is
 * recognisably not a map (a compressed or ELF file). */
static _Noreturn void
too_long(const struct map *m, uint64_t lineno)
{
	sniff_map_fatal(m->name, m->kind, "%s(%llu): line longer than %zu bytes",
	    m->name, (unsigned long long)lineno, MAP_MAX_LINE);
}

/* Read up to a whole line (the last one given a newline): 0 at the end. */
static int
fill(struct map *m)
{
	size_t got;
	char *nl;

	for (;;) {
		if (m->len - m->pos > MAP_MAX_LINE)
			too_long(m, m->lineno + 1);
		if (m->eof) {
			if (m->pos == m->len)
				return 0;
			m->buf[m->len++] = '\n';	/* room kept below */
			m->lines = m->len;
			return 1;
		}
		if (m->pos > 0 && !m->hold) {
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
			continue;
		}
		look_at(m, m->buf + m->len, got);
		nl = memrchr(m->buf + m->len, '\n', got);
		m->len += got;
		if (nl != NULL) {
			m->lines = (size_t)(nl - m->buf) + 1;
			return 1;
		}
	}
}

/* nm's line for an undefined symbol: blanks, U, w or v, a blank, a name. */
static int
is_undefined(const char *p, const char *nl)
{
	if (p == nl || *p != ' ')
		return 0;
	while (p < nl && *p == ' ')
		p++;
	return nl - p > 2 && (p[0] == 'U' || p[0] == 'w' || p[0] == 'v') &&
	    (p[1] == ' ' || p[1] == '\t') && p[2] != ' ' && p[2] != '\t';
}

int
map_next(struct map *m, struct sym *s)
{
	const char *line, *p, *nl, *end;

	for (;;) {
		if (m->pos >= m->lines && !fill(m))
			return 0;
		line = m->buf + m->pos;
		end = m->buf + m->lines - 1;		/* the last newline */
		m->lineno++;
		s->lineno = m->lineno;
		p = parse_fields(line, s);
		nl = p != NULL ? p : line;
		nl = memchr(nl, '\n', (size_t)(end - nl) + 1);
		if ((size_t)(nl - line) > MAP_MAX_LINE)
			too_long(m, m->lineno);
		m->pos = (size_t)(nl - m->buf) + 1;
		if (p != NULL)
			return 1;
		if (!m->skip_undefined || !is_undefined(line, nl))
			sniff_map_fatal(m->name, m->kind, "%s(%llu): wrong map "
			    "line", m->name, (unsigned long long)m->lineno);
	}
}

int
sym_is(const struct sym *s, const char *name)
{
	size_t n = strlen(name);

	return s->namelen == n && memcmp(s->name, name, n) == 0;
}

/* NAME is "_" WORD or "__" WORD; WORD has 5 letters. */
static int
is_marker(const struct sym *s, const char *word)
{
	const char *n = s->name;

	if (s->namelen == 7 && n[0] == '_')
		n++;
	else if (s->namelen != 6)
		return 0;
	return n[0] == '_' && memcmp(n + 1, word, 5) == 0;
}

int
sym_is_stext(const struct sym *s)
{
	return is_marker(s, "stext");
}

int
sym_is_etext(const struct sym *s)
{
	return is_marker(s, "etext");
}

void
map_rewind(struct map *m)
{
	m->hold = 0;
	m->pos = 0;
	m->lineno = 0;
	m->crlf = 0;
}

void
map_close(struct map *m)
{
	input_close(&m->in);
	free(m->buf);
	m->buf = NULL;
}
