/* demangle.c - __cxa_demangle from libstdc++, loaded when first needed. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "sym/demangle.h"
#include "base/util.h"

/* ---- the bound ----------------------------------------------------------- */

/* The bound, read by the Itanium C++ ABI's grammar.  A demangled name can
 * be exponentially longer than its mangled form: a substitution (S_, S0_,
 * ...) or a template parameter (T_, ...) prints an earlier part again,
 * which may hold substitutions of its own.  Each is bounded by the
 * longest part read so far (for a template parameter, which may name a
 * later argument, that of the last pass): never less than the part meant.
 * A construct the reader does not know leaves the name mangled. */
#define SAT ((uint64_t)1 << 40)		/* "too long", and no overflow */
#define MAXDEPTH 256

struct bound {
	const char *p, *e;
	uint64_t *sub;		/* the substitution candidates so far */
	uint64_t nsub;
	uint64_t *targ;		/* by place: the longest template argument */
	uint64_t *prevtarg;	/* the same, at the end of the last pass */
	uint64_t nmax;		/* places, and candidates at most */
	uint64_t pack;		/* the most arguments of a pack (J ... E) */
	uint64_t prevpack;	/* the same, at the end of the last pass */
	uint64_t maxsrc;	/* the longest source name: a constructor's */
	int tname;		/* reading the name of an encoding */
	int depth, fail;
};

static uint64_t b_type(struct bound *b);
static uint64_t b_expr(struct bound *b);
static uint64_t b_parts(struct bound *b, const char *spec);

static uint64_t
add(uint64_t a, uint64_t c)
{
	return a + c >= SAT ? SAT : a + c;
}

/* The name refused: the reader is at its end, and reads no further. */
static uint64_t
bad(struct bound *b)
{
	b->fail = 1;
	b->p = b->e;
	return 0;
}

/* N, the next candidate a substitution (S_, S0_, ...) may print again. */
static uint64_t
addsub(struct bound *b, uint64_t n)
{
	if (b->nsub >= b->nmax)
		return bad(b);
	b->sub[b->nsub++] = n;
	return n;
}

static int
peek(const struct bound *b, int k)
{
	return b->e - b->p > k ? (unsigned char)b->p[k] : 0;
}

static int
eat(struct bound *b, char c)
{
	if (peek(b, 0) != c)
		return 0;
	b->p++;
	return 1;
}

/* A decimal number; its digits (n, the optional negative sign). */
static uint64_t
b_number(struct bound *b, uint64_t *v)
{
	const char *s = b->p;

	*v = 0;
	eat(b, 'n');
	for (; isdigit(peek(b, 0)); b->p++)
		*v = add(*v * 10, (uint64_t)(*b->p - '0'));
	return (uint64_t)(b->p - s);
}

/* The bytes of SET at B, skipped: how many. */
static uint64_t
b_span(struct bound *b, const char *set)
{
	const char *s = b->p;

	while (peek(b, 0) != 0 && strchr(set, peek(b, 0)) != NULL)
		b->p++;
	return (uint64_t)(b->p - s);
}

/* <seq-id>? _ : digits in RADIX (S_'s 36: 0-9A-Z; T_'s 10), then _; in
 * *I 0 for _ alone, else the number + 1 (at most NMAX). */
static int
b_seq(struct bound *b, uint64_t *i, unsigned radix)
{
	const char *s = b->p;
	uint64_t v = 0;
	int c;

	for (; isdigit(c = peek(b, 0)) || (radix == 36 && isupper(c));
	    b->p++) {
		v = v * radix + (uint64_t)(isdigit(c) ? c - '0' : c - 'A' + 10);
		if (v >= b->nmax)
			v = b->nmax;
	}
	*i = b->p == s ? 0 : v + 1;
	return eat(b, '_');
}

/* <source-name> ::= <number> <identifier> */
static uint64_t
b_source_name(struct bound *b)
{
	uint64_t n;

	if (!isdigit(peek(b, 0)) || b_number(b, &n) == 0 ||
	    n > (uint64_t)(b->e - b->p))
		return bad(b);
	b->p += n;
	if (n + 22 > b->maxsrc)
		b->maxsrc = n + 22;
	return n + 22;	/* "(anonymous namespace)" for _GLOBAL__N */
}

