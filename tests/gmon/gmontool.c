/*
 * gmontool.c - test helper for gmon.out: write synthetic files, and model
 * gprof's flat profile independently of readprofile.
 *
 *   gmontool write FORMAT ORDER PTR LOW HIGH NBINS RATE SEED NHIST > FILE
 *       FORMAT gnu|bsd|gnusplit, ORDER le|be, PTR 4|8; NHIST histogram
 *       records over the same range (GNU only; BSD has one; gnusplit
 *       writes two each time, over the first and the last 40% of the
 *       range, in NBINS / 2 bins each: gprof wants one scale), random sparse bins,
 *       call arcs, and (GNU) a basic-block record.
 *       FORMAT many: NHIST records over NHIST adjacent ranges that cut
 *       [LOW, HIGH) in equal parts of NBINS bins each, in a random order
 *       (one arc, no basic blocks); manyone: the same bins as one record
 *       over [LOW, HIGH), which must read the same.
 *   gmontool mutate FILE SEED > OUT
 *       FILE with a few random changes: bytes overwritten (often in the
 *       headers, where the sizes are), cut short, or grown.
 *   gmontool model FILE ORDER PTR MAP
 *       FILE a gmon.out (histograms over several ranges too) whose byte
 *       order and address size are given (so
 *       that the reading here does not share readprofile's guessing);
 *       MAP `nm -n` output, of which the text symbols (T t W w) in the
 *       histogram's range are used, and the last one before it, which
 *       may reach into it.  Prints, per symbol,
 *         NAME FIRST SPLIT DIFF
 *       FIRST the ticks of the bins whose first address lies in the
 *       symbol (readprofile's rule); SPLIT gprof's share, a bin being
 *       split between symbols in proportion to overlap.  gprof measures
 *       in 2-byte units (observed: single-bin files give shares of 2, 4
 *       or 6 bytes over the width): with u(a) = a / 2 rounded down and
 *       w = u(high - low) / nbins, bin k covers [u(low) + trunc(k*w),
 *       u(low) + trunc((k+1)*w)), a symbol [s, e) covers [u(s), u(e)),
 *       and the symbol is credited with overlap / w of the bin's count
 *       (so a bin cut short gives a little less, a long one more);
 *       DIFF the sum over bins of |our credit - gprof's|: the exact
 *       bound of |FIRST - SPLIT| bin by bin.  Then a line
 *         *total* ALL RATE
 *       with ALL the sum of every bin and RATE the profiling rate.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int big, ptr;

static void
put(uint64_t v, int len)
{
	unsigned char b[8];

	for (int i = 0; i < len; i++)
		b[big ? len - 1 - i : i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, (size_t)len, stdout);
}

static uint64_t seed;

static uint32_t
rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(seed >> 33);
}

static void
bins(uint64_t nbins)
{
	for (uint64_t k = 0; k < nbins; k++)
		put(rnd() % 3 == 0 ? rnd() % 50 : 0, 2);
}

static void
hist_record(uint64_t low, uint64_t high, uint64_t nbins, uint32_t rate)
{
	put(0, 1);
	put(low, ptr);
	put(high, ptr);
	put(nbins, 4);
	put(rate, 4);
	fwrite("seconds\0\0\0\0\0\0\0\0s", 1, 16, stdout);
	bins(nbins);
}

/* Formats many and manyone (see the top). */
static int
write_many(int one, uint64_t low, uint64_t high, uint64_t nbins,
    uint32_t rate, uint64_t nhist)
{
	uint64_t all = nbins * nhist, width = (high - low) / nhist;
	uint16_t *v = malloc(all * sizeof *v);
	uint64_t *order = malloc(nhist * sizeof *order);

	if (v == NULL || order == NULL || width < nbins) {
		fprintf(stderr, "gmontool: cannot write %llu ranges\n",
		    (unsigned long long)nhist);
		return 2;
	}
	for (uint64_t k = 0; k < all; k++)
		v[k] = (uint16_t)(rnd() % 3 == 0 ? rnd() % 50 : 0);
	for (uint64_t h = 0; h < nhist; h++)
		order[h] = h;
	for (uint64_t h = nhist - 1; h > 0; h--) {
		uint64_t k = rnd() % (h + 1), t = order[h];

		order[h] = order[k];
		order[k] = t;
	}
	fwrite("gmon", 1, 4, stdout);
	put(1, 4);
	put(0, 4), put(0, 4), put(0, 4);
	for (uint64_t i = 0; i < (one ? 1 : nhist); i++) {
		uint64_t h = order[i], a = low + h * width;

		put(0, 1);
		put(one ? low : a, ptr);
		put(one ? low + nhist * width : a + width, ptr);
		put(one ? all : nbins, 4);
		put(rate, 4);
		fwrite("seconds\0\0\0\0\0\0\0\0s", 1, 16, stdout);
		for (uint64_t k = 0; k < (one ? all : nbins); k++)
			put(v[(one ? 0 : h * nbins) + k], 2);
	}
	put(1, 1);
	put(low + 16, ptr), put(low + 32, ptr), put(3, 4);
	free(v);
	free(order);
	return 0;
}

