/* util.h - err(3)-style errors and warnings, on stderr after "NAME: " (the
 * name the program runs by, "readprofile" by default), and checked
 * allocation. */
#ifndef RP_UTIL_H
#define RP_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PROGNAME "readprofile"

/* NAME (at most 64 bytes; else, or when NULL or empty, PROGNAME) becomes
 * the name messages start with; returns where it is held, for getopt's
 * argv[0]. */
char *prog_name_set(const char *name);
/* The name messages start with: "readprofile" until prog_name_set. */
const char *prog_name(void);

/* Print "NAME: MSG" and exit(1). */
_Noreturn void fatalx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "NAME: MSG: strerror(errno)" and exit(1). */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "NAME: MSG" and go on. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "NAME: " HEAD and TEXT on stderr, cut at spaces into lines of at
 * most 80 columns (a longer word has one of its own), each further line
 * "NAME: " INDENT; with FATAL_, standard output flushed first, and the
 * hook run after, then exit(1). */
void say_wrapped(const char *head, const char *indent, const char *text,
    int fatal_);

/* Print "NAME: hint: MSG" wrapped as say_wrapped, the further lines
 * aligned under the first's text, and exit(1). */
_Noreturn void fatalx_hint(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* FN(CTX) is run by fatal()/fatalx() after the message (standard output
 * flushed before it), before exiting: main's says that a report cut short
 * is incomplete and drops --pprof's file.  The one hook of the process. */
void fatal_hook_set(void (*fn)(void *), void *ctx);

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
/* printf(3) into a new string (malloc'd); out of memory is fatal. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The LEN-byte (1 to 8) unsigned number at P, big-endian when BIG, else
 * little: its bytes copied into a host word, swapped when the orders
 * differ.  Inline: every field of every ELF symbol and gmon.out bin. */
static inline uint64_t
word_at(const void *p, size_t len, int big)
{
	int host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	uint64_t v = 0;

	memcpy((unsigned char *)&v + (host_big ? 8 - len : 0), p, len);
	return big == host_big ? v : __builtin_bswap64(v) >> (64 - 8 * len);
}

/* Exchange the SIZE bytes at A and B (apart). */
void swap_bytes(unsigned char *a, unsigned char *b, size_t size);

/* Sort the N elements of SIZE bytes at BASE by CMP (given CTX) in place,
 * in O(n log n) whatever the order: a heapsort (inputs may be crafted
 * against quicksort); not stable. */
void heap_sort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *ctx);

/* Elements of SIZE bytes at BASE, ordered by CMP (given CTX). */
struct heap {
	void *base;
	size_t size;
	int (*cmp)(const void *, const void *, void *);
	void *ctx;
};

/* Move element I of the heap H's first N (the greatest by CMP first) down
 * to its place. */
void heap_sift_down(const struct heap *h, size_t i, size_t n);

#endif