/* Types up to E, '.' or the end of the name: a parameter list. */
static uint64_t
b_types(struct bound *b)
{
	uint64_t n = 2;

	while (b->p < b->e && peek(b, 0) != 'E' && peek(b, 0) != '.') {
		if ((peek(b, 0) == 'R' || peek(b, 0) == 'O') &&
		    peek(b, 1) == 'E') {	/* a function type's & or && */
			b->p++;
			n = add(n, 3);
			continue;
		}
		n = add(n, add(b_type(b), 2));
	}
	return n;
}

/* Codes of two letters, and what each prints at most around its parts. */
struct code {
	const char *codes;	/* two letters each */
	uint64_t base;
	const char *spec;	/* the parts (b_parts) */
};

/* The code at B among T, and its parts. */
static uint64_t
b_code(struct bound *b, const struct code *t)
{
	int c = peek(b, 0), d = peek(b, 1);

	for (; t->codes != NULL; t++)
		for (const char *s = t->codes; *s != '\0'; s += 2)
			if (s[0] == c && s[1] == d) {
				b->p += 2;
				return add(t->base, b_parts(b, t->spec));
			}
	return bad(b);
}

/* <special-name>s */
static const struct code specials[] = {
	{ "TVTTTITSTA", 64, "t" },	/* vtable, VTT, typeinfo, its name */
	{ "THTW", 64, "N" },		/* TLS init function, wrapper */
	{ "TC", 64, "tn_t" },		/* construction vtable */
	{ "Th", 64, "n_C" },		/* thunks: non-virtual, virtual, */
	{ "Tv", 64, "n_n_C" },
	{ "Tc", 64, "ooC" },		/* covariant */
	{ "GV", 64, "N" },		/* guard variable */
	{ "GR", 64, "Ns" },		/* reference temporary */
	{ "GA", 64, "C" },		/* hidden alias */
	{ "GT", 64, "?t?nC" },		/* transaction clone: GTt, GTn */
	{ NULL, 0, NULL }
};

/* Types whose code begins with D (but Dp and Dv) */
static const struct code dtypes[] = {
	{ "DtDT", 12, "eE" },		/* decltype (expression) */
	{ "DxDo", 24, "t" },		/* transaction_safe, noexcept */
	{ "DO", 24, "eEt" },		/* noexcept (expression) */
	{ "Dw", 24, "lEt" },		/* throw (types) */
	{ "DFDBDU", 40, "n_" },		/* _FloatN, _BitInt(N) */
	{ "DaDcDdDeDfDhDiDsDuDn", 32, "" },	/* decltype(nullptr), ... */
	{ NULL, 0, NULL }
};

/* {unnamed type#N}, {lambda(PARAMS)#N}, [a, b] (a structured binding) */
static const struct code unnamed[] = {
	{ "Ut", 40, "n_" },
	{ "Ul", 40, "lEn_" },
	{ "DC", 2, "*S" },
	{ NULL, 0, NULL }
};

/* Operators of expressions (but cv and sr) */
static const struct code operators[] = {
	{ "psngaddecontsztwsZspazgs", 16, "e" },
	{ "ppmm", 16, "_e" },		/* pp_, mm_: the prefix forms */
	{ "plmimldvrmanoreoaSpLmImLdVrMaNoReOlsrslSrSeqneltgtlegessaaoocm"
	    "pmdsix", 16, "ee" },
	{ "qu", 16, "eee" },
	{ "stat", 16, "t" },		/* sizeof, alignof (type) */
	{ "clilsP", 18, "*e" },		/* call, {...}, sizeof...(pack) */
	{ "tl", 18, "t*e" },		/* type{...} */
	{ "dtpt", 16, "eu" },		/* a.b, a->b */
	{ "tr", 16, "" },		/* throw */
	{ NULL, 0, NULL }
};

/* A discriminator, _ <digit> or __ <number> _ or none: not printed. */
static void
b_discriminator(struct bound *b)
{
	if (!eat(b, '_'))
		return;
	if (eat(b, '_'))
		b_parts(b, "n_");
	else if (isdigit(peek(b, 0)))
		b->p++;
	else
		bad(b);
}

/* S_, S0_, ...: the part it names; Sa, Ss, ...: std::allocator and the
 * like, in full; T_, T0_, ...: the longest argument of that place. */