static int
cmd_write(char **av)
{
	int bsd = strcmp(av[0], "bsd") == 0;
	int split = strcmp(av[0], "gnusplit") == 0;
	uint64_t low, high, nbins, nhist;
	uint32_t rate;

	big = strcmp(av[1], "be") == 0;
	ptr = atoi(av[2]);
	low = strtoull(av[3], NULL, 0);
	high = strtoull(av[4], NULL, 0);
	nbins = strtoull(av[5], NULL, 0);
	rate = (uint32_t)strtoul(av[6], NULL, 0);
	seed = strtoull(av[7], NULL, 0);
	nhist = strtoull(av[8], NULL, 0);
	if (strcmp(av[0], "many") == 0 || strcmp(av[0], "manyone") == 0)
		return write_many(av[0][4] == 'o', low, high, nbins, rate, nhist);
	if (bsd) {
		put(low, ptr);
		put(high, ptr);
		put(2 * (uint64_t)ptr + 24 + 2 * nbins, 4);
		put(0x00051879, 4);
		put(rate, 4);
		put(0, 4), put(0, 4), put(0, 4);
		bins(nbins);
		for (int i = 0; i < 2; i++)
			put(low + 16 * (unsigned)i, ptr), put(low + 32, ptr),
			    put(7, ptr);
		return 0;
	}
	fwrite("gmon", 1, 4, stdout);
	put(1, 4);
	put(0, 4), put(0, 4), put(0, 4);
	for (uint64_t h = 0; h < nhist; h++) {
		if (split) {	/* the first 40% and the last 40%, split bins */
			uint64_t a = low + (high - low) * 2 / 5;
			uint64_t b = high - (high - low) * 2 / 5;
			hist_record(low, a, nbins / 2, rate);
			hist_record(b, high, nbins / 2, rate);
		} else {
			hist_record(low, high, nbins, rate);
		}
		put(1, 1);	/* an arc between two records */
		put(low + 16, ptr), put(low + 32, ptr), put(3, 4);
	}
	/*
	 * One basic-block record of two blocks: not in big-endian files
	 * with 8-byte addresses, where gprof (2.40) stops reading at it
	 * with "No such file or directory".
	 */
	if (big && ptr == 8)
		return 0;
	put(2, 1);
	put(2, 4);
	put(low, ptr), put(5, ptr), put(low + 8, ptr), put(6, ptr);
	return 0;
}

static const unsigned char *fb;
static size_t fn, fpos;

static uint64_t
get(int len)
{
	uint64_t v = 0;

	if (fn - fpos < (size_t)len) {
		fprintf(stderr, "gmontool: short file\n");
		exit(2);
	}
	for (int i = 0; i < len; i++)
		v |= (uint64_t)fb[fpos + (size_t)i] << 8 * (big ? len - 1 - i : i);
	fpos += (size_t)len;
	return v;
}

struct hist {
	uint64_t low, high, nbins;
	uint32_t rate;
	uint64_t *count;
};

#define MAXH 16
static struct hist hs[MAXH];
static int nh;

/* The histogram over [low, high), added to if seen before. */
static struct hist *
hist_for(uint64_t low, uint64_t high, uint64_t nbins)
{
	for (int i = 0; i < nh; i++)
		if (hs[i].low == low && hs[i].high == high)
			return &hs[i];
	if (nh == MAXH) {
		fprintf(stderr, "gmontool: too many ranges\n");
		exit(2);
	}
	hs[nh].low = low;
	hs[nh].high = high;
	hs[nh].nbins = nbins;
	hs[nh].count = calloc(nbins, 8);
	return &hs[nh++];
}

/* Read the histogram records (added up by range); skip the rest. */
static void
read_gmon(void)
{
	struct hist *h;
	uint64_t low, high, nbins;

	if (fn >= 4 && memcmp(fb, "gmon", 4) == 0) {
		fpos = 20;
		while (fpos < fn) {
			int tag = fb[fpos++];
			if (tag == 0) {
				low = get(ptr);
				high = get(ptr);
				nbins = get(4);
				h = hist_for(low, high, nbins);
				h->rate = (uint32_t)get(4);
				fpos += 16;
				for (uint64_t k = 0; k < h->nbins; k++)
					h->count[k] += get(2);
			} else if (tag == 1) {
				fpos += 2 * (size_t)ptr + 4;
			} else if (tag == 2) {
				fpos += get(4) * 2 * (size_t)ptr;
			} else {
				fprintf(stderr, "gmontool: tag %d\n", tag);
				exit(2);
			}
		}
		return;
	}
	low = get(ptr);
	high = get(ptr);
	nbins = (get(4) - 2 * (uint64_t)ptr - 24) / 2;
	h = hist_for(low, high, nbins);
	get(4);
	h->rate = (uint32_t)get(4);
	fpos = 2 * (size_t)ptr + 24;
	for (uint64_t k = 0; k < h->nbins; k++)
		h->count[k] = get(2);
}

static double
max_d(double a, double b)
{
	return a > b ? a : b;
}

static double
min_d(double a, double b)
{
	return a < b ? a : b;
}

