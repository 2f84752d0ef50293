/* symsrc.c - open a symbol source by its content. */
#include <stdio.h>

#include "sym/elfsym.h"
#include "sym/notes.h"
#include "sym/symsrc.h"
#include "base/util.h"

int
symsrc_open(struct symsrc *s, const char *name)
{
	struct input in;
	unsigned char head[SNIFF_MAX];	/* an ELF magic, or sniff's */
	size_t n;

	*s = (struct symsrc){ .name = name };
	if (input_open(&in, name) < 0)
		return -1;
	n = input_fill(&in, head, sizeof head);
	if (elf_magic(head, n))
		s->elf = elf_open(name, &in, head, n);
	else
		map_open_input(&s->map, name, &in, head, n);
	return 0;
}

void
symsrc_open_mem(struct symsrc *s, const char *name, const void *data,
    size_t n)
{
	*s = (struct symsrc){ .name = name };
	if (elf_magic(data, n))
		s->elf = elf_open_mem(name, data, n);
	else
		map_open_mem(&s->map, name, data, n);
}

int
symsrc_next(struct symsrc *s, struct sym *sym)
{
	if (s->elf != NULL)
		return elf_next(s->elf, sym);
	return map_next(&s->map, sym);
}

int
symsrc_find_stext(struct symsrc *s, struct sym *sym)
{
	struct sym t;

	while (symsrc_next(s, sym)) {
		if (sym_is_stext(sym))
			return 1;
		/* "_stext\r": a name as read from a map with CRLF endings */
		t = *sym;
		if (s->elf == NULL && t.namelen > 0 &&
		    t.name[--t.namelen] == '\r')
			s->map.crlf |= sym_is_stext(&t);
	}
	return 0;
}

const char *
symsrc_hint(const struct symsrc *s, char *buf, size_t n)
{
	buf[0] = '\0';
	if (s->map.crlf)
		snprintf(buf, n, "\n%s: (its lines end in CR LF: convert it "
		    "with dos2unix or sed 's/\\r$//')", prog_name());
	return buf;
}

const struct build_id *
symsrc_build_id(const struct symsrc *s)
{
	static const struct build_id none;

	return s->elf != NULL ? elf_build_id(s->elf) : &none;
}

void
symsrc_hold(struct symsrc *s)
{
	s->map.hold = 1;
}

void
symsrc_rewind(struct symsrc *s)
{
	if (s->elf != NULL)
		elf_rewind(s->elf);
	else
		map_rewind(&s->map);
}

void
symsrc_close(struct symsrc *s)
{
	if (s->elf != NULL)
		elf_close(s->elf);
	else
		map_close(&s->map);
	s->elf = NULL;
}