static uint64_t
b_ref(struct bound *b)
{
	int c = *b->p++, d = peek(b, 0);
	uint64_t i;

	if (c == 'S' && islower(d)) {
		b->p++;
		if (b->maxsrc < 80)	/* a constructor's: "basic_istream" */
			b->maxsrc = 80;
		return d == 't' ? 5 : 80;
	}
	if (!b_seq(b, &i, c == 'S' ? 36 : 10) ||
	    i >= (c == 'S' ? b->nsub : b->nmax))
		return bad(b);
	if (c == 'S')
		return b->sub[i];
	return b->targ[i] > b->prevtarg[i] ? b->targ[i] : b->prevtarg[i];
}

/* I <template-arg>+ E: <A, B, ...>; J <template-arg>* E (a pack): A, B, ... */
static uint64_t
b_template_args(struct bound *b)
{
	uint64_t n = 0, i = 0, a;
	int rec = b->tname, pack = *b->p++ == 'J';

	while (b->p < b->e && peek(b, 0) != 'E') {
		if (++b->depth > MAXDEPTH)
			return bad(b);
		/* <template-arg>: X <expr> E, a literal, J ... E, a type */
		a = eat(b, 'X') ? b_parts(b, "eE") : peek(b, 0) == 'L' ?
		    b_expr(b) : peek(b, 0) == 'J' ? b_template_args(b) :
		    b_type(b);
		b->depth--;
		if (rec && !pack && a > b->targ[i])
			b->targ[i] = a;
		i++;
		n = add(n, add(a, 2));
	}
	if (pack && i > b->pack)
		b->pack = i;
	return eat(b, 'E') ? add(n, pack ? 0 : 3) : bad(b);
}

/* <unqualified-name>: a constructor prints a class's name again. */
static uint64_t
b_unqualified(struct bound *b)
{
	int c = peek(b, 0), d = peek(b, 1);
	uint64_t n;

	if (isdigit(c) || eat(b, 'L')) {
		n = b_source_name(b);
		if (c == 'L')
			b_discriminator(b);
	} else if (c == 'C' && (isdigit(d) || d == 'I')) {
		b->p += 2;
		if (d == 'I') {
			if (!isdigit(peek(b, 0)))
				return bad(b);
			b->p++;
			b_type(b);	/* the inheriting constructor's base */
		}
		n = b->maxsrc;
	} else if (c == 'D' && isdigit(d)) {
		b->p += 2;
		n = add(b->maxsrc, 1);
	} else if (c == 'U' || (c == 'D' && d == 'C')) {
		n = b_code(b, unnamed);
	} else if (c == 'v' && isdigit(d)) {	/* a vendor's operator */
		b->p += 2;
		n = add(b_source_name(b), 10);
	} else if (islower(c) && isalpha(d)) {
		/* <operator-name>: cv <type>, li <source-name>, or two
		 * letters, "operator reinterpret_cast" (25) and shorter */
		b->p += 2;
		n = c == 'c' && d == 'v' ? add(b_type(b), 10) :
		    c == 'l' && d == 'i' ? add(b_source_name(b), 12) : 32;
	} else {
		return bad(b);
	}
	while (eat(b, 'B'))	/* ABI tags: B <source-name>, [abi:NAME] */
		n = add(n, add(b_source_name(b), 8));
	return n;
}

/* N [<CV-qualifiers>] [<ref-qualifier>] <prefix> E: A::B<C>::D, each
 * part a candidate with those before it, but the last (the name's own). */
static uint64_t
b_nested(struct bound *b)
{
	uint64_t n = 0, q;

	b->p++;
	q = 9 * b_span(b, "rVKROH");	/* " volatile" and shorter, each */
	while (b->p < b->e && peek(b, 0) != 'E') {
		int c = peek(b, 0), d = peek(b, 1);

		if (eat(b, 'M'))	/* a data member's initializer */
			continue;
		if (c == 'I')
			n = add(n, b_template_args(b));
		else if (c == 'S' || c == 'T')
			n = add(n, b_ref(b));
		else if (c == 'D' && (d == 't' || d == 'T'))
			n = add(n, addsub(b, b_code(b, dtypes)));
		else
			n = add(n, b_unqualified(b));
		n = add(n, 2);
		if (c != 'S' && peek(b, 0) != 'E')	/* S_ is one already */
			addsub(b, n);
	}
	return eat(b, 'E') ? add(n, add(q, 32)) : bad(b);
}

