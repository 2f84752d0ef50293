/*
 * wide.h - the 128-bit product of two 64-bit numbers, on every target.
 *
 * Compilers for 64-bit targets have an unsigned __int128; 32-bit ones
 * (i386, armhf) do not, so the product is also built from 32-bit halves.
 */
#ifndef RP_WIDE_H
#define RP_WIDE_H

#include <stdint.h>

/* A * B as *HI * 2^64 + *LO. */
static inline void
wide_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	__extension__ unsigned __int128 x = (unsigned __int128)a * b;

	*hi = (uint64_t)(x >> 64);
	*lo = (uint64_t)x;
#else
	const uint64_t m = 0xffffffffu;
	uint64_t p00 = (a & m) * (b & m), p01 = (a & m) * (b >> 32);
	uint64_t p10 = (a >> 32) * (b & m), p11 = (a >> 32) * (b >> 32);
	uint64_t mid = (p00 >> 32) + (p01 & m) + (p10 & m);

	*lo = (p00 & m) | mid << 32;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

#endif
