/*
 * fuzz_elf.c - libFuzzer harness for the ELF symbol reader.
 *
 * Every input is read as an ELF file from memory.  A fatal error (a bad
 * file) comes back here through the fatal hook and longjmp; otherwise every
 * symbol handed out is checked: addresses never go down, a name is
 * non-empty and NUL-terminated where its length says, the kind follows
 * the type letter, nm's letters only, and a kernel image holds nothing
 * scripts/mksysmap would drop.  ASan catches any read outside the input.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/elfsym.h"
#include "base/util.h"

static jmp_buf fatal_env;

static void
on_fatal(void *ctx)
{
	(void)ctx;
	longjmp(fatal_env, 1);
}

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
	abort(); } } while (0)

/*
 * A fatal error leaves elf_open_mem() by longjmp, dropping what it had
 * allocated (in the program, exit() follows).  The library's allocations
 * are routed through here (-Wl,--wrap) and freed after a fatal error.
 */
void *__real_xmalloc(size_t n);
void *__real_xrealloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_xmalloc(size_t n);
void *__wrap_xrealloc(void *p, size_t n);
void __wrap_free(void *p);

#define NLIVE 64
static void *live[NLIVE];

static void
untrack(void *p)
{
	for (int i = 0; p && i < NLIVE; i++)
		if (live[i] == p) {
			live[i] = NULL;
			return;
		}
}

static void
track(void *p)
{
	for (int i = 0; i < NLIVE; i++)
		if (live[i] == NULL) {
			live[i] = p;
			return;
		}
	abort();
}

void *
__wrap_xmalloc(size_t n)
{
	void *p = __real_xmalloc(n);

	track(p);
	return p;
}

void *
__wrap_xrealloc(void *p, size_t n)
{
	untrack(p);
	p = __real_xrealloc(p, n);
	track(p);
	return p;
}

void
__wrap_free(void *p)
{
	untrack(p);
	__real_free(p);
}

static void
free_leftovers(void)
{
	for (int i = 0; i < NLIVE; i++)
		if (live[i] != NULL) {
			__real_free(live[i]);
			live[i] = NULL;
		}
}

static int
dropped_by_kernel_filter(const struct sym *s)
{
	const char *n = s->name;

	return strchr("aNUw", s->type) != NULL || n[0] == '$' ||
	    strncmp(n, ".L", 2) == 0 || strncmp(n, "__crc_", 6) == 0 ||
	    strncmp(n, "__kstrtab_", 10) == 0 ||
	    strncmp(n, "__kstrtabns_", 12) == 0 || strcmp(n, "L0") == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct elf *e;
	struct sym s;
	uint64_t prev = 0;
	size_t n = 0;

	fatal_hook_set(on_fatal, NULL);
	e = NULL;
	if (setjmp(fatal_env) != 0) {
		free_leftovers();
		return 0;
	}
	e = elf_open_mem("fuzz.elf", data, size);
	while (elf_next(e, &s)) {
		CHECK(s.addr >= prev);
		prev = s.addr;
		CHECK(s.namelen > 0);
		CHECK(strlen(s.name) == s.namelen);
		CHECK(s.kind == map_kind(s.type));
		CHECK(strchr("AaBbCDdEeNnPpRrTtVWiuIi?", s.type) != NULL);
		CHECK(!elf_is_kernel(e) || !dropped_by_kernel_filter(&s));
		n++;
	}
	CHECK(n == elf_count(e));
	elf_close(e);
	for (int i = 0; i < NLIVE; i++)
		CHECK(live[i] == NULL);
	return 0;
}
