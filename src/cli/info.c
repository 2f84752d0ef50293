/*
 * info.c - -i and -i -v for a kernel profile.
 */
#include "base/util.h"
#include "cli/info.h"
#include "cli/kernel.h"
#include "core/fit.h"

/* -i -v, last: what the live counters count, what the last one holds, the
 * running kernel's build-id and MAP's (NULL: none read), whether they match. */
static void
print_kernel(const struct run *r, const struct build_id *map)
{
	const struct build_id *k = r->live && r->k->id.n ? &r->k->id : NULL;
	int text = kroot_last_counter_is_text(r->k, r->live);
	char hex[BUILD_ID_HEX];

	if (r->counting != NULL)
		out_printf(r->out, "Counting: %s\n", r->counting->what);
	if (text < 0)
		out_printf(r->out, "Last_counter: unknown (not the running "
		    "kernel's profile: up to 6.10 it also counts ticks outside "
		    "the text, from 6.11 it is text only; *unknown*)\n");
	else
		out_printf(r->out, "Last_counter: text%s (kernel %s: %s)\n",
		    text ? "" : " and every tick outside it", r->k->release,
		    text ? "from 6.11 ticks outside the text are dropped; "
		    "--exact credits it to its function" : "up to 6.10 they are "
		    "clamped into it; *unknown*");
	if (k != NULL)
		out_printf(r->out, "Kernel_build_id: %s (%s)\n",
		    build_id_hex(k, hex), SYS_NOTES);
	if (map != NULL && map->n > 0)
		out_printf(r->out, "Map_build_id: %s%s\n",
		    build_id_hex(map, hex), k == NULL ? "" :
		    build_id_equal(map, k) ? " (matches the running kernel's)" :
		    " (differs from the running kernel's)");
}

/* The map, read for -v and to infer a zero step: -m's, or for the live
 * profile the default (a snapshot may be of another kernel). */
void
info_print(const struct run *r, const struct profile *p)
{
	const struct options *o = r->o;
	const char *mapname = o->mapfile;
	struct symsrc m;
	struct report_result res;
	struct build_id bid = { 0 };
	uint32_t step = p->step;
	uint64_t counters = p->nwords - 1;
	int have_map = 0;

	if (step == 0 && mapname == NULL && r->live)
		mapname = kernel_default_map(r->k, r->profile, 1, 1);
	if (mapname != NULL && (step == 0 || o->verbose)) {
		run_open_map(&m, mapname);
		if (step == 0)
			step = run_step_from_map(&m, counters, &res,
			    o->mapfile == NULL);
		else
			report_text_bounds(&m, &res);
		bid = *symsrc_build_id(&m);
		symsrc_close(&m);
		have_map = step != 0;
	}
	if (step == 0)
		warnx_("this kernel does not report its sampling step: the "
		    "profile's step word is 0, as 64-bit big-endian kernels "
		    "write it; to infer the step from the kernel's map, run "
		    "%s -i -m MAP", prog_name());
	if (o->verbose && step != p->step)
		out_printf(r->out, "Sampling_step: %u (inferred from %s)\n",
		    step, mapname);
	else
		out_printf(r->out, "Sampling_step: %u\n", step);
	if (o->verbose) {	/* what the profile holds; whether the map fits */
		out_printf(r->out, "Counters: %llu\nText_bytes: %llu\n"
		    "Byte_order: %s (%s)\n", (unsigned long long)counters,
		    (unsigned long long)(counters * step),
		    run_byte_order(r), o->noauto ? "native, -n" :
		    r->swapped ? "reversed" : "native");
		if (have_map)
			fit_describe(r->out, &(struct step_text){ mapname,
			    res.origin, res.etext, res.have_etext, counters },
			    step);
		print_kernel(r, have_map ? &bid : NULL);
	}
}
