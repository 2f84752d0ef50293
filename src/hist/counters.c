/* counters.c - reading and summing the words of a histogram. */
#include "hist/counters.h"

static const uint32_t *
array_span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	*got = (size_t)(to - from);
	return (const uint32_t *)ctx + from;
}

struct counters
counters_array(const uint32_t *w, uint64_t n)
{
	return (struct counters){ n, array_span, (void *)(uintptr_t)w };
}

/* Sixteen words at a time, a loop of constant length that -O2 vectorises
 * (bench/README.md, "Code kept for speed"), then the rest. */
uint64_t
counters_sum(const struct counters *c, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;

	while (from < to) {
		size_t got;
		const uint32_t *w = c->span(c->ctx, from, to, &got);
		size_t i = 0;

		for (; i + 16 <= got; i += 16) {
			uint64_t t = 0;

			for (int j = 0; j < 16; j++)
				t += w[i + j];
			sum += t;
		}
		for (; i < got; i++)
			sum += w[i];
		from += got;
	}
	return sum;
}

uint32_t
counters_get(const struct counters *c, uint64_t k)
{
	size_t got;

	return *c->span(c->ctx, k, k + 1, &got);
}
