/*
 * fuzz_demangle.c - libFuzzer harness: a report whose map holds any name
 * ends within fixed time and memory.
 *
 * The input is a name (a leading "_Z" is added when it has none, so that
 * most inputs reach the demangler; bytes a map line cannot hold, blanks
 * and control bytes, become 'x').  A classic report with -a of a small
 * profile over a map of that one function is made with the demangler as
 * its rename hook, as a gmon.out report has it; one demangler serves all
 * the inputs, as it serves all the names of a report.  Checks, for any
 * name, whatever the demangler makes of it:
 *   - the report takes at most 11 s (a name's 5 s, then at most one more
 *     wait of 5 s on a read begun before the deadline, and a second);
 *   - the demangler's children never held more memory than this process
 *     at its largest and 32 MiB (each is a fork of it): the largest
 *     resident size of a child reaped (getrusage), once the report's is;
 *   - the output is whole lines, no longer than the line of a demangled
 *     name of 64 KiB.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "base/output.h"
#include "base/util.h"
#include "core/report.h"
#include "core/run.h"
#include "hist/counters.h"
#include "sym/demangle.h"
#include "sym/symsrc.h"
#include "views/classic.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

/* The one demangler, as a report holds one. */
static struct demangler dm;

/* This process's VmPeak, in KiB. */
static unsigned long long
vm_peak(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f;

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmPeak: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t words[] = { 4, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct counters c = counters_array(words, 9, NULL);
	struct options opts = { .all = 1, .mapfile = "map" };
	struct run r = { .o = &opts, .step = 4, .rename = demangle_or_same,
	    .rename_ctx = &dm };
	struct report_result res;
	struct symsrc m;
	struct out o;
	char *map = malloc(size + 128), *buf = NULL, *name;
	struct rusage ru;
	size_t n, blen = 0;
	double t0;

	n = (size_t)sprintf(map, "0000000000001000 T _stext\n"
	    "0000000000001008 T ");
	name = map + n;
	if (size < 2 || data[0] != '_' || data[1] != 'Z')
		n += (size_t)sprintf(map + n, "_Z");
	for (size_t i = 0; i < size; i++)
		map[n++] = data[i] <= ' ' || data[i] == 0x7f ? 'x' :
		    (char)data[i];
	n += (size_t)sprintf(map + n, "\n0000000000001018 T _etext\n");
	o = (struct out){ .f = open_memstream(&buf, &blen) };
	CHECK(o.f != NULL);
	r.out = &o;
	symsrc_open_mem(&m, "map", map, n);
	t0 = now();
	classic_run(&m, &c, &r, &res);
	CHECK(now() - t0 <= 11.0);
	demangle_ahead(&dm, NULL, 0);	/* its child, if any, reaped */
	CHECK(getrusage(RUSAGE_CHILDREN, &ru) == 0);
	CHECK((unsigned long long)ru.ru_maxrss <= vm_peak() + 32 * 1024);
	CHECK(fflush(o.f) == 0);
	CHECK(blen > 0 && buf[blen - 1] == '\n' && memchr(buf, '\0', blen) == NULL);
	CHECK(blen <= 3 * 80 + 65536 + 80 + strlen(name));
	symsrc_close(&m);
	fclose(o.f);
	free(buf);
	free(map);
	return 0;
}
