/*
 * buildid.c - the running kernel's build-id against a map's.
 */
#include <stdio.h>
#include <string.h>

#include "cli/buildid.h"
#include "cli/kroot.h"
#include "base/util.h"

const struct build_id *
kernel_build_id(void)
{
	static struct build_id id;
	static int done;

	if (!done) {
		notes_file_build_id(kroot_path(SYS_NOTES), &id);
		done = 1;
	}
	return &id;
}

void
buildid_warn(const struct build_id *map, const char *mapname, int live)
{
	const struct build_id *k;
	char a[BUILD_ID_HEX], b[BUILD_ID_HEX];

	if (map->n == 0 || !live)
		return;
	k = kernel_build_id();
	if (k->n == 0 || build_id_equal(map, k))
		return;
	warnx_("warning: %s has build-id %s, but the running kernel's is %s "
	    "(%s): wrong map file?", mapname, build_id_hex(map, a),
	    build_id_hex(k, b), SYS_NOTES);
}

void
buildid_info(struct out *out, int live, const struct build_id *map)
{
	const struct build_id *k = live ? kernel_build_id() : NULL;
	char line[BUILD_ID_HEX + 128], hex[BUILD_ID_HEX];
	int n;

	if (k != NULL && k->n > 0) {
		n = snprintf(line, sizeof line, "Kernel_build_id: %s (%s)\n",
		    build_id_hex(k, hex), SYS_NOTES);
		out_str(out, line, (size_t)n);
	}
	if (map == NULL || map->n == 0)
		return;
	n = snprintf(line, sizeof line, "Map_build_id: %s%s\n",
	    build_id_hex(map, hex), k == NULL || k->n == 0 ? "" :
	    build_id_equal(map, k) ? " (matches the running kernel's)" :
	    " (differs from the running kernel's)");
	out_str(out, line, (size_t)n);
}
