/*
 * fmt.c - printf-identical number formatting.
 *
 * %8.4f is done exactly: the double m * 2^e is scaled by 10^4 in 128-bit
 * integer arithmetic (two 64-bit halves, for 32-bit targets too) and
 * rounded half to even, as glibc's printf does in
 * the default rounding mode.
 */
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"

/*
 * A 128-bit unsigned number as two halves: unsigned __int128 does not
 * exist on 32-bit targets.  Only what scaled4() and the digits need.
 */
struct u128 {
	uint64_t hi, lo;
};

/* A * B, for B < 2^32. */
static struct u128
mul_small(uint64_t a, uint32_t b)
{
	uint64_t lo = (a & 0xffffffffu) * b, mid = (a >> 32) * b;
	struct u128 r;

	r.lo = lo + (mid << 32);
	r.hi = (mid >> 32) + (r.lo < lo);
	return r;
}

static struct u128
shl(struct u128 x, int n)
{
	struct u128 r;

	if (n == 0)
		return x;
	if (n >= 64) {
		r.hi = n >= 128 ? 0 : x.lo << (n - 64);
		r.lo = 0;
		return r;
	}
	r.hi = x.hi << n | x.lo >> (64 - n);
	r.lo = x.lo << n;
	return r;
}

static struct u128
shr(struct u128 x, int n)
{
	struct u128 r;

	if (n == 0)
		return x;
	if (n >= 64) {
		r.lo = n >= 128 ? 0 : x.hi >> (n - 64);
		r.hi = 0;
		return r;
	}
	r.lo = x.lo >> n | x.hi << (64 - n);
	r.hi = x.hi >> n;
	return r;
}

/* Bit N of X. */
static int
bit(struct u128 x, int n)
{
	return (int)((n >= 64 ? x.hi >> (n - 64) : x.lo >> n) & 1);
}

/* Whether any of the N lowest bits of X is set (0 < N < 128). */
static int
low_bits(struct u128 x, int n)
{
	if (n >= 64)
		return x.lo != 0 ||
		    (n > 64 && (x.hi & (~(uint64_t)0 >> (128 - n))) != 0);
	return (x.lo & (~(uint64_t)0 >> (64 - n))) != 0;
}

/* X / D into *X, for 0 < D < 2^32; returns X % D. */
static uint32_t
divmod_small(struct u128 *x, uint32_t d)
{
	uint32_t w[4] = { (uint32_t)(x->hi >> 32), (uint32_t)x->hi,
	    (uint32_t)(x->lo >> 32), (uint32_t)x->lo };
	uint64_t rem = 0;

	for (int i = 0; i < 4; i++) {
		uint64_t cur = rem << 32 | w[i];
		w[i] = (uint32_t)(cur / d);
		rem = cur % d;
	}
	x->hi = (uint64_t)w[0] << 32 | w[1];
	x->lo = (uint64_t)w[2] << 32 | w[3];
	return (uint32_t)rem;
}

