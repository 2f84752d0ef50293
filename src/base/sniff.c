/*
 * sniff.c - what an input that is not a profile or a map looks like.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hist/profile.h"
#include "base/sniff.h"
#include "base/util.h"

static const struct {
	unsigned char magic[6];
	size_t len;
	struct sniff kind;
} magics[] = {
	{ { 0x7f, 'E', 'L', 'F' }, 4, { "an ELF file", NULL, NULL } },
	{ { 0x1f, 0x8b }, 2, { "gzip-compressed data", "gzip", ".gz" } },
	{ { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, { "xz-compressed data", "xz", ".xz" } },
	{ { 0x28, 0xb5, 0x2f, 0xfd }, 4, { "zstd-compressed data", "zstd", ".zst" } },
	{ { 'B', 'Z', 'h' }, 3, { "bzip2-compressed data", "bzip2", ".bz2" } },
};

static const struct sniff text = { "text", NULL, NULL };

const struct sniff *
sniff_binary(const unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (n >= magics[i].len &&
		    memcmp(buf, magics[i].magic, magics[i].len) == 0)
			return &magics[i].kind;
	return NULL;
}

/* Printable ASCII and white space only, with at least one newline. */
static int
is_text(const unsigned char *buf, size_t n)
{
	int nl = 0;

	for (size_t i = 0; i < n; i++) {
		if ((buf[i] < 0x20 || buf[i] > 0x7e) && buf[i] != '\n' &&
		    buf[i] != '\t' && buf[i] != '\r')
			return 0;
		nl |= buf[i] == '\n';
	}
	return nl;
}

const struct sniff *
sniff(const unsigned char *buf, size_t n)
{
	const struct sniff *k = sniff_binary(buf, n);

	if (k == NULL && is_text(buf, n))
		k = &text;
	return k;
}

/* The first bytes of P, into BUF[0..n); returns how many. */
static size_t
head(const struct profile *p, unsigned char *buf, size_t n)
{
	ssize_t r;

	if (n > p->bytes)
		n = (size_t)p->bytes;
	if (p->data) {
		memcpy(buf, p->data, n);
		return n;
	}
	do
		r = pread(p->in.fd, buf, n, 0);
	while (r < 0 && errno == EINTR);
	return r > 0 ? (size_t)r : 0;
}

static const struct sniff *
sniff_profile(const struct profile *p)
{
	unsigned char buf[256];

	return sniff(buf, head(p, buf, sizeof buf));
}

/* What to do about K, for input NAME. */
static void
advice(const char *name, const struct sniff *k, char *buf, size_t n)
{
	if (k->tool && strcmp(name, "-") == 0)
		snprintf(buf, n, "; pipe it through %s -dc", k->tool);
	else if (k->tool)
		snprintf(buf, n, "; decompress it, or give it a name ending in "
		    "%s", k->suffix);
	else
		buf[0] = '\0';
}

void
sniff_profile_size(const struct profile *p)
{
	const struct sniff *k = sniff_profile(p);
	char adv[128];

	if (k == NULL)
		return;
	advice(p->name, k, adv, sizeof adv);
	fatalx("%s: not a kernel profile: it is %s (%llu bytes, not a whole "
	    "number of 32-bit words)%s", p->name, k->what,
	    (unsigned long long)p->bytes, adv);
}

void
sniff_profile_step(const struct profile *p)
{
	const struct sniff *k;
	char adv[128];

	if (p->step == 0 || (p->step & (p->step - 1)) == 0)
		return;
	k = sniff_profile(p);
	if (k == NULL) {
		warnx_("warning: %s does not look like a kernel profile: its "
		    "sampling step %u is not a power of two", p->name, p->step);
		return;
	}
	advice(p->name, k, adv, sizeof adv);
	warnx_("warning: %s does not look like a kernel profile: it is %s "
	    "(sampling step %u is not a power of two)%s", p->name, k->what,
	    p->step, adv);
}

void
sniff_map_fatal(const char *name, const struct sniff *k, const char *msg)
{
	char adv[128];

	if (k == NULL)
		fatalx("%s", msg);
	warnx_("%s", msg);
	advice(name, k, adv, sizeof adv);
	fatalx("%s is %s, not a symbol map%s", strcmp(name, "-") == 0 ?
	    "standard input" : name, k->what, adv);
}
