/*
 * fmt.h - number formatting identical to printf's, without printf.
 *
 * Each function writes into DST (no terminating NUL) and returns the
 * number of bytes written.  DST must hold FMT_MAX bytes: the bytes after
 * the ones counted may be overwritten too.
 */
#ifndef RP_FMT_H
#define RP_FMT_H

#include <stddef.h>
#include <stdint.h>

#define FMT_MAX 64

/* "%llu" */
size_t fmt_u64(char *dst, uint64_t v);
/* "%*llu": right-aligned in WIDTH */
size_t fmt_u64w(char *dst, uint64_t v, int width);
/* "%llx" */
size_t fmt_hex(char *dst, uint64_t v);
/* "%016llx" */
size_t fmt_hex16(char *dst, uint64_t v);
/* "%#llx": "0" for 0, else "0x..." */
size_t fmt_althex(char *dst, uint64_t v);
/* "%8.4f" for a finite v >= 0, rounded exactly as printf rounds */
size_t fmt_fix84(char *dst, double v);

#endif
