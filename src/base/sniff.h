/*
 * sniff.h - inputs that are not what they were given as: an ELF file,
 * compressed data without its suffix, or text as a profile; a compressed
 * or ELF file, or one that is not text, as a map.  Only to explain errors and warnings: nothing is
 * refused on a guess.  The suffixes also choose a decompressor (input.c).
 */
#ifndef RP_SNIFF_H
#define RP_SNIFF_H

#include <stddef.h>
#include <stdint.h>

struct sniff {
	const char *what;	/* "an ELF file", "gzip-compressed data", "text";
				 * for NOT_TEXT, why ("NUL bytes") */
	const char *tool;	/* the decompressor, or NULL */
	const char *suffix;	/* its suffix, or NULL */
	int not_text;		/* neither text nor a format above */
};

#define SNIFF_MAX 6	/* the most bytes sniff_binary looks at */
#define SNIFF_TEXT ((size_t)64 << 10)	/* a map's bytes sniff_text looks at */

/* What the first N bytes of an input look like, or NULL if nothing known;
 * text is not remarkable here (for a map). */
const struct sniff *sniff_binary(const unsigned char *buf, size_t n);

/* The format whose suffix NAME ends with (and is longer than), or NULL. */
const struct sniff *sniff_suffix(const char *name);

/* What a map is when its first N bytes (at most SNIFF_TEXT) hold a NUL
 * byte (NUL), or when they are SNIFF_TEXT bytes and hold no line end (NL
 * 0): not text; else NULL. */
const struct sniff *sniff_text(int nul, int nl, size_t n);

/* What the first N bytes of a profile look like (text too), or NULL. */
const struct sniff *sniff(const unsigned char *buf, size_t n);

/* Profile NAME, SIZE bytes, is not a whole number of words: when its
 * first N bytes, HEAD, are recognisably something else, say what (and
 * what to do) and exit.  Returns otherwise. */
void sniff_profile_size(const char *name, uint64_t size,
    const unsigned char *head, size_t n);

/* Profile NAME, whose first N bytes are HEAD, has STEP, not a power of
 * two, as its step: warn, naming what it looks like. */
void sniff_profile_step(const char *name, uint32_t step,
    const unsigned char *head, size_t n);

/* Exit with the message FMT about map NAME, followed, when K is not NULL,
 * by a line saying what NAME is. */
_Noreturn void sniff_map_fatal(const char *name, const struct sniff *k,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
