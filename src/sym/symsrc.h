/*
 * symsrc.h - a symbol source, a text map (System.map, /proc/kallsyms, nm -n)
 * or, told by its content, an ELF file: one stream of (address, kind, type
 * letter, name) in address order, a name valid until the next symsrc_next().
 */
#ifndef RP_SYMSRC_H
#define RP_SYMSRC_H

#include <stddef.h>

#include "sym/mapfile.h"

struct symsrc {
	const char *name;	/* as given, for messages */
	struct map map;		/* a text map (all zero for an ELF file) */
	struct elf *elf;	/* an ELF file, or NULL */
};

/* Open NAME, told by its first bytes: 0, or -1 with errno set.  What is
 * not a text map nor a readable ELF file is fatal when read. */
int symsrc_open(struct symsrc *s, const char *name);

/* A source over a copy of N bytes in memory (tests, fuzzers). */
void symsrc_open_mem(struct symsrc *s, const char *name, const void *data,
    size_t n);

/* The next symbol in address order: 1, or 0 at the end. */
int symsrc_next(struct symsrc *s, struct sym *sym);

/* Read up to the first _stext (or __stext), into SYM: 1, or 0 when none
 * (an address of 0 is for the caller to refuse). */
int symsrc_find_stext(struct symsrc *s, struct sym *sym);

/* What a map whose _stext is at 0 is: /proc/kallsyms read by a user whom
 * kernel.kptr_restrict shows every address as 0. */
#define SYMSRC_HIDDEN "symbol addresses are hidden (all zero, " \
	"kernel.kptr_restrict); run as root, or allow them with: sysctl " \
	"kernel.kptr_restrict=0 kernel.perf_event_paranoid=1"

/* A hint for the "no _stext" error, e.g. CR LF endings, written into
 * BUF of N bytes ("" when none); returns BUF. */
const char *symsrc_hint(const struct symsrc *s, char *buf, size_t n);

/* An ELF file's GNU build-id; n 0 when none (always, for a text map). */
struct build_id;
const struct build_id *symsrc_build_id(const struct symsrc *s);

/* Keep what is read from now on for symsrc_rewind (pipes are read once). */
void symsrc_hold(struct symsrc *s);

/* Back to the first symbol (a text map: after symsrc_hold). */
void symsrc_rewind(struct symsrc *s);

void symsrc_close(struct symsrc *s);

#endif
