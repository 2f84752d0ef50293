/* sniff.c - what an input that is not a profile or a map looks like. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/sniff.h"
#include "base/util.h"

static const struct {
	unsigned char magic[SNIFF_MAX];
	size_t len;
	struct sniff kind;
} magics[] = {
	{ { 0x7f, 'E', 'L', 'F' }, 4, { "an ELF file", NULL, NULL, 0 } },
	{ { 0x1f, 0x8b }, 2, { "gzip-compressed data", "gzip", ".gz", 0 } },
	{ { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, { "xz-compressed data", "xz", ".xz", 0 } },
	{ { 0x28, 0xb5, 0x2f, 0xfd }, 4, { "zstd-compressed data", "zstd", ".zst", 0 } },
	{ { 'B', 'Z', 'h' }, 3, { "bzip2-compressed data", "bzip2", ".bz2", 0 } },
};

const struct sniff *
sniff_binary(const unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (n >= magics[i].len &&
		    memcmp(buf, magics[i].magic, magics[i].len) == 0)
			return &magics[i].kind;
	return NULL;
}

const struct sniff *
sniff_suffix(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
		const char *s = magics[i].kind.suffix;

		if (s != NULL && n > strlen(s) &&
		    strcmp(name + n - strlen(s), s) == 0)
			return &magics[i].kind;
	}
	return NULL;
}

const struct sniff *
sniff_text(int nul, int nl, size_t n)
{
	static const struct sniff nuls = { "NUL bytes", NULL, NULL, 1 };
	static const struct sniff lines = { "no line end", NULL, NULL, 1 };

	if (nul)
		return &nuls;
	return !nl && n >= SNIFF_TEXT ? &lines : NULL;
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
	static const struct sniff text = { "text", NULL, NULL, 0 };
	const struct sniff *k = sniff_binary(buf, n);

	return k == NULL && is_text(buf, n) ? &text : k;
}

/* What to do about K, for input NAME (a static buffer). */
static const char *
advice(const char *name, const struct sniff *k)
{
	static char buf[128];

	if (k->tool && strcmp(name, "-") == 0)
		snprintf(buf, sizeof buf, "; pipe it through %s -dc", k->tool);
	else if (k->tool)
		snprintf(buf, sizeof buf, "; decompress it, or give it a name "
		    "ending in %s", k->suffix);
	else
		buf[0] = '\0';
	return buf;
}

void
sniff_profile_size(const char *name, uint64_t size,
    const unsigned char *head, size_t n)
{
	const struct sniff *k = sniff(head, n);

	if (k != NULL)
		fatalx("%s: not a kernel profile: it is %s (%llu bytes, not a "
		    "whole number of 32-bit words)%s", name, k->what,
		    (unsigned long long)size, advice(name, k));
}

void
sniff_profile_step(const char *name, uint32_t step,
    const unsigned char *head, size_t n)
{
	const struct sniff *k = sniff(head, n);

	if (k == NULL)
		warnx_("warning: %s does not look like a kernel profile: its "
		    "sampling step %u is not a power of two", name, step);
	else
		warnx_("warning: %s does not look like a kernel profile: it is "
		    "%s (sampling step %u is not a power of two)%s", name,
		    k->what, step, advice(name, k));
}

void
sniff_map_fatal(const char *name, const struct sniff *k, const char *fmt, ...)
{
	char msg[8192];
	const char *shown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (k == NULL)
		fatalx("%s", msg);
	warnx_("%s", msg);
	shown = strcmp(name, "-") == 0 ? "standard input" : name;
	if (k->not_text)
		fatalx("%s is not a symbol map: it is neither text (%s in its "
		    "first %zu KiB) nor an ELF file", shown, k->what,
		    SNIFF_TEXT >> 10);
	fatalx("%s is %s, not a symbol map%s", shown, k->what, advice(name, k));
}
