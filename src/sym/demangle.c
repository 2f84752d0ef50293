/*
 * demangle.c - __cxa_demangle from libstdc++, loaded when first needed.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sym/demangle.h"
#include "base/util.h"

/* ---- the bound ----------------------------------------------------------- */

/*
 * An upper bound on the length of a name's demangled form, read from the
 * mangled name alone, in time linear in it (the Itanium C++ ABI's
 * grammar).  A demangled name can be exponentially longer than its
 * mangled form: a substitution (S_, S0_, ...) or a template parameter
 * (T_, ...) prints a whole earlier part again, and that part may hold
 * substitutions of its own.  The bound takes for each of them the longest
 * part read so far (all of it, on the last pass, for a template
 * parameter, which may name an argument that comes later): never less
 * than the part meant, whichever it is.  A construct the reader does not
 * know makes the name unbounded: it stays mangled.
 */
#define SAT ((uint64_t)1 << 40)		/* "too long", and no overflow */
#define MAXDEPTH 256

struct bound {
	const char *s0, *p, *e;
	uint64_t *sub;		/* the substitution candidates so far */
	uint64_t nsub;
	uint64_t *targ;		/* by place: the longest template argument */
	uint64_t *prevtarg;	/* the same, at the end of the last pass */
	uint64_t ntarg;		/* places */
	uint64_t pack;		/* the most arguments of a pack (J ... E) */
	uint64_t prevpack;	/* the same, at the end of the last pass */
	uint64_t maxsrc;	/* the longest source name: a constructor's */
	int tname;		/* reading the name of an encoding */
	int depth, fail;
};

static uint64_t b_type(struct bound *b);
static uint64_t b_name(struct bound *b, int substable);
static uint64_t b_encoding(struct bound *b);
static uint64_t b_expr(struct bound *b);
static uint64_t b_template_args(struct bound *b);

static uint64_t
add(uint64_t a, uint64_t c)
{
	return a + c >= SAT ? SAT : a + c;
}

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
	if (b->nsub >= b->ntarg)
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

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_upper(int c)
{
	return c >= 'A' && c <= 'Z';
}

/* Qualifiers of SET at B: " volatile" and shorter, each printed. */
static uint64_t
b_quals(struct bound *b, const char *set)
{
	uint64_t n = 0;

	while (peek(b, 0) != 0 && strchr(set, peek(b, 0)) != NULL) {
		b->p++;
		n = add(n, 9);
	}
	return n;
}

/* A decimal number; its digits (n, the optional negative sign). */
static uint64_t
b_number(struct bound *b, uint64_t *v)
{
	const char *s = b->p;

	*v = 0;
	eat(b, 'n');
	while (is_digit(peek(b, 0))) {
		*v = add(*v * 10 > SAT ? SAT : *v * 10,
		    (uint64_t)(*b->p - '0'));
		b->p++;
	}
	return (uint64_t)(b->p - s);
}

/* <seq-id>? _ : base-36 digits and upper-case letters, then _. */
static int
b_seq(struct bound *b)
{
	while (is_digit(peek(b, 0)) || is_upper(peek(b, 0)))
		b->p++;
	return eat(b, '_');
}

/* <source-name> ::= <number> <identifier> */
static uint64_t
b_source_name(struct bound *b)
{
	uint64_t n;

	if (!is_digit(peek(b, 0)) || b_number(b, &n) == 0 ||
	    n > (uint64_t)(b->e - b->p))
		return bad(b);
	b->p += n;
	if (n + 22 > b->maxsrc)
		b->maxsrc = n + 22;
	return n + 22;	/* "(anonymous namespace)" for _GLOBAL__N */
}

/* ABI tags after a name: B <source-name>, printed [abi:NAME]. */
static uint64_t
b_abi_tags(struct bound *b, uint64_t n)
{
	while (eat(b, 'B'))
		n = add(n, add(b_source_name(b), 8));
	return n;
}

