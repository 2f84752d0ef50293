/* wide.h - the 128-bit product of two 64-bit numbers, from 32-bit halves:
 * 32-bit targets (i386, armhf) have no unsigned __int128. */
#ifndef RP_WIDE_H
#define RP_WIDE_H

#include <stdint.h>

/* A * B as *HI * 2^64 + *LO. */
static inline void
wide_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	const uint64_t m = 0xffffffffu;
	uint64_t p00 = (a & m) * (b & m), p01 = (a & m) * (b >> 32);
	uint64_t p10 = (a >> 32) * (b & m), p11 = (a >> 32) * (b >> 32);
	uint64_t mid = (p00 >> 32) + (p01 & m) + (p10 & m);

	*lo = (p00 & m) | mid << 32;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#endif