/* <name>; a candidate when SUBSTABLE (a type's name, not a function's). */
static uint64_t
b_name(struct bound *b, int substable)
{
	uint64_t n;
	int c = peek(b, 0), sub = 0;

	if (++b->depth > MAXDEPTH)
		return bad(b);
	if (c == 'N') {
		n = b_nested(b);
	} else if (c == 'Z') {
		/* Z <encoding> E <name> [<discriminator>], or E s, or E d
		 * [N] _ <name> */
		n = b_parts(b, "ZCE");
		if (eat(b, 's')) {
			n = add(n, 20);		/* ::string literal */
		} else {
			if (eat(b, 'd'))
				b_parts(b, "n_");
			n = add(n, add(b_name(b, 0), 2));
		}
		b_discriminator(b);
	} else if (c == 'S' && peek(b, 1) == 't') {
		b->p += 2;
		n = add(5, b_unqualified(b));
	} else if (c == 'S') {
		n = b_ref(b);
		sub = 1;
	} else {
		n = b_unqualified(b);
	}
	if (peek(b, 0) == 'I') {	/* <unscoped-template-name> <args> */
		if (!sub)
			addsub(b, n);
		n = add(n, b_template_args(b));
		sub = 0;
	}
	if (substable && !sub)
		addsub(b, n);
	b->depth--;
	return n;
}

static uint64_t
b_type(struct bound *b)
{
	uint64_t n, k;
	int c = peek(b, 0), d = peek(b, 1), tname = b->tname;

	if (c != 0 && strchr("vwbcahstijlmxynofdegz", c) != NULL) {
		b->p++;
		return 20;	/* unsigned __int128, ... */
	}
	if (++b->depth > MAXDEPTH)
		return bad(b);
	b->tname = 0;
	if (c == 'r' || c == 'V' || c == 'K') {
		n = 9 * b_span(b, "rVK");
		/* a member function's qualifiers: F...E is no candidate */
		n = add(n, peek(b, 0) == 'F' ? add(b_parts(b, "F?YlE"), 24) :
		    b_type(b));
		n = addsub(b, n);
	} else if (c == 'P' || c == 'R' || c == 'O' || c == 'C' || c == 'G') {
		b->p++;
		n = addsub(b, add(b_type(b), 12));
	} else if (c == 'M') {		/* a pointer to member */
		n = addsub(b, add(b_parts(b, "Mtt"), 8));
	} else if (c == 'u') {		/* a vendor's type */
		b->p++;
		n = addsub(b, b_source_name(b));
	} else if (c == 'F') {	/* F [Y] <bare-function-type> [<ref-qual>] E */
		n = addsub(b, add(b_parts(b, "F?YlE"), 24));
	} else if (c == 'A') {		/* A [<number> | <expr>] _ <type> */
		b->p++;
		n = isdigit(peek(b, 0)) ? b_parts(b, "n") :
		    peek(b, 0) != '_' ? b_expr(b) : 0;
		n = addsub(b, add(add(n, 4), b_parts(b, "_t")));
	} else if (c == 'D' && d == 'p') {	/* a pack: once per argument */
		b->p += 2;
		/* which may raise the pack's count; no pack: "(T)..." */
		n = add(b_type(b), 5);
		k = (b->pack > b->prevpack ? b->pack : b->prevpack) + 1;
		n = addsub(b, n > SAT / k ? SAT : n * k);
	} else if (c == 'D' && d == 'v') {	/* a vector */
		b->p += 2;
		n = eat(b, '_') ? b_expr(b) : b_parts(b, "n");
		n = addsub(b, add(add(n, 24), b_parts(b, "_t")));
	} else if (c == 'D') {
		n = b_code(b, dtypes);
		if (d == 't' || d == 'T')
			n = addsub(b, n);
	} else if (c == 'T' || (c == 'S' && (isdigit(d) || d == '_' ||
	    isupper(d)))) {
		n = c == 'T' ? addsub(b, b_ref(b)) : b_ref(b);
		if (peek(b, 0) == 'I')
			n = addsub(b, add(n, b_template_args(b)));
	} else if (isdigit(c) || c == 'N' || c == 'Z' || c == 'S') {
		n = b_name(b, 1);
	} else {
		n = bad(b);
	}
	b->tname = tname;
	b->depth--;
	return n;
}

/* An unresolved name: <unqualified-name> [<template-args>] */
static uint64_t
b_unresolved(struct bound *b)
{
	uint64_t n;

	if ((peek(b, 0) == 'o' || peek(b, 0) == 'd') && peek(b, 1) == 'n')
		b->p += 2;
	n = isdigit(peek(b, 0)) ? b_source_name(b) :
	    peek(b, 0) == 'S' || peek(b, 0) == 'T' ? b_type(b) :
	    b_unqualified(b);
	if (peek(b, 0) == 'I')
		n = add(n, b_template_args(b));
	return add(n, 2);
}