/* _ <digit> or __ <number> _ (or nothing): a discriminator, not printed
 * (or "#N" by a lambda). */
static void
b_discriminator(struct bound *b)
{
	uint64_t v;

	if (peek(b, 0) != '_')
		return;
	b->p++;
	if (eat(b, '_')) {
		b_number(b, &v);
		if (!eat(b, '_'))
			bad(b);
	} else if (is_digit(peek(b, 0))) {
		b->p++;
	} else {
		bad(b);
	}
}

/* Types up to E (or the end of the name): a parameter list. */
static uint64_t
b_types(struct bound *b, int to_e)
{
	uint64_t n = 2;

	while (!b->fail && b->p < b->e && peek(b, 0) != 'E' &&
	    peek(b, 0) != '.') {
		if ((peek(b, 0) == 'R' || peek(b, 0) == 'O') &&
		    peek(b, 1) == 'E') {	/* a function type's & or && */
			b->p++;
			n = add(n, 3);
			continue;
		}
		n = add(n, add(b_type(b), 2));
	}
	if (to_e == 1 && !eat(b, 'E'))
		return bad(b);
	return n;
}

/* S_, S0_, ... (the longest part: see above), or Sa, Sb, Ss, ...:
 * std::allocator and the other abbreviations, printed in full. */
static uint64_t
b_substitution(struct bound *b)
{
	int c = peek(b, 1);
	uint64_t i;

	b->p++;
	if (c >= 'a' && c <= 'z') {
		b->p++;
		return c == 't' ? 5 : 80;
	}
	if (!is_digit(peek(b, 0)) && !is_upper(peek(b, 0)))
		return eat(b, '_') && b->nsub > 0 ? b->sub[0] : bad(b);
	for (i = 0; is_digit(peek(b, 0)) || is_upper(peek(b, 0)); b->p++) {
		c = peek(b, 0);
		i = i * 36 + (uint64_t)(is_digit(c) ? c - '0' : c - 'A' + 10);
		if (i >= b->ntarg)
			return bad(b);
	}
	if (!eat(b, '_') || i + 1 >= b->nsub)
		return bad(b);
	return b->sub[i + 1];
}

/* T_, T0_, ...: the longest argument of that place in any list. */
static uint64_t
b_template_param(struct bound *b)
{
	uint64_t i = 0;

	b->p++;
	if (is_digit(peek(b, 0)) || is_upper(peek(b, 0))) {
		while (is_digit(peek(b, 0)) || is_upper(peek(b, 0))) {
			int c = peek(b, 0);

			i = i * 36 + (uint64_t)(is_digit(c) ? c - '0' : c - 'A' + 10);
			if (i > (uint64_t)(b->e - b->s0))
				return bad(b);
			b->p++;
		}
		i++;
	}
	if (!eat(b, '_'))
		return bad(b);
	if (i >= b->ntarg)
		return bad(b);
	return b->targ[i] > b->prevtarg[i] ? b->targ[i] : b->prevtarg[i];
}

/* <template-arg>: a type, X <expression> E, a literal, J <args>* E. */
static uint64_t
b_template_arg(struct bound *b)
{
	uint64_t n = 0, k = 0;

	switch (peek(b, 0)) {
	case 'X':
		b->p++;
		n = b_expr(b);
		return eat(b, 'E') ? n : bad(b);
	case 'L':
		return b_expr(b);
	case 'J':
		b->p++;
		while (!b->fail && b->p < b->e && !eat(b, 'E')) {
			n = add(n, add(b_template_arg(b), 2));
			k++;
		}
		if (k > b->pack)
			b->pack = k;
		return n;
	default:
		return b_type(b);
	}
}

/* I <template-arg>+ E, printed <A, B, ...> */
static uint64_t
b_template_args(struct bound *b)
{
	uint64_t n = 3, i = 0, a;
	int rec = b->tname;

	b->p++;
	while (!b->fail && b->p < b->e && peek(b, 0) != 'E') {
		a = b_template_arg(b);
		if (rec && i < b->ntarg && a > b->targ[i])
			b->targ[i] = a;
		i++;
		n = add(n, add(a, 2));
	}
	return eat(b, 'E') ? n : bad(b);
}

