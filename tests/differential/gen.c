/*
 * gen.c - random inputs for the differential test.
 *
 *   gen SEED DIR     writes DIR/profile and DIR/map
 *
 * The pair is built so that the classic readprofile handles it in a
 * well-defined way (no reads outside the profile, no 32-bit overflow of
 * the total, no malformed map lines), under every option and with or
 * without -n:
 *   - the profile has M >= 1 counters after the step word;
 *   - every text symbol after _stext lies in [_stext, _stext + (M+1)*step),
 *     addresses never go down, and only a last symbol of a map without
 *     _etext may reach word M (the last word, then counted twice);
 *   - _etext, when present, is at _stext + M*step + r (r < step), so the
 *     map matches the profile (floor((_etext - _stext) / step) == M);
 *   - most counters are below 65536, so the byte order is always guessed
 *     right; the first 16 counters have a low byte below 16, so even read
 *     in the wrong byte order (-n on a big-endian file, where the step is
 *     huge and only the first few words are counted) the total fits;
 *   - the total of all counters stays below 2^31;
 *   - map lines are short, and fields are separated by spaces, or by tabs
 *     in the places where the classic parser accepts them;
 *   - one profile in five ends in 1 to 3 stray bytes after its last whole
 *     word (a snapshot cut short), which both readers leave out.  They are
 *     drawn last, so that the seed gives the same words and map either way.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static uint64_t range(uint64_t lo, uint64_t hi)
{
	return lo + rnd() % (hi - lo + 1);
}

/* true with probability pct percent */
static int chance(unsigned pct)
{
	return rnd() % 100 < pct;
}

static FILE *map;

static void name(char *buf, size_t len)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyz_";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyz_0123456789.";
	size_t n = chance(5) ? range(40, 70) : range(1, 30);
	size_t i;

	if (n + 3 > len)
		n = len - 3;
	buf[0] = 'f';		/* never clashes with _stext, _etext, ... */
	buf[1] = first[range(0, sizeof first - 2)];
	for (i = 2; i < n + 2; i++)
		buf[i] = rest[range(0, sizeof rest - 2)];
	buf[i] = '\0';
}

/* Write one map line: ADDRESS TYPE NAME [EXTRA], with random layout. */
static void line(uint64_t addr, const char *type, const char *sym,
		 const char *extra)
{
	static const char *lead[] = { "", "", "", "", " ", "\t", "  \t" };
	static const char *sep1[] = { " ", " ", " ", "\t", "  " };
	static const char *sep2[] = { " ", " ", " ", "  ", " \t", "\t " };
	char buf[32];

	if (chance(10))
		snprintf(buf, sizeof buf, "%08llx", (unsigned long long)addr);
	else
		snprintf(buf, sizeof buf, "%016llx", (unsigned long long)addr);
	if (chance(10))
		for (char *p = buf; *p; p++)
			if (*p >= 'a' && *p <= 'f')
				*p = (char)(*p - 'a' + 'A');
	fprintf(map, "%s%s%s%s%s%s%s\n", lead[range(0, 6)], buf,
		sep1[range(0, 4)], type, sep2[range(0, 5)], sym,
		extra ? extra : "");
}

static const char *text_type(void)
{
	static const char *t[] = { "T", "T", "T", "t", "t", "W", "w" };
	return t[range(0, 6)];
}

static void put32(FILE *f, uint32_t v, int big)
{
	unsigned char b[4];
	for (int i = 0; i < 4; i++)
		b[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, 4, f);
}

static uint32_t pick_step(void)
{
	static const uint32_t odd[] = { 3, 5, 6, 12, 24, 48, 100, 255 };
	if (chance(80))
		return 1u << range(0, 8);
	if (chance(50))
		return odd[range(0, 7)];
	return (uint32_t)range(3, 255);
}