static size_t
rev_digits(char *dst, struct u128 v, int minlen)
{
	char tmp[48];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + divmod_small(&v, 10));
	} while (v.hi != 0 || v.lo != 0 || (int)n < minlen);
	for (size_t i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

/* "00" to "99": two decimal digits per division. */
static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The digits of V, right-aligned to END; returns where they start. */
static char *
dec_back(char *end, uint64_t v)
{
	char *p = end;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * d, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

/* The number of decimal digits of V. */
static size_t
ndigits(uint64_t v)
{
	static const uint64_t pow10[20] = { 0, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000, 100000000, 1000000000, 10000000000ull,
	    100000000000ull, 1000000000000ull, 10000000000000ull,
	    100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	    100000000000000000ull, 1000000000000000000ull,
	    10000000000000000000ull };
	size_t n = 1;

	while (n < 20 && v >= pow10[n])
		n++;
	return n;
}

static const char spaces[16] = "                ";

/*
 * The digits are written in place, from their end backwards: no copy
 * through a buffer (a variable-length copy of what was just stored is a
 * call and a stalled load).
 */
size_t
fmt_u64(char *dst, uint64_t v)
{
	size_t n = ndigits(v);

	dec_back(dst + n, v);
	return n;
}

/* Fixed-size stores of blanks: the padding may write up to 16 bytes. */
size_t
fmt_u64w(char *dst, uint64_t v, int width)
{
	size_t n = ndigits(v), pad = 0;

	if ((size_t)width > n) {
		pad = (size_t)width - n;
		if (width <= 16)
			memcpy(dst, spaces, 16);
		else
			memset(dst, ' ', pad);
	}
	dec_back(dst + pad + n, v);
	return pad + n;
}

/*
 * The 8 hex digits of V as ASCII in a word whose lowest byte is the
 * lowest digit: the nibbles are spread one to a byte, then 10..15 are
 * moved up to 'a'..'f' (a byte never carries into the next one).
 */
static uint64_t
hex8(uint32_t v)
{
	uint64_t x = v, letters;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	letters = (x + 0x0606060606060606ull) >> 4 & 0x0101010101010101ull;
	return x + 0x3030303030303030ull + letters * ('a' - '0' - 10);
}

/* hex8(V) with its highest digit in the first byte in memory. */
static uint64_t
hex8_mem(uint32_t v)
{
	uint64_t x = hex8(v);

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* A word of hex8_mem() without its first K bytes, the rest moved up. */
static uint64_t
drop_first(uint64_t x, unsigned k)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
	return x >> (8 * k);
#else
	return x << (8 * k);
#endif
}

size_t
fmt_hex16(char *dst, uint64_t v)
{
	uint64_t hi = hex8_mem((uint32_t)(v >> 32)), lo = hex8_mem((uint32_t)v);

	memcpy(dst, &hi, 8);
	memcpy(dst + 8, &lo, 8);
	return 16;
}

/*
 * Whole words are stored, straight from registers (a copy through a
 * buffer stalls on the store just made): the bytes after the N digits
 * are garbage within DST's FMT_MAX.
 */
size_t
fmt_hex(char *dst, uint64_t v)
{
	unsigned n = v == 0 ? 1 : (unsigned)(67 - __builtin_clzll(v)) / 4;
	uint64_t w;

	if (n <= 8) {
		w = drop_first(hex8_mem((uint32_t)v), 8 - n);
		memcpy(dst, &w, 8);
		return n;
	}
	w = drop_first(hex8_mem((uint32_t)(v >> 32)), 16 - n);
	memcpy(dst, &w, 8);
	w = hex8_mem((uint32_t)v);
	memcpy(dst + n - 8, &w, 8);
	return n;
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
static struct u128
scaled4(double v)
{
	uint64_t bits, m;
	int e, sh;
	struct u128 prod, q, zero = { 0, 0 };

	memcpy(&bits, &v, sizeof bits);
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & (((uint64_t)1 << 52) - 1);
	if (e == 0)
		e = 1;
	else
		m |= (uint64_t)1 << 52;
	e -= 1075;			/* v = m * 2^e */
	prod = mul_small(m, 10000);
	if (e >= 0)
		return shl(prod, e);
	sh = -e;
	if (sh >= 127)
		return zero;
	q = shr(prod, sh);
	/* the rest against one half: bit sh-1, then the bits below it */
	if (bit(prod, sh - 1) &&
	    ((sh > 1 && low_bits(prod, sh - 1)) || (q.lo & 1))) {
		q.lo++;
		q.hi += q.lo == 0;
	}
	return q;
}

/*
 * The usual case of fmt_fix84 (v < 2^32, not tiny), where round(v * 10^4)
 * fits in 64 bits: with unsigned __int128 where the compiler has it, the
 * product and its rounding are a few instructions; else 0, and the
 * general code below does it.  Digits two at a time.
 */
static size_t
fix84_fast(char *dst, double v)
{
#ifdef __SIZEOF_INT128__
	uint64_t bits, m, q, ip;
	unsigned __int128 prod, rest, half;
	unsigned frac;
	int sh;
	char *p;
	size_t n;

	memcpy(&bits, &v, sizeof bits);
	if ((bits >> 52 & 0x7ff) == 0)
		return 0;			/* subnormal */
	sh = 1075 - (int)(bits >> 52 & 0x7ff);	/* v = m * 2^-sh */
	if (sh < 21 || sh > 120)
		return 0;			/* v >= 2^32, or tiny */
	m = (bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52;
	prod = (unsigned __int128)m * 10000;
	q = (uint64_t)(prod >> sh);
	half = (unsigned __int128)1 << (sh - 1);
	rest = prod & ((half << 1) - 1);
	q += rest > half || (rest == half && (q & 1));
	ip = q / 10000;
	frac = (unsigned)(q % 10000);
	n = ndigits(ip) + 5;
	if (n < 8) {
		memcpy(dst, spaces, 8);
		n = 8;
	}
	p = dst + n - 5;
	dec_back(p, ip);
	p[0] = '.';
	memcpy(p + 1, pairs + 2 * (frac / 100), 2);
	memcpy(p + 3, pairs + 2 * (frac % 100), 2);
	return n;
#else
	(void)dst;
	(void)v;
	return 0;
#endif
}

size_t
fmt_fix84(char *dst, double v)
{
	char tmp[64];
	size_t n, pad = 0;
	struct u128 q;
	uint32_t frac;

	if (v == 0) {
		memcpy(dst, "  0.0000", 8);
		return 8;
	}
	if (!(v >= 0) || v > 1e30) {	/* not reached by a report */
		int k = snprintf(dst, FMT_MAX, "%8.4f", v);
		return k < 0 ? 0 : k >= FMT_MAX ? FMT_MAX - 1 : (size_t)k;
	}
	if ((n = fix84_fast(dst, v)) != 0)
		return n;
	q = scaled4(v);
	if (q.hi == 0) {
		frac = (uint32_t)(q.lo % 10000);
		n = fmt_u64(tmp, q.lo / 10000);
	} else {
		frac = divmod_small(&q, 10000);
		n = rev_digits(tmp, q, 1);
	}
	tmp[n] = '.';
	tmp[n + 1] = (char)('0' + frac / 1000);
	tmp[n + 2] = (char)('0' + frac / 100 % 10);
	tmp[n + 3] = (char)('0' + frac / 10 % 10);
	tmp[n + 4] = (char)('0' + frac % 10);
	n += 5;
	if (n < 8) {
		pad = 8 - n;
		memset(dst, ' ', pad);
	}
	memcpy(dst + pad, tmp, n);
	return pad + n;
}