/* <operator-name>, two letters (or cv <type>, li <name>, v <digit> <name>) */
static uint64_t
b_operator(struct bound *b)
{
	int c = peek(b, 0), d = peek(b, 1);

	if (c == 'v' && is_digit(d)) {
		b->p += 2;
		return add(b_source_name(b), 10);
	}
	if (!(d >= 'a' && d <= 'z') && !(d >= 'A' && d <= 'Z'))
		return bad(b);
	b->p += 2;
	if (c == 'c' && d == 'v')
		return add(b_type(b), 10);
	if (c == 'l' && d == 'i')
		return add(b_source_name(b), 12);
	return 32;	/* "operator reinterpret_cast" (25) and shorter */
}

/* U t|l|b ...: {unnamed type#N}, {lambda(PARAMS)#N} */
static uint64_t
b_unnamed(struct bound *b)
{
	uint64_t n = 40, v;

	b->p++;
	if (eat(b, 'l'))
		n = add(n, b_types(b, 1));
	else if (!eat(b, 't'))
		return bad(b);
	b_number(b, &v);
	return eat(b, '_') ? n : bad(b);
}

/* <unqualified-name>: a constructor prints a class's name again. */
static uint64_t
b_unqualified(struct bound *b)
{
	int c = peek(b, 0), d = peek(b, 1);
	uint64_t n;

	if (is_digit(c)) {
		n = b_source_name(b);
	} else if (c == 'L') {
		b->p++;
		n = b_source_name(b);
		b_discriminator(b);
	} else if (c == 'C' && (is_digit(d) || d == 'I')) {
		b->p += 2;
		if (d == 'I') {
			if (!is_digit(peek(b, 0)))
				return bad(b);
			b->p++;
			b_type(b);	/* the inheriting constructor's base */
		}
		n = b->maxsrc;
	} else if (c == 'D' && is_digit(d)) {
		b->p += 2;
		n = add(b->maxsrc, 1);
	} else if (c == 'D' && d == 'C') {	/* [a, b]: structured binding */
		b->p += 2;
		n = 2;
		while (!b->fail && b->p < b->e && !eat(b, 'E'))
			n = add(n, add(b_source_name(b), 2));
	} else if (c == 'U') {
		n = b_unnamed(b);
	} else if (c >= 'a' && c <= 'z') {
		n = b_operator(b);
	} else {
		return bad(b);
	}
	return b_abi_tags(b, n);
}

/* The parts of a nested name up to E: A::B<C>::D */
static uint64_t
b_prefix(struct bound *b)
{
	uint64_t n = 0, c;

	while (!b->fail && b->p < b->e && peek(b, 0) != 'E') {
		int ch = peek(b, 0), d = peek(b, 1);

		if (ch == 'M') {	/* a data member's initializer */
			b->p++;
			continue;
		}
		if (ch == 'S') {	/* not a candidate again */
			n = add(n, add(b_substitution(b), 2));
			continue;
		}
		if (ch == 'I')
			c = b_template_args(b);
		else if (ch == 'T')
			c = b_template_param(b);
		else if (ch == 'D' && (d == 't' || d == 'T')) {
			b->p += 2;
			c = add(b_expr(b), 12);
			if (!eat(b, 'E'))
				return bad(b);
			addsub(b, c);
		} else
			c = b_unqualified(b);
		n = add(n, add(c, 2));
		if (peek(b, 0) != 'E')	/* the last is the name's own */
			addsub(b, n);
	}
	return eat(b, 'E') ? n : bad(b);
}

/* N [<CV-qualifiers>] [<ref-qualifier>] <prefix> E */
static uint64_t
b_nested(struct bound *b)
{
	uint64_t q;

	b->p++;
	q = b_quals(b, "rVKROH");
	return add(b_prefix(b), add(q, 32));
}