/* sr: A::B<C>::d, T::a, ... */
static uint64_t
b_scoped(struct bound *b)
{
	uint64_t n = 16;

	b->p += 2;
	if (eat(b, 'N'))
		n = add(n, b_type(b));
	else if (!isdigit(peek(b, 0)))
		return add(add(n, b_type(b)), b_unresolved(b));
	while (b->p < b->e && !eat(b, 'E'))
		n = add(n, b_unresolved(b));
	return add(n, b_unresolved(b));
}

static uint64_t
b_expr(struct bound *b)
{
	uint64_t n;
	int c = peek(b, 0), d = peek(b, 1);

	if (++b->depth > MAXDEPTH)
		return bad(b);
	if (c == 'L') {		/* L <type> <value> E, L _Z <encoding> E */
		b->p++;
		if (peek(b, 0) == '_' && peek(b, 1) == 'Z') {
			n = b_parts(b, "_ZC");
		} else {
			n = b_type(b);
			for (; b->p < b->e && *b->p != 'E'; b->p++)
				n = add(n, 1);
		}
		n = eat(b, 'E') ? add(n, 8) : bad(b);
	} else if (c == 'T') {
		n = b_ref(b);
	} else if (c == 'f' && (d == 'p' || d == 'L')) {
		/* fp <CV> [N] _, fL N p <CV> [N] _, fpT: a function's
		 * parameter, at most "{parm#N}" */
		b->p += 2;
		if (eat(b, 'T')) {
			n = 4;
		} else {
			b_span(b, "0123456789nprVK");
			n = eat(b, '_') ? 24 : bad(b);
		}
	} else if (isdigit(c) || ((c == 'o' || c == 'd') && d == 'n')) {
		n = b_unresolved(b);
	} else if (c == 's' && d == 'r') {
		n = b_scoped(b);
	} else if ((c == 'p' || c == 'm') && d == c && peek(b, 2) != '_') {
		/* a++, a--: libstdc++ holds the operand twice, and its search
		 * for a pack walks both: each level doubles the cost */
		b->p += 2;
		n = b_expr(b);
		n = add(16, add(n, n));
	} else if (c == 'c' && d == 'v') {	/* (T)a, T(a, b) */
		b->p += 2;
		n = add(16, b_type(b));
		n = add(n, eat(b, '_') ? add(b_parts(b, "*e"), 2) : b_expr(b));
	} else {
		n = b_code(b, operators);
	}
	b->depth--;
	return n;
}

/* <encoding> ::= <name> [<bare-function-type>] | <special-name> */
static uint64_t
b_encoding(struct bound *b)
{
	uint64_t n;
	int c = peek(b, 0), d = peek(b, 1), tname = b->tname;

	if (++b->depth > MAXDEPTH)
		return bad(b);
	if (c == 'G' || (c == 'T' && d != '_' && !isdigit(d))) {
		n = b_code(b, specials);
	} else {
		b->tname = 1;
		n = b_name(b, 0);
		b->tname = tname;
		n = add(n, b_types(b));
	}
	b->depth--;
	return n;
}

/* The parts that are read by a function of their own, by letter. */
static const char fn_parts[] = "tleuCS";
static uint64_t (*const fns[])(struct bound *) = {
	b_type, b_types, b_expr, b_unresolved, b_encoding, b_source_name
};

/* The parts SPEC names, read in turn, their bounds added: t a type, l
 * types, e an expression, u an unresolved name, C an encoding, S a source
 * name, n a number, N a name, o a call offset (h <number> _, v <number> _
 * <number> _), s a seq-id and its _; E and _ themselves; ?X: X if there;
 * *X: X up to an E (eaten), each printed with ", ". */
