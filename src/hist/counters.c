/* counters.c - reading and summing the words of a histogram. */
#include "hist/counters.h"

static const uint32_t *
array_span(void *ctx, uint64_t from, uint64_t to, size_t *got)
{
	*got = (size_t)(to - from);
	return (const uint32_t *)ctx + from;
}

struct counters
counters_array(const uint32_t *w, uint64_t n, const uint64_t *blk)
{
	return (struct counters){ n, array_span, (void *)(uintptr_t)w, blk };
}

/* A whole block of a profile from its sum (never block 0: FROM >= 1), a
 * block whose sum is 0 not read. */
uint64_t
counters_sum(const struct counters *c, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;

	while (from < to) {
		uint64_t j = from / COUNTERS_BLOCK, hi = (j + 1) * COUNTERS_BLOCK;
		uint64_t end = c->blk != NULL && hi < to ? hi : to;
		size_t got;
		const uint32_t *w;

		if (c->blk != NULL && (c->blk[j] == 0 || (end == hi &&
		    from % COUNTERS_BLOCK == 0))) {
			sum += c->blk[j];
			from = end;
			continue;
		}
		w = c->span(c->ctx, from, end, &got);
		for (size_t i = 0; i < got; i++)
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