/* Z <encoding> E <name> [<discriminator>], or E s, or E d [N] _ <name> */
static uint64_t
b_local(struct bound *b)
{
	uint64_t n, v;

	b->p++;
	n = b_encoding(b);
	if (!eat(b, 'E'))
		return bad(b);
	if (eat(b, 's')) {
		b_discriminator(b);
		return add(n, 20);	/* ::string literal */
	}
	if (eat(b, 'd')) {
		b_number(b, &v);
		if (!eat(b, '_'))
			return bad(b);
	}
	n = add(n, add(b_name(b, 0), 2));
	b_discriminator(b);
	return n;
}

/* <name>; a candidate when SUBSTABLE (a type's name, not a function's). */
static uint64_t
b_name(struct bound *b, int substable)
{
	uint64_t n;
	int sub = 0;

	if (++b->depth > MAXDEPTH)
		return bad(b);
	switch (peek(b, 0)) {
	case 'N':
		n = b_nested(b);
		break;
	case 'Z':
		n = b_local(b);
		break;
	case 'S':
		if (peek(b, 1) == 't') {
			b->p += 2;
			n = add(5, b_unqualified(b));
		} else {
			n = b_substitution(b);
			sub = 1;
		}
		break;
	default:
		n = b_unqualified(b);
		break;
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
mul(uint64_t a, uint64_t c)
{
	return c != 0 && a > SAT / c ? SAT : a * c;
}

/* A [<number> | <expression>] _ <type> */
static uint64_t
b_array(struct bound *b)
{
	uint64_t n = 4, v;

	b->p++;
	if (is_digit(peek(b, 0)))
		n += b_number(b, &v);
	else if (peek(b, 0) != '_')
		n = add(n, b_expr(b));
	if (!eat(b, '_'))
		return bad(b);
	return add(n, b_type(b));
}

/* F [Y] <bare-function-type> [<ref-qualifier>] E */
static uint64_t
b_function_type(struct bound *b)
{
	b->p++;
	eat(b, 'Y');
	return add(b_types(b, 1), 24);
}

/* D...: the types whose code begins with D. */
static uint64_t
b_dtype(struct bound *b)
{
	uint64_t n, v;
	int c = peek(b, 1);

	if (c == 0)
		return bad(b);
	b->p += 2;
	switch (c) {
	case 't': case 'T':	/* decltype (expression) */
		n = add(b_expr(b), 12);
		return eat(b, 'E') ? addsub(b, n) : bad(b);
	case 'p':		/* a pack expansion: once per argument */
		n = b_type(b);
		return addsub(b, mul(n, b->pack > b->prevpack ? b->pack + 1 :
		    b->prevpack + 1));
	case 'v':		/* a vector */
		if (eat(b, '_'))
			n = b_expr(b);
		else
			n = b_number(b, &v);
		if (!eat(b, '_'))
			return bad(b);
		return addsub(b, add(add(n, b_type(b)), 24));
	case 'F': case 'B': case 'U':	/* _FloatN, _BitInt(N) */
		if (peek(b, 0) == '_')
			n = b_expr(b);
		else
			b_number(b, &v);
		eat(b, 'x');
		return eat(b, '_') ? 40 : bad(b);
	case 'x': case 'o':	/* transaction_safe, noexcept */
		return add(b_type(b), 24);
	case 'O':		/* noexcept (expression) */
		n = b_expr(b);
		if (!eat(b, 'E'))
			return bad(b);
		return add(add(n, b_type(b)), 24);
	case 'w':		/* throw (types) */
		n = b_types(b, 1);
		return add(add(n, b_type(b)), 24);
	case 'a': case 'c': case 'd': case 'e': case 'f': case 'h':
	case 'i': case 's': case 'u': case 'n':
		return 32;	/* decltype(nullptr), char16_t, ... */
	default:
		return bad(b);
	}
}

static uint64_t
b_type(struct bound *b)
{
	uint64_t n;
	int c = peek(b, 0), tname = b->tname;

	if (c != 0 && strchr("vwbcahstijlmxynofdegz", c) != NULL) {
		b->p++;
		return 20;	/* unsigned __int128, ... */
	}
	if (++b->depth > MAXDEPTH)
		return bad(b);
	b->tname = 0;
	switch (c) {
	case 'u':
		b->p++;
		n = addsub(b, b_source_name(b));
		break;
	case 'r': case 'V': case 'K':
		n = b_quals(b, "rVK");
		/* a member function's qualifiers: F...E is no candidate */
		n = add(n, peek(b, 0) == 'F' ? b_function_type(b) : b_type(b));
		n = addsub(b, n);
		break;
	case 'P': case 'R': case 'O': case 'C': case 'G':
		b->p++;
		n = addsub(b, add(b_type(b), 12));
		break;
	case 'F':
		n = addsub(b, b_function_type(b));
		break;
	case 'A':
		n = addsub(b, b_array(b));
		break;
	case 'M':
		b->p++;
		n = add(b_type(b), 8);
		n = addsub(b, add(n, b_type(b)));
		break;
	case 'T':
		n = addsub(b, b_template_param(b));
		if (peek(b, 0) == 'I')
			n = addsub(b, add(n, b_template_args(b)));
		break;
	case 'S':
		c = peek(b, 1);
		if (!is_digit(c) && c != '_' && !is_upper(c))
			n = b_name(b, 1);
		else if ((n = b_substitution(b)), peek(b, 0) == 'I')
			n = addsub(b, add(n, b_template_args(b)));
		break;
	case 'D':
		n = b_dtype(b);
		break;
	default:
		if (!is_digit(c) && c != 'N' && c != 'Z')
			return bad(b);
		n = b_name(b, 1);
		break;
	}
	b->tname = tname;
	b->depth--;
	return n;
}

/* Operators of expressions by their code, and how many operands. */
static int
arity(int c, int d)
{
	static const char *const one = "psngaddecontppmmsztwsZspaz";
	static const char *const two = "plmimldvrmanoreoaSpLmImLdVrMaNoReOlsrslS"
	    "rSeqneltgtlegessaaoocmpmdsix";
	static const char *const three = "qu";
	const char *const t[3] = { one, two, three };

	for (int k = 0; k < 3; k++)
		for (const char *s = t[k]; s[0] != '\0'; s += 2)
			if (s[0] == c && s[1] == d)
				return k + 1;
	return 0;
}

/* Expressions up to the byte END, which is eaten. */
static uint64_t
b_exprs(struct bound *b, char end)
{
	uint64_t n = 2;

	while (!b->fail && b->p < b->e && !eat(b, end))
		n = add(n, add(b_expr(b), 2));
	return n;
}

/* An unresolved name: <unqualified-name> [<template-args>] */
static uint64_t
b_unresolved(struct bound *b)
{
	uint64_t n;

	if (peek(b, 0) == 'o' && peek(b, 1) == 'n')
		b->p += 2;
	else if (peek(b, 0) == 'd' && peek(b, 1) == 'n')
		b->p += 2;
	n = is_digit(peek(b, 0)) ? b_source_name(b) :
	    peek(b, 0) == 'S' || peek(b, 0) == 'T' ? b_type(b) :
	    b_unqualified(b);
	if (peek(b, 0) == 'I')
		n = add(n, b_template_args(b));
	return add(n, 2);
}

/* L <type> <value> E, L _Z <encoding> E */
static uint64_t
b_literal(struct bound *b)
{
	uint64_t n;

	b->p++;
	if (peek(b, 0) == '_' && peek(b, 1) == 'Z') {
		b->p += 2;
		n = b_encoding(b);
	} else {
		n = b_type(b);
		while (b->p < b->e && peek(b, 0) != 'E') {
			b->p++;
			n = add(n, 1);
		}
	}
	return eat(b, 'E') ? add(n, 8) : bad(b);
}

/* fp <CV> [N] _, fL N p <CV> [N] _, fpT: a function's parameter */
static uint64_t
b_fparam(struct bound *b)
{
	uint64_t v;

	b->p += 2;
	if (b->p[-1] == 'p' && eat(b, 'T'))
		return 4;
	if (b->p[-1] == 'L') {
		b_number(b, &v);
		if (!eat(b, 'p'))
			return bad(b);
	}
	while (peek(b, 0) == 'r' || peek(b, 0) == 'V' || peek(b, 0) == 'K')
		b->p++;
	b_number(b, &v);
	return eat(b, '_') ? 24 : bad(b);
}

static uint64_t
b_expr_coded(struct bound *b, int c, int d)
{
	uint64_t n = 16;
	int k;

	if (d == 0)
		return bad(b);
	b->p += 2;
	if ((c == 's' && d == 't') || (c == 'a' && d == 't'))
		return add(b_type(b), 16);
	if (c == 'c' && d == 'v') {
		n = add(n, b_type(b));
		return add(n, eat(b, '_') ? b_exprs(b, 'E') : b_expr(b));
	}
	if ((c == 'c' && d == 'l') || (c == 'i' && d == 'l'))
		return add(n, b_exprs(b, 'E'));
	if (c == 't' && d == 'l')
		return add(add(n, b_type(b)), b_exprs(b, 'E'));
	if ((c == 'd' || c == 'p') && d == 't')
		return add(add(n, b_expr(b)), b_unresolved(b));
	if (c == 's' && d == 'r') {	/* A::B<C>::d, T::a, ... */
		if (eat(b, 'N'))
			n = add(n, b_type(b));
		else if (!is_digit(peek(b, 0)))
			return add(add(n, b_type(b)), b_unresolved(b));
		while (!b->fail && b->p < b->e && !eat(b, 'E'))
			n = add(n, b_unresolved(b));
		return add(n, b_unresolved(b));
	}
	if (c == 's' && d == 'P')
		return add(n, b_exprs(b, 'E'));
	if (c == 'g' && d == 's')
		return add(n, b_expr(b));
	if (c == 't' && d == 'r')
		return n;
	if ((k = arity(c, d)) == 0)
		return bad(b);
	if ((c == 'p' || c == 'm') && c == d)
		eat(b, '_');	/* pp_, mm_: the prefix forms */
	while (k-- > 0)
		n = add(n, b_expr(b));
	return n;
}

static uint64_t
b_expr(struct bound *b)
{
	uint64_t n;
	int c = peek(b, 0), d = peek(b, 1);

	if (++b->depth > MAXDEPTH)
		return bad(b);
	if (c == 'L')
		n = b_literal(b);
	else if (c == 'T')
		n = b_template_param(b);
	else if (c == 'f' && (d == 'p' || d == 'L'))
		n = b_fparam(b);
	else if (is_digit(c) || (c == 'o' && d == 'n') || (c == 'd' && d == 'n'))
		n = b_unresolved(b);
	else if (c >= 'a' && c <= 'z')
		n = b_expr_coded(b, c, d);
	else
		n = bad(b);
	b->depth--;
	return n;
}

/* h <number> _, v <number> _ <number> _: a thunk's offsets (after H). */
static int
b_call_offset(struct bound *b, int h)
{
	uint64_t v;

	b_number(b, &v);
	if (!eat(b, '_'))
		return 0;
	if (h == 'v') {
		b_number(b, &v);
		return eat(b, '_');
	}
	return 1;
}

/* <special-name>: T V/T/I/S <type>, T h/v <offsets> <encoding>, G V
 * <name>, G R <name> [N] _, G A <encoding>, G T t/n <encoding>, T H/W
 * <name>, T C <type> <number> _ <type>, T c <offsets> <offsets> ... */
static uint64_t
b_special(struct bound *b)
{
	int c = peek(b, 0), d = peek(b, 1);
	uint64_t n = 64, v;

	if (d == 0)
		return bad(b);
	b->p += 2;
	if (c == 'T' && strchr("VTISA", d) != NULL)
		return add(n, b_type(b));
	if (c == 'T' && (d == 'H' || d == 'W'))
		return add(n, b_name(b, 0));
	if (c == 'T' && d == 'C') {
		n = add(n, b_type(b));
		b_number(b, &v);
		if (!eat(b, '_'))
			return bad(b);
		return add(n, b_type(b));
	}
	if (c == 'T' && (d == 'h' || d == 'v'))
		return b_call_offset(b, d) ? add(n, b_encoding(b)) : bad(b);
	if (c == 'T' && d == 'c') {
		for (int k = 0; k < 2; k++) {
			int h = peek(b, 0);

			if (h != 'h' && h != 'v')
				return bad(b);
			b->p++;
			if (!b_call_offset(b, h))
				return bad(b);
		}
		return add(n, b_encoding(b));
	}
	if (c == 'G' && d == 'V')
		return add(n, b_name(b, 0));
	if (c == 'G' && d == 'R') {
		n = add(n, b_name(b, 0));
		return b_seq(b) ? n : bad(b);
	}
	if (c == 'G' && d == 'A')
		return add(n, b_encoding(b));
	if (c == 'G' && d == 'T' && (eat(b, 't') || eat(b, 'n')))
		return add(n, b_encoding(b));
	return bad(b);
}

/* <encoding> ::= <name> [<bare-function-type>] | <special-name> */
static uint64_t
b_encoding(struct bound *b)
{
	uint64_t n;
	int c = peek(b, 0);

	if (++b->depth > MAXDEPTH)
		return bad(b);
	if ((c == 'T' && peek(b, 1) != '_' && !is_digit(peek(b, 1))) ||
	    c == 'G')
		n = b_special(b);
	else {
		int tname = b->tname;

		b->tname = 1;
		n = b_name(b, 0);
		b->tname = tname;
		if (b->p < b->e && peek(b, 0) != 'E' && peek(b, 0) != '.')
			n = add(n, b_types(b, 0));
	}
	b->depth--;
	return n;
}

/* A clone's suffix: .constprop.0, .isra.0, .cold, printed [clone ...] */
static uint64_t
b_clones(struct bound *b)
{
	uint64_t n = 0;
	const char *s;

	while (peek(b, 0) == '.' && (peek(b, 1) == '_' || is_digit(peek(b, 1)) ||
	    (peek(b, 1) >= 'a' && peek(b, 1) <= 'z'))) {
		s = b->p;
		b->p += 2;
		while (peek(b, 0) == '_' || (peek(b, 0) >= 'a' && peek(b, 0) <= 'z'))
			b->p++;
		while (peek(b, 0) == '.' && is_digit(peek(b, 1)))
			for (b->p += 2; is_digit(peek(b, 0)); b->p++)
				;
		n = add(n, (uint64_t)(b->p - s) + 10);
	}
	return n;
}

/* One pass over NAME (LEN bytes, after its _Z): the bound, or SAT. */
static uint64_t
bound_pass(struct bound *b, const char *name, size_t len)
{
	uint64_t n;

	b->s0 = b->p = name + 2;
	b->e = name + len;
	b->nsub = b->pack = b->maxsrc = 0;
	b->depth = b->fail = b->tname = 0;
	memset(b->targ, 0, b->ntarg * sizeof *b->targ);
	n = b_encoding(b);
	n = add(n, b_clones(b));
	return b->fail || b->p != b->e ? SAT : n;
}

uint64_t
demangle_bound(const char *name, size_t len)
{
	struct bound b;
	uint64_t n = SAT;

	if (len < 3 || name[0] != '_' || name[1] != 'Z')
		return SAT;
	b.ntarg = len;
	b.targ = xmalloc(3 * len * sizeof *b.targ);
	b.prevtarg = b.targ + len;
	b.sub = b.targ + 2 * len;
	memset(b.prevtarg, 0, len * sizeof *b.prevtarg);
	b.prevpack = 0;
	/* a template parameter may name an argument read later: again,
	 * until no argument's bound grows */
	for (int pass = 0; pass < 8; pass++) {
		if ((n = bound_pass(&b, name, len)) == SAT)
			break;
		if (b.pack == b.prevpack && memcmp(b.targ, b.prevtarg,
		    len * sizeof *b.targ) == 0)
			break;
		memcpy(b.prevtarg, b.targ, len * sizeof *b.targ);
		b.prevpack = b.pack;
		n = SAT;
	}
	free(b.targ);
	return n;
}

/* ---- the demangler ------------------------------------------------------- */

/* Longer demangled names are shown mangled. */
#define DEMANGLED_MAX 4096

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf,
    size_t *len, int *status);

static cxa_demangle_fn cxa_demangle;
static int loaded, told;
static char *in, *last;
static size_t incap;

/*
 * The library is named by its soname, never by a path: the dynamic
 * loader's own search.  A set-user-ID install reaches this only after
 * giving its rights up for good (kroot_drop_privileges_for_good), and
 * the process stays AT_SECURE for its life, so glibc's and musl's loaders
 * still ignore LD_LIBRARY_PATH and LD_PRELOAD from the caller's
 * environment: only the system's libstdc++ can be loaded.
 */
static void
load(void)
{
	void *h;

	loaded = 1;
	h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL)
		return;
	/* a function pointer from dlsym's object pointer, as POSIX allows */
	*(void **)&cxa_demangle = dlsym(h, "__cxa_demangle");
}