int main(int argc, char **argv)
{
	char path[4096], sym[80];
	if (argc != 3) {
		fprintf(stderr, "usage: gen SEED DIR\n");
		return 2;
	}
	rng_state = strtoull(argv[1], NULL, 0) * 0x2545f4914f6cdd1dULL + 1;

	/* The profile. */
	uint32_t step = pick_step();
	size_t m = chance(50) ? range(1, 64) : chance(80) ? range(65, 500)
							    : range(501, 3000);
	uint32_t *cnt = calloc(m, sizeof *cnt);
	if (!cnt)
		return 1;
	uint64_t sum = 0;
	size_t zero_start = chance(30) ? range(1, m) : 0;
	for (size_t i = 0; i < m; i++) {
		uint32_t v;
		if (i < zero_start || chance(25)) {
			/* a run of zeros */
			size_t run = range(0, 20);
			for (; run && i < m; run--, i++)
				cnt[i] = 0;
			if (i >= m)
				break;
		}
		if (chance(2))
			v = (uint32_t)range(65536, 1u << 22);
		else if (chance(10))
			v = (uint32_t)range(100, 20000);
		else
			v = (uint32_t)range(0, 20);
		if (i < 16)
			v &= ~0xf0u;	/* see the header comment */
		if (sum + v >= (1u << 31))
			v = 0;
		sum += v;
		cnt[i] = v;
	}
	/* Counters with low bits must outnumber those with high bits. */
	size_t lo = 0, hi = 0;
	for (size_t i = 0; i < m; i++) {
		lo += (cnt[i] & 0xffff) != 0;
		hi += (cnt[i] >> 16) != 0;
	}
	for (size_t i = 0; lo <= hi && i < m; i++) {
		if (cnt[i] >> 16)
			hi--;
		if (!(cnt[i] & 0xffff))
			lo++;
		cnt[i] = 1;
	}
	int big = chance(50);
	snprintf(path, sizeof path, "%s/profile", argv[2]);
	FILE *prof = fopen(path, "wb");
	if (!prof) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	put32(prof, step, big);
	for (size_t i = 0; i < m; i++)
		put32(prof, cnt[i], big);
	if (fclose(prof) != 0)
		return 1;

	/* The map. */
	snprintf(path, sizeof path, "%s/map", argv[2]);
	map = fopen(path, "w");
	if (!map) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	uint64_t origin = chance(15) ? range(0x1000, 0xc1000000)
				     : 0xffffffff80000000ULL + range(0, 0x3ffffff);
	for (uint64_t n = range(0, 3); n > 0; n--) {
		name(sym, sizeof sym);
		line(range(0, 0x40000), chance(80) ? "A" : "?", sym, NULL);
	}
	if (chance(30)) {
		name(sym, sizeof sym);
		line(origin - range(1, 0x1000), chance(50) ? "T" : "D", sym, NULL);
	}
	line(origin, chance(80) ? "T" : "t", chance(70) ? "_stext" : "__stext",
	     NULL);

	int has_etext = chance(70);
	/* _etext, or the end of the last bucket (index m, read up to word m-1) */
	uint64_t limit = origin + (uint64_t)m * step + range(0, step - 1);
	uint64_t addr = origin;
	size_t nsyms = chance(80) ? range(0, 60) : range(61, 300);
	int ended = 0;		/* a data symbol ended the report */
	for (size_t i = 0; i < nsyms && !ended; i++) {
		uint64_t gap, room = limit - addr;
		unsigned r = (unsigned)range(0, 99);
		if (r < 10)
			gap = 0;
		else if (r < 50)
			gap = range(1, 3 * (uint64_t)step);
		else if (r < 90)
			gap = range(1, 8) * step;
		else
			gap = range(0, room / 2 + 1);
		if (gap > room)
			break;
		addr += gap;
		if (chance(4)) {	/* skipped while total is 0, else ends */
			name(sym, sizeof sym);
			line(chance(50) ? addr : range(0, 0x40000),
			     chance(70) ? "A" : "?", sym, NULL);
		}
		if (chance(3))
			line(addr, chance(70) ? "A" : "?", "__init_end", NULL);
		if (chance(2)) {
			static const char *data[] = { "D", "d", "B", "b", "R", "r" };
			name(sym, sizeof sym);
			line(addr + range(0, 0x100000), data[range(0, 5)], sym, NULL);
			ended = 1;
			break;
		}
		name(sym, sizeof sym);
		line(addr, text_type(), sym, chance(5) ? " [mod]" : NULL);
	}
	if (!has_etext && !ended && chance(20)) {
		/* a last symbol in the bucket after the profile: the one before
		 * it then also counts the last word (printed as *unknown*) */
		name(sym, sizeof sym);
		line(origin + (uint64_t)(m + 1) * step + range(0, step - 1),
		     text_type(), sym, NULL);
	}
	if (has_etext)
		line(limit, "T",
		     chance(70) ? "_etext" : "__etext", NULL);
	if (has_etext || ended) {
		/* never read: anything may follow */
		for (uint64_t n = range(0, 4); n > 0; n--) {
			name(sym, sizeof sym);
			line(rnd(), chance(50) ? "t" : "D", sym,
			     chance(50) ? "\t[some_module]" : NULL);
		}
	}
	free(cnt);
	if (fclose(map) != 0)
		return 1;

	/* A trailing partial word. */
	if (chance(20)) {
		snprintf(path, sizeof path, "%s/profile", argv[2]);
		prof = fopen(path, "ab");
		if (!prof)
			return 1;
		for (uint64_t n = range(1, 3); n > 0; n--)
			fputc((int)range(0, 255), prof);
		if (fclose(prof) != 0)
			return 1;
	}
	return 0;
}
