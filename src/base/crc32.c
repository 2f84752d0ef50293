/* crc32.c - the CRC-32 of gzip members and .gnu_debuglink sections. */
#include "base/crc32.h"

uint32_t
crc32_update(uint32_t crc, const void *data, size_t n)
{
	static uint32_t table[256];
	const unsigned char *b = data;

	if (table[1] == 0)
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	for (size_t i = 0; i < n; i++)
		crc = table[(crc ^ b[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}