/*
 * Whether NAME (LEN bytes) is worth demangling: its demangled form may be
 * at most DEMANGLED_MAX bytes long, and demangling it costs at most 64
 * bytes for each of its own (or DEMANGLED_MAX): __cxa_demangle makes
 * the whole result, however long, before it can be measured.
 */
static int
worth_demangling(const char *name, size_t len)
{
	uint64_t b, most = 64 * (uint64_t)len;

	if (len > 4 * DEMANGLED_MAX)
		return 0;
	b = demangle_bound(name, len);
	return b <= DEMANGLED_MAX || (b <= most && b <= 16 * DEMANGLED_MAX);
}

/*
 * The demangled form of NAME (LEN bytes), its length in *OUTLEN; NULL when
 * NAME is not a mangled C++ name (it does not begin with "_Z", or the
 * demangler refuses it), when its demangled form would be over
 * DEMANGLED_MAX bytes, or when no demangler can be loaded.  Valid until
 * the next call.
 */
static const char *
demangle(const char *name, size_t len, size_t *outlen)
{
	int status = -1;
	char *r;

	if (len < 3 || name[0] != '_' || name[1] != 'Z' ||
	    memchr(name, '\0', len) != NULL || !worth_demangling(name, len))
		return NULL;
	if (!loaded)
		load();
	if (cxa_demangle == NULL) {
		if (!told)
			warnx_("notice: C++ names are shown mangled: no "
			    "demangler (__cxa_demangle of libstdc++.so.6) "
			    "could be loaded");
		told = 1;
		return NULL;
	}
	if (len + 1 > incap) {
		incap = len + 64;
		in = xrealloc(in, incap);
	}
	memcpy(in, name, len);
	in[len] = '\0';
	r = cxa_demangle(in, NULL, NULL, &status);
	if (r == NULL || status != 0 || strlen(r) > DEMANGLED_MAX) {
		free(r);
		return NULL;
	}
	free(last);
	last = r;
	*outlen = strlen(r);
	return r;
}

const char *
demangle_or_same(const char *name, size_t len, size_t *outlen)
{
	const char *d = demangle(name, len, outlen);

	if (d != NULL)
		return d;
	*outlen = len;
	return name;
}
