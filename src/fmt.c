/*
 * fmt.c - printf-identical number formatting.
 *
 * %8.4f is done exactly: the double m * 2^e is scaled by 10^4 in 128-bit
 * integer arithmetic and rounded half to even, as glibc's printf does in
 * the default rounding mode.
 */
#include <stdio.h>
#include <string.h>

#include "fmt.h"

typedef unsigned __int128 u128;

static size_t
rev_digits(char *dst, u128 v, int minlen)
{
	char tmp[48];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v != 0 || (int)n < minlen);
	for (size_t i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

size_t
fmt_u64(char *dst, uint64_t v)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (size_t i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

size_t
fmt_u64w(char *dst, uint64_t v, int width)
{
	char tmp[24];
	size_t n = fmt_u64(tmp, v), pad = 0;

	if ((size_t)width > n) {
		pad = (size_t)width - n;
		memset(dst, ' ', pad);
	}
	memcpy(dst + pad, tmp, n);
	return pad + n;
}

static const char hexdig[] = "0123456789abcdef";

size_t
fmt_hex(char *dst, uint64_t v)
{
	char tmp[16];
	size_t n = 0;

	do {
		tmp[n++] = hexdig[v & 15];
		v >>= 4;
	} while (v != 0);
	for (size_t i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

size_t
fmt_hex16(char *dst, uint64_t v)
{
	for (int i = 15; i >= 0; i--, v >>= 4)
		dst[i] = hexdig[v & 15];
	return 16;
}

size_t
fmt_althex(char *dst, uint64_t v)
{
	if (v == 0) {
		dst[0] = '0';
		return 1;
	}
	dst[0] = '0';
	dst[1] = 'x';
	return 2 + fmt_hex(dst + 2, v);
}

/* round(v * 10^4), half to even, exactly; v finite and >= 0. */
static u128
scaled4(double v)
{
	uint64_t bits, m;
	int e, sh;
	u128 prod, q, r, half;

	memcpy(&bits, &v, sizeof bits);
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & (((uint64_t)1 << 52) - 1);
	if (e == 0)
		e = 1;
	else
		m |= (uint64_t)1 << 52;
	e -= 1075;			/* v = m * 2^e */
	prod = (u128)m * 10000;
	if (e >= 0)
		return prod << e;
	sh = -e;
	if (sh >= 127)
		return 0;
	q = prod >> sh;
	r = prod & (((u128)1 << sh) - 1);
	half = (u128)1 << (sh - 1);
	if (r > half || (r == half && (q & 1)))
		q++;
	return q;
}

size_t
fmt_fix84(char *dst, double v)
{
	char tmp[64];
	size_t n, pad = 0;
	u128 q;

	if (v == 0) {
		memcpy(dst, "  0.0000", 8);
		return 8;
	}
	if (!(v >= 0) || v > 1e30) {	/* not reached by a report */
		int k = snprintf(dst, FMT_MAX, "%8.4f", v);
		return k < 0 ? 0 : k >= FMT_MAX ? FMT_MAX - 1 : (size_t)k;
	}
	q = scaled4(v);
	if (q >> 64 == 0) {
		uint64_t q64 = (uint64_t)q, frac = q64 % 10000;

		n = fmt_u64(tmp, q64 / 10000);
		tmp[n] = '.';
		tmp[n + 1] = (char)('0' + frac / 1000);
		tmp[n + 2] = (char)('0' + frac / 100 % 10);
		tmp[n + 3] = (char)('0' + frac / 10 % 10);
		tmp[n + 4] = (char)('0' + frac % 10);
		n += 5;
	} else {
		n = rev_digits(tmp, q / 10000, 1);
		tmp[n++] = '.';
		n += rev_digits(tmp + n, q % 10000, 4);
	}
	if (n < 8) {
		pad = 8 - n;
		memset(dst, ' ', pad);
	}
	memcpy(dst + pad, tmp, n);
	return pad + n;
}
