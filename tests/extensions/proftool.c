/*
 * proftool.c - small profile edits for tests/extensions/run.sh.
 *
 * Profiles are handled as stored: no byte order guessing; ORDER is "le"
 * or "be" where a tool must know the value of a word.  A trailing partial
 * word is left out.
 *
 *   proftool swap IN OUT               byte-swap every word
 *   proftool reduce ORDER SEED IN OUT  a plausible earlier snapshot: every
 *                                      counter lowered by a random amount
 *   proftool sub ORDER BASE PROF OUT   PROF - BASE counter by counter (the
 *                                      step word kept); fails when negative
 *   proftool set ORDER K V IN OUT      word K := V
 *   proftool rebin F IN OUT            little-endian IN at step S to the
 *                                      profile the kernel keeps at step S*F
 *   proftool sum IN                    "SUM LAST": sum of the words
 *                                      1..n-2, and word n-1 (little-endian)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t *
load(const char *name, size_t *n)
{
	FILE *f = fopen(name, "rb");
	size_t cap = 1 << 16, len = 0, got;
	unsigned char *b;

	if (f == NULL) {
		perror(name);
		exit(2);
	}
	b = malloc(cap);
	while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	if (b == NULL || len < 4) {
		fprintf(stderr, "proftool: %s: bad size\n", name);
		exit(2);
	}
	*n = len / 4;
	return (uint32_t *)(void *)b;
}

static void
save(const char *name, const uint32_t *w, size_t n)
{
	FILE *f = fopen(name, "wb");

	if (f == NULL || fwrite(w, 4, n, f) != n || fclose(f) != 0) {
		perror(name);
		exit(2);
	}
}

static uint32_t
bswap(uint32_t x)
{
	return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) |
	    (x << 24);
}

static int
host_is_le(void)
{
	const uint32_t one = 1;

	return *(const unsigned char *)&one == 1;
}

/* Whether words stored in ORDER must be swapped to be read here. */
static int
order_swap(const char *order)
{
	if (strcmp(order, "le") != 0 && strcmp(order, "be") != 0) {
		fprintf(stderr, "proftool: order is le or be\n");
		exit(2);
	}
	return (strcmp(order, "le") == 0) != host_is_le();
}

static uint32_t
get(const uint32_t *w, size_t k, int sw)
{
	return sw ? bswap(w[k]) : w[k];
}

static void
put(uint32_t *w, size_t k, uint32_t v, int sw)
{
	w[k] = sw ? bswap(v) : v;
}

static uint64_t state;

static uint64_t
rnd(void)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return state >> 33;
}

int
main(int argc, char **argv)
{
	size_t n, m;
	uint32_t *w = NULL, *b = NULL, *o = NULL;
	int sw;

	if (argc == 4 && strcmp(argv[1], "swap") == 0) {
		w = load(argv[2], &n);
		for (size_t k = 0; k < n; k++)
			w[k] = bswap(w[k]);
		save(argv[3], w, n);
	} else if (argc == 6 && strcmp(argv[1], "reduce") == 0) {
		sw = order_swap(argv[2]);
		state = strtoull(argv[3], NULL, 0) * 2654435761u + 7;
		w = load(argv[4], &n);
		for (size_t k = 1; k < n; k++) {
			uint32_t v = get(w, k, sw);
			switch (rnd() % 4) {
			case 0:
				break;			/* unchanged */
			case 1:
				v = 0;			/* all new */
				break;
			default:
				v -= (uint32_t)(rnd() % ((uint64_t)v + 1));
			}
			put(w, k, v, sw);
		}
		save(argv[5], w, n);
	} else if (argc == 6 && strcmp(argv[1], "sub") == 0) {
		sw = order_swap(argv[2]);
		b = load(argv[3], &n);
		w = load(argv[4], &m);
		if (m != n) {
			fprintf(stderr, "proftool: sizes differ\n");
			return 2;
		}
		for (size_t k = 1; k < n; k++) {
			if (get(w, k, sw) < get(b, k, sw)) {
				fprintf(stderr, "proftool: word %zu lower\n", k);
				return 2;
			}
			put(w, k, get(w, k, sw) - get(b, k, sw), sw);
		}
		save(argv[5], w, n);
	} else if (argc == 7 && strcmp(argv[1], "set") == 0) {
		sw = order_swap(argv[2]);
		w = load(argv[5], &n);
		m = (size_t)strtoull(argv[3], NULL, 0);
		if (m >= n) {
			fprintf(stderr, "proftool: no word %zu\n", m);
			return 2;
		}
		put(w, m, (uint32_t)strtoul(argv[4], NULL, 0), sw);
		save(argv[6], w, n);
	} else if (argc == 5 && strcmp(argv[1], "rebin") == 0) {
		size_t f = (size_t)strtoul(argv[2], NULL, 0), len, newlen;

		sw = order_swap("le");
		w = load(argv[3], &n);
		if (f == 0 || n < 2) {
			fprintf(stderr, "proftool: bad rebin\n");
			return 2;
		}
		/*
		 * Counter i at step S holds [i*S, (i+1)*S); the last one also
		 * every pc beyond.  At step S*F the kernel keeps len/F
		 * counters (len = old counter count, as (_etext-_stext)/S
		 * rounded down, and rounding down again gives the same).
		 */
		len = n - 1;
		newlen = len / f;
		if (newlen == 0) {
			fprintf(stderr, "proftool: too few counters\n");
			return 2;
		}
		o = calloc(newlen + 1, 4);
		if (o == NULL) {
			fprintf(stderr, "proftool: out of memory\n");
			return 2;
		}
		put(o, 0, get(w, 0, sw) * (uint32_t)f, sw);
		for (size_t i = 0; i < len; i++) {
			size_t j = i / f < newlen ? i / f : newlen - 1;
			put(o, j + 1, get(o, j + 1, sw) + get(w, i + 1, sw), sw);
		}
		save(argv[4], o, newlen + 1);
	} else if (argc == 3 && strcmp(argv[1], "sum") == 0) {
		unsigned long long s = 0;

		sw = order_swap("le");
		w = load(argv[2], &n);
		for (size_t k = 1; k + 1 < n; k++)
			s += get(w, k, sw);
		printf("%llu %u\n", s, n > 1 ? get(w, n - 1, sw) : 0u);
	} else {
		fprintf(stderr, "proftool: bad usage (see the source)\n");
		return 2;
	}
	free(w);
	free(b);
	free(o);
	return 0;
}
