/*
 * run.c - what follows from the description of a run.
 */
#include <stdint.h>

#include "core/run.h"

enum attrib_mode
run_mode(const struct run *r)
{
	return r->hist ? ATTRIB_HIST : r->o->exact ? ATTRIB_EXACT :
	    ATTRIB_CLASSIC;
}

const char *
run_byte_order(const struct run *r)
{
	static const uint32_t one = 1;

	if (r->gmon != NULL)
		return r->gmon->big_endian ? "big-endian" : "little-endian";
	return (*(const unsigned char *)&one == 1) != (r->swapped != 0) ?
	    "little-endian" : "big-endian";
}