/* Our credit and gprof's for the bins of H in the symbol [s, e). */
static void
credit(const struct hist *h, uint64_t s, uint64_t e, uint64_t *first,
    double *split, double *diff)
{
	double w = (double)((h->high - h->low) / 2) / (double)h->nbins;

	for (uint64_t k = 0; k < h->nbins; k++) {
		/* our rule: the bin's exact first address, rounded down */
		uint64_t start = h->low + (uint64_t)((unsigned __int128)k *
		    (h->high - h->low) / h->nbins);
		double lo = (double)(h->low / 2 + (uint64_t)(w * (double)k));
		double hi = (double)(h->low / 2 +
		    (uint64_t)(w * (double)(k + 1)));
		double ov = min_d(hi, (double)(e / 2)) - max_d(lo,
		    (double)(s / 2));
		double g = ov > 0 ? ov * (double)h->count[k] / w : 0;
		int mine = start >= s && start < e;

		if (mine)
			*first += h->count[k];
		*split += g;
		*diff += mine ? (double)h->count[k] - g > 0 ?
		    (double)h->count[k] - g : g - (double)h->count[k] : g;
	}
}

static int
cmd_model(char **av)
{
	FILE *f = fopen(av[0], "rb"), *sf;
	static unsigned char buf[1 << 24];
	char name[4096], line[8192], type[8];
	unsigned long long a;
	uint64_t *addr = NULL, all = 0, low = UINT64_MAX, high = 0;
	char **names = NULL;
	size_t ns = 0;

	big = strcmp(av[1], "be") == 0;
	ptr = atoi(av[2]);
	if (f == NULL || (fn = fread(buf, 1, sizeof buf, f)) == 0)
		return 2;
	fclose(f);
	fb = buf;
	read_gmon();
	for (int i = 0; i < nh; i++) {
		low = hs[i].low < low ? hs[i].low : low;
		high = hs[i].high > high ? hs[i].high : high;
		for (uint64_t k = 0; k < hs[i].nbins; k++)
			all += hs[i].count[k];
	}
	if ((sf = fopen(av[3], "r")) == NULL)
		return 2;
	while (fgets(line, sizeof line, sf) != NULL) {
		if (sscanf(line, "%llx %7s %4095s", &a, type, name) != 3 ||
		    strchr("TtWw", type[0]) == NULL || a >= high)
			continue;
		if (a < low && ns > 0)	/* keep the last one below */
			free(names[--ns]);
		addr = realloc(addr, (ns + 2) * sizeof *addr);
		names = realloc(names, (ns + 1) * sizeof *names);
		addr[ns] = a;
		names[ns++] = strdup(name);
	}
	fclose(sf);
	if (addr == NULL || nh == 0)
		return 2;
	addr[ns] = high;
	for (size_t i = 0; i < ns; i++) {
		uint64_t first = 0;
		double split = 0, diff = 0;

		for (int j = 0; j < nh; j++)
			credit(&hs[j], addr[i], addr[i + 1], &first, &split,
			    &diff);
		printf("%s %llu %.6f %.6f\n", names[i],
		    (unsigned long long)first, split, diff);
	}
	printf("*total* %llu %u\n", (unsigned long long)all, hs[0].rate);
	for (size_t i = 0; i < ns; i++)
		free(names[i]);
	free(names);
	free(addr);
	for (int i = 0; i < nh; i++)
		free(hs[i].count);
	return 0;
}

static int
cmd_mutate(char **av)
{
	static unsigned char b[1 << 20];
	FILE *f = fopen(av[0], "rb");
	size_t n;
	int k;

	if (f == NULL)
		return 2;
	n = fread(b, 1, sizeof b - 64, f);
	fclose(f);
	seed = strtoull(av[1], NULL, 0) * 2654435761u + 1;
	k = 1 + (int)(rnd() % 4);
	while (k-- > 0 && n > 0) {
		switch (rnd() % 6) {
		case 0: case 1:		/* a header byte */
			b[rnd() % (n < 80 ? n : 80)] = (unsigned char)rnd();
			break;
		case 2:			/* any byte */
			b[rnd() % n] = (unsigned char)rnd();
			break;
		case 3:			/* cut short */
			n = rnd() % n;
			break;
		case 4:			/* a few bytes more */
			for (int i = (int)(rnd() % 40); i > 0; i--)
				b[n++] = (unsigned char)rnd();
			break;
		default:		/* a size field: all ones */
			memset(b + rnd() % (n < 60 ? n : 60), 0xff,
			    n - (n < 60 ? n : 60) >= 4 ? 4 : 1);
		}
	}
	fwrite(b, 1, n, stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "mutate") == 0)
		return cmd_mutate(argv + 2);
	if (argc == 11 && strcmp(argv[1], "write") == 0)
		return cmd_write(argv + 2);
	if (argc == 6 && strcmp(argv[1], "model") == 0)
		return cmd_model(argv + 2);
	fprintf(stderr, "usage: gmontool write FORMAT ORDER PTR LOW HIGH "
	    "NBINS RATE SEED NHIST\n       gmontool mutate FILE SEED\n"
	    "       gmontool model FILE ORDER PTR MAP\n");
	return 2;
}
