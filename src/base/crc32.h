#ifndef RP_CRC32_H
#define RP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 (IEEE 802.3, reflected, as gzip's and .gnu_debuglink's) of N
 * bytes at DATA, continuing from CRC (0 to start). */
uint32_t crc32_update(uint32_t crc, const void *data, size_t n);

#endif
