/*
 * buildid.h - the running kernel's build-id against a map's.
 *
 * The running kernel's is in /sys/kernel/notes (its .notes section); an
 * ELF map's (vmlinux) in its own notes.  They are compared only when the
 * profile is the running kernel's /proc/profile.
 */
#ifndef RP_BUILDID_H
#define RP_BUILDID_H

#include "base/output.h"
#include "sym/notes.h"

#define SYS_NOTES "/sys/kernel/notes"

/* The running kernel's build-id (under the test root); n 0: unknown. */
const struct build_id *kernel_build_id(void);

/*
 * After a report with the map MAPNAME given with -m: when the profile is
 * the LIVE one and both build-ids are known and differ, a
 * warning naming both.
 */
void buildid_warn(const struct build_id *map, const char *mapname,
    int live);

/*
 * -i -v: "Kernel_build_id: ..." for the LIVE profile, and
 * "Map_build_id: ..." when MAP (NULL: no map read) has one, with whether
 * the two match.
 */
void buildid_info(struct out *out, int live, const struct build_id *map);

#endif