static uint64_t
b_parts(struct bound *b, const char *spec)
{
	uint64_t n = 0, v;
	const char *f;

	for (; *spec != '\0' && !b->fail; spec++) {
		if ((f = strchr(fn_parts, *spec)) != NULL) {
			n = add(n, fns[f - fn_parts](b));
			continue;
		}
		switch (*spec) {
		case '*':
			f = strchr(fn_parts, *++spec);
			while (b->p < b->e && !eat(b, 'E'))
				n = add(n, add(fns[f - fn_parts](b), 2));
			break;
		case 'n':
			n = add(n, b_number(b, &v));
			break;
		case 'N':
			n = add(n, b_name(b, 0));
			break;
		case 'o':
			if (eat(b, 'h'))
				b_parts(b, "n_");
			else if (eat(b, 'v'))
				b_parts(b, "n_n_");
			else
				bad(b);
			break;
		case 's':
			if (!b_seq(b, &v, 36))
				bad(b);
			break;
		case '?':	/* the letter after it, if there */
			eat(b, *++spec);
			break;
		default:	/* E, _ */
			if (!eat(b, *spec))
				bad(b);
			break;
		}
	}
	return n;
}

uint64_t
demangle_bound(const char *name, size_t len)
{
	struct bound b = { 0 };
	uint64_t n = SAT;

	if (len < 3 || name[0] != '_' || name[1] != 'Z')
		return SAT;
	b.nmax = len;
	b.sub = xmalloc(3 * len * sizeof *b.sub);
	b.targ = b.sub + len;
	b.prevtarg = b.targ + len;
	memset(b.prevtarg, 0, len * sizeof *b.prevtarg);
	/* again while a bound grows: a T_ may name a later argument */
	for (int pass = 0; pass < 8; pass++) {
		b.p = name + 2;
		b.e = name + len;
		b.nsub = b.pack = b.maxsrc = 0;
		memset(b.targ, 0, len * sizeof *b.targ);
		n = b_encoding(&b);
		/* the rest, a clone's suffix (.constprop.0, .isra.0, .cold):
		 * " [clone .PART]" each (the demangler refuses other forms) */
		if (peek(&b, 0) == '.')
			for (; b.p < b.e; b.p++)
				n = add(n, *b.p == '.' ? 10 : 1);
		if (b.fail || b.p != b.e || (b.pack == b.prevpack &&
		    memcmp(b.targ, b.prevtarg, len * sizeof *b.targ) == 0))
			break;
		memcpy(b.prevtarg, b.targ, len * sizeof *b.targ);
		b.prevpack = b.pack;
		n = SAT;
	}
	free(b.sub);
	return b.fail || b.p != b.e ? SAT : n;
}

/* ---- the demangler ------------------------------------------------------- */

#define DEMANGLED_MAX 4096	/* longer demangled names stay mangled */

/* By soname, never by path.  A set-user-ID install gets here only after
 * giving its rights up for good (kroot_drop_privileges_for_good) and stays
 * AT_SECURE, so the loader still ignores the caller's LD_LIBRARY_PATH and
 * LD_PRELOAD: only the system's libstdc++ can be loaded. */
static void
load(struct demangler *dm)
{
	void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);

	dm->loaded = 1;
	/* a function pointer from dlsym's object pointer, as POSIX allows */
	if (h != NULL)
		*(void **)&dm->fn = dlsym(h, "__cxa_demangle");
	if (dm->fn == NULL)
		warnx_("notice: C++ names are shown mangled: no demangler "
		    "(__cxa_demangle of libstdc++.so.6) could be loaded");
}

/* Tried only when the bound is at most DEMANGLED_MAX, or at most 64 KiB and
 * 64 bytes for each of NAME's: __cxa_demangle makes the whole result
 * before it can be measured. */
const char *
demangle_or_same(void *ctx, const char *name, size_t len, size_t *outlen)
{
	struct demangler *dm = ctx;
	uint64_t b = len > 4 * DEMANGLED_MAX ? SAT : demangle_bound(name, len);
	int status = -1;
	char *in, *r;

	*outlen = len;
	if ((b > DEMANGLED_MAX && (b > 64 * (uint64_t)len ||
	    b > 16 * DEMANGLED_MAX)) || memchr(name, '\0', len) != NULL)
		return name;	/* not "_Z...", or too long */
	if (!dm->loaded)
		load(dm);
	if (dm->fn == NULL)
		return name;
	in = xasprintf("%.*s", (int)len, name);	/* len is 16 KiB at most */
	r = dm->fn(in, NULL, NULL, &status);
	free(in);
	if (r == NULL || status != 0 || strlen(r) > DEMANGLED_MAX) {
		free(r);
		return name;
	}
	free(dm->last);
	dm->last = r;
	*outlen = strlen(r);
	return r;
}

void
demangler_free(struct demangler *dm)
{
	free(dm->last);
	dm->last = NULL;
}
