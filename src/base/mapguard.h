/*
 * mapguard.h - a mapped input that shrinks is an error, not a crash.
 *
 * Touching a page of a mapping past the end of its file (truncated while
 * being read) raises SIGBUS.  Each input registers its mapping with the
 * message to print; the handler finds the mapping by the faulting address,
 * writes that message and exits with status 1.
 */
#ifndef RP_MAPGUARD_H
#define RP_MAPGUARD_H

#include <stddef.h>

/* Most mappings watched at once (the profile's chunk and an ELF map). */
#define MAPGUARD_SLOTS 4

/*
 * Watch [BASE, BASE + LEN): a fault there prints "readprofile: MSG" and
 * exits 1.  Returns 0, or -1 when every slot is taken (not watched).
 */
int mapguard_add(const void *base, size_t len, const char *msg);

/* Stop watching the mapping at BASE (before unmapping it). */
void mapguard_remove(const void *base);

#endif
